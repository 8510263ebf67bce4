import type { PanelStore } from '../lib/panel/store'

/** The task asks the person something, answered right here; a site to authorise gets its own card. */
export function Question({ store }: { store: PanelStore }) {
  const { t, task } = store
  const question = task.question.value
  if (!question || store.needsSite.value) return null
  const words = task.view.value?.task.questionWords
  return (
    <form
      class="card attention"
      data-testid="question"
      onSubmit={(e) => {
        e.preventDefault()
        void task.answer()
      }}
    >
      <h2>{t('question.title')}</h2>
      <p class="question">{words?.code === 'RECORDED_STEP_GONE' ? t('record.question.stepGone', words.params) : question}</p>
      <input name="answer" aria-label={t('question.answer')} value={task.answerText.value} onInput={(e) => task.setAnswer(e.currentTarget.value)} />
      <div class="row">
        <button type="submit" class="primary" disabled={store.busy.value || !task.answerText.value.trim()}>
          {t('question.answer')}
        </button>
      </div>
    </form>
  )
}
