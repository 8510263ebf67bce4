import type { StepView, TaskExchange } from '#protocol'
import type { PanelT } from './i18n'

export type TimelineEntry = { kind: 'step'; step: StepView } | { kind: 'exchange'; exchange: TaskExchange }

/**
 * The steps and the questions answered between them, in the order they happened: an answer comes after every step
 * recorded before it, and before the steps the task took once answered.
 */
export function timelineEntries(steps: readonly StepView[], exchanges: readonly TaskExchange[] = []): TimelineEntry[] {
  const entries: TimelineEntry[] = []
  let next = 0
  for (const step of steps) {
    while (next < exchanges.length && exchanges[next]!.at < step.at) entries.push({ kind: 'exchange', exchange: exchanges[next++]! })
    entries.push({ kind: 'step', step })
  }
  for (; next < exchanges.length; next++) entries.push({ kind: 'exchange', exchange: exchanges[next]! })
  return entries
}

/**
 * A question and its answer in the reader's words: a site question and the person's Allow or Don't allow are said
 * in their language; a question the task has words for is too; the model's own question and the person's typed
 * answer stay as they were written.
 */
export function exchangeWords(exchange: TaskExchange, t: PanelT): { asked: string; question?: string; answered: string; answer: string } {
  const { site, siteAccess, questionWords } = exchange
  if (site) {
    const answer = siteAccess === 'allowed' ? t('exchange.siteAllowed', { origin: site }) : siteAccess === 'refused' ? t('exchange.siteRefused', { origin: site }) : exchange.answer
    return { asked: t('exchange.siteAsked', { origin: site }), answered: t('exchange.answered'), answer }
  }
  const question = questionWords?.code === 'RECORDED_STEP_GONE' ? t('record.question.stepGone', questionWords.params) : exchange.question
  return { asked: t('exchange.asked'), question, answered: t('exchange.answered'), answer: exchange.answer }
}
