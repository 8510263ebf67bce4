import { useState } from 'preact/hooks'
import type { PanelStore } from '../lib/panel/store'

export function StartTask({ store }: { store: PanelStore }) {
  const [goal, setGoal] = useState('')
  const [startUrl, setStartUrl] = useState('')
  return (
    <form
      class="card"
      data-testid="start"
      onSubmit={(e) => {
        e.preventDefault()
        void store.startTask({ goal, startUrl })
      }}
    >
      <h2>New task</h2>
      <label>
        Goal
        <textarea name="goal" rows={3} value={goal} onInput={(e) => setGoal(e.currentTarget.value)} />
      </label>
      <label>
        Start URL (optional)
        <input name="startUrl" placeholder="https://…" value={startUrl} onInput={(e) => setStartUrl(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={store.busy.value}>
        Start
      </button>
    </form>
  )
}
