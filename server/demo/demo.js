// The message goes nowhere: the page only shows what a real site would have sent.
document.getElementById('contact').addEventListener('submit', (event) => {
  event.preventDefault()
  const form = event.currentTarget
  const sent = document.getElementById('sent')
  sent.textContent = `Message sent. Thank you, ${form.elements.name.value}! 留言已发送。`
  sent.hidden = false
  form.hidden = true
})
