// The message goes to this Tandem server as it would to a real site, which answers and keeps nothing: the request
// is what the write barrier holds and the person approves.
document.getElementById('contact').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = event.currentTarget
  const sent = document.getElementById('sent')
  const fields = form.elements
  const body = { name: fields.name.value, email: fields.email.value, topic: fields.topic.value, message: fields.message.value }
  let ok = false
  try {
    ok = (await fetch('messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).ok
  } catch {
    ok = false
  }
  sent.textContent = ok
    ? `Message sent. Thank you, ${fields.name.value}! 留言已发送。`
    : 'The message was not sent. 留言未发送。'
  sent.hidden = false
  form.hidden = ok
})
