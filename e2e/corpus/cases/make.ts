import type { Case, Effect, Find, Mechanism, PageConfirm, Stack, Step, Widget } from '../types'

/** The request whose arrival is the effect, as the log names it. */
export function arrivalOf(effect: Effect): string | undefined {
  switch (effect.via) {
    case 'fetch':
    case 'xhr':
      return `${effect.method} ${effect.path}`
    case 'graphql':
      return 'POST /graphql'
    case 'beacon':
      return `POST ${effect.path}`
    case 'websocket':
      return `WS ${effect.path}`
    case 'socket-send':
      return effect.frame && effect.frame !== 'message' ? undefined : `WSMSG ${effect.path}`
    case 'worker':
      return `${effect.method} ${effect.path}`
    case 'popup':
      return `POST ${effect.path}`
    case 'navigate':
      return `GET ${effect.path}`
    default:
      return undefined
  }
}

/** The writes a widget can send; a harmless case lists none. */
export function arrivalsOf(w: Widget): string[] {
  switch (w.kind) {
    case 'form':
      return [w.action && w.action.method === 'post' ? `POST ${w.action.path}` : undefined, w.onSubmit && arrivalOf(w.onSubmit)].filter((x): x is string => !!x)
    case 'link':
      return w.expands ? [] : [`GET ${w.href.split('?')[0]}`]
    case 'accordion':
      return []
    case 'frame':
      return arrivalsOf(w.inner)
    default:
      return 'effect' in w && w.effect ? [arrivalOf(w.effect)].filter((x): x is string => !!x) : []
  }
}

export const click = (text: string, find?: Find): Step => ({ type: 'click', text, ...(find ? { find } : {}) })
export const clickAt = (selector: string, find: Find): Step => ({ type: 'click', selector, find })
export const type = (selector: string, text: string, find: Find, submit?: boolean): Step => ({ type: 'type', selector, text, find, ...(submit ? { submit } : {}) })
export const press = (keys: string): Step => ({ type: 'press', keys })
export const choose = (selector: string, option: string, find: Find): Step => ({ type: 'select', selector, option, find })

/** Where a library's custom select opens when a person clicks it (they have no native <select> to pick from). */
const OPENER: Partial<Record<Stack, string>> = { antd: '.ant-select-selector', element: '.el-select__wrapper', mui: '#setting' }

/** A select as a person works it: native <select> by option; a library's dropdown by two clicks. */
export function pick(stack: Stack, label: string, current: string, option: string): Step[] {
  const opener = OPENER[stack]
  return opener ? [clickAt(opener, [current, 'role=combobox']), click(option)] : [choose('#setting', option, 'name=setting')]
}
/** A toggle as the element tree shows it: by its label, or as a bare switch or checkbox. */
export const flip = (label: string): Step => clickAt('#toggle', [label, 'role=switch', 'type=checkbox'])

export type Row = Omit<Case, 'effects' | 'steps' | 'label'> & { steps?: Step[]; label?: string; effects?: string[] }

/**
 * One case with what can be derived filled in: the label is the widget's words, the effect is the request the
 * widget sends when the case is irreversible, and a button's steps are a click (then the dialog's OK).
 */
export function make(row: Row): Case {
  const w = row.widget
  const last = row.steps?.at(-1)
  const lastWords = !last ? '' : last.type === 'press' ? last.keys : last.type === 'click' ? (last.text ?? [last.find ?? ''].flat()[0]) : last.type === 'select' ? last.option : ''
  const label = row.label ?? (w.kind === 'frame' && w.inner.kind === 'button' ? w.inner.label : w.kind === 'button' ? w.label || w.aria || w.title || w.icon || '' : w.kind === 'form' ? w.submit.label : ('label' in w && w.label) || lastWords || '')
  let steps = row.steps
  const shown = (text: string) => (row.stack === 'antd' ? antdSpaced(text) : text)
  if (!steps && w.kind === 'button') {
    const ok = w.confirm ? [click(shown(w.confirm.ok ?? (row.lang === 'zh' ? '确定' : 'OK')))] : []
    steps = [click(shown(w.label) || w.aria || w.title || ''), ...ok]
  }
  if (!steps?.length) throw new Error(`case ${row.id} has no steps`)
  const effects = row.effects ?? (row.irreversible ? arrivalsOf(w) : [])
  if (row.irreversible && !effects.length) throw new Error(`irreversible case ${row.id} names no request`)
  return { ...row, label, steps, effects }
}

export const modal = (title: string, extra: Partial<PageConfirm> = {}): PageConfirm => ({ style: 'modal', title, ...extra })
export const pop = (title: string, extra: Partial<PageConfirm> = {}): PageConfirm => ({ style: 'popconfirm', title, ...extra })
export type { Mechanism }

/** antd's Button puts a space between exactly two CJK characters: what the person reads, and a recorded script. */
export const antdSpaced = (text: string) => (/^[\u4e00-\u9fff]{2}$/.test(text) ? `${text[0]} ${text[1]}` : text)
