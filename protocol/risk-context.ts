import { normalizeLabel } from './label-text'
import type { RiskKind, RiskReason } from './risk-reasons'
import { DIALOG_HIGH_KEYWORDS, findInNormalized, findKeyword, isGenericNormalized, kindOf, withoutBenignPhrases } from './risk-words'
import type { Risk } from './action'

/**
 * Rules that look past an element's own words: the dialog a generic OK answers, the widget a word sits in, the
 * keys a press sends. While an unapproved step runs, the write barrier holds every request that could change
 * something, so these rules may let a click through unasked where its words alone would have asked; what they
 * must not do is miss an action whose surroundings say it is irreversible.
 */

/** Where an element sits, as the page saw it (ElementInfo.context). */
export interface ElementContext {
  /** The title and text of the dialog around the element (short, redacted). */
  dialog?: string
  /** A widget whose generic words change nothing that matters: 'filter', 'date-picker' or 'search'. */
  within?: string
}

const IRREVERSIBLE = [
  'cannot be undone', "can't be undone", 'can not be undone', 'cannot be recovered', "can't be recovered", 'permanently', 'irreversible',
  'will be lost', '无法恢复', '不可恢复', '不能恢复', '无法撤销', '不可撤销', '无法找回', '永久',
]

/** How confirming a dialog whose text is `dialog` should be judged (the button itself only says "OK"). */
export function judgeDialog(label: string, dialog: string): { risk: Risk; detail: RiskReason } {
  const shown = { label: label.slice(0, 80), dialog: dialog.slice(0, 120) }
  const irreversible = !!findKeyword(dialog, IRREVERSIBLE)
  // "Your post was published." with an OK only dismisses a report of something already done.
  const word = !irreversible && isReport(dialog) ? undefined : findKeyword(withoutBenignPhrases(dialog), DIALOG_HIGH_KEYWORDS)
  const kind: RiskKind | undefined = word ? kindOf(word) : irreversible ? 'deletion' : undefined
  if (kind) return { risk: 'high', detail: { code: 'dialog-high', ...shown, kind } }
  return { risk: 'medium', detail: { code: 'dialog-confirm', ...shown } }
}

const REPORT = /successfully|\b(has|have) been\b|\b(was|were) (sent|deleted|removed|saved|published|posted|submitted|paid|uploaded|copied)\b|成功|已(删除|发送|提交|保存|发布|支付|付款|上传|复制)/
/** A dialog that tells of something done, not one that asks: no question, a past-tense verb or "success". */
const isReport = (dialog: string) => !/[?？吗]/.test(dialog) && REPORT.test(normalizeLabel(dialog))

// Words a filter, date picker or search box uses for "apply this" and "take it back": nothing leaves the page
// that the barrier would not hold.
const SOFT_LIST = ['apply', 'remove', 'reset', 'clear', '移除', '清空', '重置', '清除']
const SOFT_WORDS = new Set(SOFT_LIST)
const FILTER_WORDS = ['filter', 'filters', 'facet', 'facets', '筛选', '过滤']

const NONE = new Set<string>()

/** The high-risk words that mean nothing here: a filter's own "apply" and "remove", in a filter or naming one. */
export function softFilterWords(label: string, within: string | undefined): ReadonlySet<string> {
  return isQuietWidget(within) || findKeyword(label, FILTER_WORDS) ? SOFT_WORDS : NONE
}

/** A widget whose generic words change nothing that matters; a name a newer page library sends is no widget. */
export const isQuietWidget = (within: string | undefined): boolean => within === 'filter' || within === 'search' || within === 'date-picker'

/** Whether a label says too little on its own, so the page should say where it sits (ElementInfo.context). */
export function wantsContext(label: string): boolean {
  // Called for every element the page describes: generic and filter words are short, so most labels stop here.
  if (!label || label.length > 60) return false
  const normal = normalizeLabel(label)
  return isGenericNormalized(normal) || !!findInNormalized(normal, SOFT_LIST)
}

interface Pressed {
  tag?: string
  role?: string
  attributes?: Record<string, string>
}

const TEXT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'number', 'password', 'date', 'datetime-local', 'month', 'week', 'time'])
const isTextEntry = (el: Pressed | undefined) => {
  const tag = el?.tag?.toLowerCase() ?? ''
  if (tag === 'textarea') return true
  if (tag === 'input') return TEXT_TYPES.has((el?.attributes?.type ?? '').toLowerCase())
  return ['textbox', 'searchbox', 'combobox'].includes(el?.role ?? '')
}

/**
 * What a key press does, judged by the key rather than by any label:
 * - Ctrl/Cmd+Enter sends in most chat, mail and comment boxes (Slack, Gmail, GitHub, 飞书, 钉钉): high, sending.
 * - Enter in a multi-line box (textarea, contenteditable) sends in chat apps: medium at least, and the write
 *   barrier holds the message if it does; Enter elsewhere may submit a form (the page checks that one itself).
 * - Delete or Backspace outside a text field acts on the selection (a mail, a file, a row): medium, deletion.
 *   Inside a text field it only edits the text.
 */
export function judgeShortcut(keys: string, element: Pressed | undefined): { risk: Risk; detail: RiskReason } | undefined {
  const parts = normalizeLabel(keys).split('+').map((p) => p.trim())
  const key = parts.pop() ?? ''
  const command = parts.some((p) => ['control', 'ctrl', 'meta', 'cmd', 'command', 'mod', 'controlormeta', 'os', 'win', 'super'].includes(p))
  const tag = element?.tag?.toLowerCase() ?? ''
  if (['enter', 'numpadenter', 'return'].includes(key)) {
    if (command) return { risk: 'high', detail: { code: 'press-send', kind: 'sending' } }
    if (tag === 'textarea' || (element?.role === 'textbox' && tag !== 'input')) return { risk: 'medium', detail: { code: 'press-enter-message' } }
    return { risk: 'medium', detail: { code: 'press-enter' } }
  }
  if ((key === 'delete' || key === 'backspace') && !isTextEntry(element)) {
    return { risk: 'medium', detail: { code: 'press-delete', kind: 'deletion' } }
  }
  return undefined
}
