import type { Action, HeldRequest, StepView } from '#protocol'
import { isActionType, targetWords } from '#protocol'
import type { PanelT } from './i18n'

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')
const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** What an action will do, in plain words; `targetText` is the element as a person would name it. */
export function describeAction(action: Pick<Action, 'type' | 'target' | 'params'>, t: PanelT, targetText?: string): string {
  const p = action.params
  // Words from the page are quoted; Tandem's own stand-ins for an element are not, and neither a CSS selector (`#q`)
  // nor a role (`button:`) is a name a person reads: such an element is "an element" until the server names it.
  const named = targetText || targetWords(action.target) || ''
  const target = named
    ? `“${clip(named)}”`
    : action.target?.by === 'index'
      ? t('act.element', { n: action.target.value })
      : t('act.anElement')
  switch (action.type) {
    case 'click':
      return t('act.click', { target })
    case 'double_click':
      return t('act.double_click', { target })
    case 'right_click':
      return t('act.right_click', { target })
    case 'type':
      // A credential is never shown, even if a value slipped past the server's redaction.
      return t(p.submit === true ? 'act.typeSubmit' : 'act.type', { target, text: typedText(p, t) })
    case 'select':
      return t('act.select', { target, option: clip(str(p.option ?? p.value), 80) })
    case 'press':
      return t('act.press', { keys: str(p.keys) })
    case 'navigate':
      return t('act.navigate', { url: clip(str(p.url), 200) })
    case 'scroll':
      return t('act.scroll', { direction: t(p.direction === 'up' ? 'act.up' : 'act.down') })
    case 'extract':
      return t('act.extract', { instruction: clip(str(p.instruction), 160) })
    case 'release':
      // What the step was and what it sends: the element the person reads, then the request.
      return named ? t('act.releaseAfter', { target, request: heldSummary(p.requests) }) : t('act.release', { request: heldSummary(p.requests) })
    case 'upload':
      return t('act.upload', { target, file: clip(str(p.file), 120) })
    case 'switch_tab':
      return t('act.switch_tab', { tab: str(p.tab) })
    case 'close_tab':
      return p.tab === undefined ? t('act.close_current_tab') : t('act.close_tab', { tab: str(p.tab) })
    case 'hover':
      return t('act.hover', { target })
    case 'drag':
      return t('act.drag', { target, to: t('act.element', { n: str(p.to) }) })
    default: {
      // The actions said without details; a new action fails to compile here until it has its words.
      const plain: 'observe' | 'waitFor' | 'screenshot' | 'back' = action.type
      return t(`act.${plain}`)
    }
  }
}

const SECRET_PLACEHOLDER = /^\{\{secret:([^}]+)\}\}$/
const SECRET_PLACEHOLDERS = /\{\{secret:([^}]+)\}\}/g

/** What a step types, as the panel may show it: a password only as "your password", a saved secret by its name. */
function typedText(p: Record<string, unknown>, t: PanelT): string {
  if (p.sensitive === true) return t('words.yourPassword')
  const text = str(p.text)
  const secret = SECRET_PLACEHOLDER.exec(text.trim())
  if (secret) return t('words.yourSecret', { name: secret[1]! })
  return clip(text.replace(SECRET_PLACEHOLDERS, '‹$1›'), 80)
}

/** "POST https://shop.test/api/orders" for the first held request (and how many more). */
function heldSummary(requests: unknown): string {
  const list = Array.isArray(requests) ? (requests as Partial<HeldRequest>[]) : []
  const first = list[0]
  if (!first) return ''
  const more = list.length > 1 ? ` (+${list.length - 1})` : ''
  return `${str(first.method)} ${clip(`${str(first.origin)}${str(first.path)}`, 160)}${more}`
}

/** One held request's body, in short: its GraphQL operation or the names of its fields with their redacted values. */
export function describeSends(request: HeldRequest): string {
  const op = request.operation ? `${request.operation.type}${request.operation.name ? ` ${request.operation.name}` : ''}` : ''
  const fields = request.fields.map((f) => (f.value === undefined ? f.name : `${f.name}=${clip(f.value, 40)}`)).join(', ')
  return [op, fields].filter(Boolean).join(' · ')
}

/** A finished step's verb: a step keeps no parameters, only what it acted on (shown beside it) and where it went. */
export function describeStep(step: Pick<StepView, 'type' | 'url'>, t: PanelT): string {
  if (step.type === 'navigate' && step.url) return t('act.navigate', { url: clip(step.url, 200) })
  // A type from a newer server that this panel has no words for stays as recorded.
  return isActionType(step.type) ? t(`step.${step.type}`) : step.type
}

/** What a type step typed, as the timeline says it: the text, or a password or saved secret only by its name. */
export function describeTyped(step: Pick<StepView, 'type' | 'text' | 'sensitive'>, t: PanelT): string | undefined {
  if (step.type !== 'type') return undefined
  if (step.sensitive) return t('words.typedSecret')
  if (step.text === undefined) return undefined
  const secret = SECRET_PLACEHOLDER.exec(step.text.trim())
  if (secret) return t('words.typedNamedSecret', { name: secret[1]! })
  // A placeholder inside other text is named the same way, never filled in.
  return t('words.typed', { text: clip(step.text.replace(SECRET_PLACEHOLDERS, '‹$1›'), 80) })
}
