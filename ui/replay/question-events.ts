import type { Placers } from './draft'
import { str } from './draft'
import type { ReplayQuestion } from './types'

/** The questions put to the person, each with its answer once given. */
export const questionPlacers: Placers = {
  'user.asked'(draft, event) {
    const question: ReplayQuestion = { question: event.data.question, askedAt: event.ts, ...(str(event.data.reason) ? { reason: event.data.reason } : {}) }
    draft.openQuestion = question
    draft.replay.questions.push(question)
    draft.replay.timeline.push({ kind: 'question', question })
  },
  'user.answered'(draft, event) {
    const { openQuestion, replay } = draft
    const asked = str(event.data.question)
    const question = openQuestion && (!asked || openQuestion.question === asked) ? openQuestion : undefined
    if (question) {
      question.answer = event.data.answer
      question.answeredAt = event.ts
    } else {
      const answered: ReplayQuestion = { question: asked ?? '', askedAt: event.ts, answer: event.data.answer, answeredAt: event.ts }
      replay.questions.push(answered)
      replay.timeline.push({ kind: 'question', question: answered })
    }
    draft.openQuestion = undefined
  },
}
