import type { Principal, TaskStatus } from '#protocol'
import type { Lang } from './i18n'
import { canceledByWords } from './principal-words'

/** How a task's status is named to people: one set of words, so the panel, the console and the replay agree. */
export const STATUS_WORDS = {
  en: {
    RUNNING: 'Running',
    WAITING_CONFIRMATION: 'Waiting for your approval',
    WAITING_USER: 'Waiting for your answer',
    WAITING_PAGE: 'Waiting for the page',
    PAUSED: 'Paused: you have control',
    SUCCEEDED: 'Done',
    FAILED: 'Failed',
    CANCELED: 'Canceled',
    WAITING_PLAN: 'Waiting for you to approve the plan',
  },
  'zh-CN': {
    RUNNING: '运行中',
    WAITING_CONFIRMATION: '等待你批准',
    WAITING_USER: '等待你回答',
    WAITING_PAGE: '等待页面',
    PAUSED: '已暂停：由你操作',
    SUCCEEDED: '已完成',
    FAILED: '失败',
    CANCELED: '已取消',
    WAITING_PLAN: '等待你批准计划',
  },
} satisfies Record<Lang, Record<TaskStatus, string>>

/** The words as entries of a surface's dictionary, each key under `prefix` ("status." → "status.RUNNING"). */
export function statusEntries<P extends string>(prefix: P, lang: Lang): Record<`${P}${TaskStatus}`, string> {
  return Object.fromEntries(Object.entries(STATUS_WORDS[lang]).map(([status, words]) => [`${prefix}${status}`, words])) as Record<`${P}${TaskStatus}`, string>
}

/** A task the person ended themselves: by rejecting a step or canceling. Shown as their choice, never as a failure. */
export type PersonEnd = 'rejected' | 'canceled'

export function personEnd(status: TaskStatus | undefined, error?: { code: string }): PersonEnd | undefined {
  if (status === 'CANCELED' || (status === 'FAILED' && error?.code === 'CANCELED')) return 'canceled'
  if (status === 'FAILED' && error?.code === 'REJECTED') return 'rejected'
  return undefined
}

const PERSON_END_WORDS = {
  en: { rejected: 'Stopped: you said no', canceled: 'Canceled by you' },
  'zh-CN': { rejected: '已停止：你拒绝了', canceled: '已由你取消' },
} satisfies Record<Lang, Record<PersonEnd, string>>

/**
 * A status as a person reads it, with the tone a reader styles it by: their own choice has its own words and a
 * quiet tone (`by-you`), not the red of a failure. A task an agent canceled says which agent (`canceledBy`, the
 * principal of the cancel), so the person never reads "by you" for what they did not do.
 */
export function statusOf(
  lang: Lang,
  status: TaskStatus,
  error?: { code: string },
  canceledBy?: Principal,
): { words: string; tone: TaskStatus | 'by-you' } {
  const ended = personEnd(status, error)
  if (ended === 'canceled' && canceledBy?.kind === 'agent') return { words: canceledByWords(lang, canceledBy), tone: 'CANCELED' }
  return ended ? { words: PERSON_END_WORDS[lang][ended], tone: 'by-you' } : { words: STATUS_WORDS[lang][status], tone: status }
}

/** Who canceled a task, from its latest answer. */
export const canceledByOf = (task: { lastAnswer?: { kind: string; by: Principal } }): Principal | undefined =>
  task.lastAnswer?.kind === 'cancel' ? task.lastAnswer.by : undefined
