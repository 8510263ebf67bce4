import { useState } from 'preact/hooks'
import type { PanelStore } from '../lib/panel/store'

/** The task asks the person something; a site to authorise gets its own button (see SiteAccess). */
export function Question({ store }: { store: PanelStore }) {
  const [answer, setAnswer] = useState('')
  const question = store.question.value
  if (!question || store.needsSite.value) return null
  return (
    <form
      class="card"
      data-testid="question"
      onSubmit={(e) => {
        e.preventDefault()
        void store.answer(answer).then(() => setAnswer(''))
      }}
    >
      <h2>The task asks</h2>
      <p>{question}</p>
      <input name="answer" value={answer} onInput={(e) => setAnswer(e.currentTarget.value)} />
      <button type="submit" disabled={store.busy.value}>
        Answer
      </button>
    </form>
  )
}
