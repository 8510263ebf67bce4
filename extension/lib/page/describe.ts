import type { ElementContext } from '../../../protocol/risk-context'
import { hasLetters } from '../../../protocol/label-text'
import { collapseWhitespace, isTag, truncate } from './dom'
import { contextOf } from './element-context'
import { formInfo, type FormInfo } from './form-context'
import { zoneName } from './drag'
import { editorPlaceholder, isEditorRoot } from './editor'
import type { Mark } from './interactive'
import { rowLabel } from './row-label'
import { MASK, SECRET_AUTOCOMPLETE, isSecretField } from './sensitive'
import { isProxyBox } from './visibility'
import { unworded } from './wordless'
import { accessibleName, explicitRole, implicitRole, labelText, roleOf, shortText, visibleLabel } from './semantics'

export interface Described {
  tag: string
  role?: string
  /** Readable text, or a field's <label> (already redacted); empty when the element has none. */
  text: string
  /** Unredacted label, used for the fingerprint only: it never leaves the page. */
  label: string
  /** Attributes worth showing the model, in display order (already redacted). */
  attributes: Record<string, string>
  form?: FormInfo
  /** Where a generic button ("OK", "Apply") sits: its dialog's text, or the widget it belongs to. */
  context?: ElementContext
}

const TEXT_MAX = 80
const VALUE_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'range', 'color'])

function shortHref(el: Element): string | undefined {
  const raw = el.getAttribute('href')
  if (raw === null) return undefined
  if (/^\s*javascript:/i.test(raw)) return 'javascript:'
  // A place on this page (`#`, `#top`): the page's own address before it would only repeat the URL.
  if (raw.charCodeAt(0) === 35) return truncate(raw, 60)
  // Already a same-origin path: skip URL parsing, the commonest case on a page with thousands of links.
  if (raw.charCodeAt(0) === 47 && raw.charCodeAt(1) !== 47) return truncate(raw, 60)
  try {
    const url = new URL(raw, el.ownerDocument.baseURI)
    const here = el.ownerDocument.location
    const short = here && url.origin === here.origin ? url.pathname + url.search + url.hash : url.host + url.pathname + url.search
    return truncate(short, 60)
  } catch {
    return truncate(raw, 60)
  }
}

function selectSummary(el: HTMLSelectElement, attributes: Record<string, string>): void {
  const chosen = Array.from(el.selectedOptions, (o) => collapseWhitespace(o.text)).join(', ')
  if (chosen) attributes.value = truncate(chosen, TEXT_MAX)
  const options = Array.from(el.options)
  const shown = options.slice(0, 8).map((o) => truncate(collapseWhitespace(o.text), 30))
  attributes.options = shown.join('|') + (options.length > 8 ? `|…+${options.length - 8}` : '')
}

/** States as ARIA and the native element give them; absent means off (unchecked, not pressed). */
function states(el: Element, role: string | undefined, attributes: Record<string, string>): void {
  const native = isTag(el, 'input') && (el.type === 'checkbox' || el.type === 'radio')
  const ariaChecked = el.getAttribute('aria-checked')
  if ((native && el.indeterminate) || ariaChecked === 'mixed') attributes.checked = 'mixed'
  else if (native ? el.checked : ariaChecked === 'true') attributes.checked = ''
  if (el.getAttribute('aria-selected') === 'true' || (isTag(el, 'option') && el.selected)) attributes.selected = ''
  const expanded = el.getAttribute('aria-expanded')
  if (expanded === 'true' || expanded === 'false') attributes.expanded = expanded
  else if (isTag(el, 'summary')) attributes.expanded = String(!!el.parentElement && (el.parentElement as HTMLDetailsElement).open === true)
  const pressed = el.getAttribute('aria-pressed')
  if (pressed === 'true') attributes.pressed = ''
  else if (pressed === 'mixed') attributes.pressed = 'mixed'
  const popup = el.getAttribute('aria-haspopup')
  // A combobox pops up a listbox unless it says otherwise: saying so again costs tokens and tells nothing.
  if (popup && popup !== 'false' && !(role === 'combobox' && popup === 'listbox')) attributes.haspopup = popup === 'true' ? 'menu' : popup
  if ((el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true') attributes.disabled = ''
}

/**
 * What a transparent control's visible box shows (antd and Element Plus draw their combobox's placeholder or chosen
 * value beside an `opacity:0` input): the placeholder when the text sits in a placeholder element, else the value.
 */
function proxyShows(control: Element, shown: Element, attributes: Record<string, string>): void {
  if (attributes.value || attributes.placeholder) return
  const text = shortText(shown, TEXT_MAX)
  if (!text) return
  // Element Plus keeps the class `el-select__placeholder` on the chosen value too; only `is-transparent` marks
  // its placeholder.
  const holder = shown.querySelector('[class*="placeholder"]:not(.el-select__placeholder), .el-select__placeholder.is-transparent')
  const isPlaceholder = !!holder && !!holder.textContent?.trim() && !(control as HTMLInputElement).value
  attributes[isPlaceholder ? 'placeholder' : 'value'] = text
}

/** Laid over its container (`position:absolute; inset:0`), as a card's whole-card link is. */
function isOverlay(el: Element): boolean {
  const position = el.ownerDocument.defaultView?.getComputedStyle(el).position
  if (position !== 'absolute' && position !== 'fixed') return false
  const own = el.getBoundingClientRect()
  const box = el.parentElement!.getBoundingClientRect()
  return own.width * own.height >= box.width * box.height * 0.5
}

/** What the model and the risk check need to know about one element; secrets never enter it. */
export function describeElement(
  el: Element,
  redact: (text: string) => string = (t) => t,
  forms?: Map<HTMLFormElement, FormInfo>,
  shown: Element = el,
  mark?: Mark,
): Described {
  const tag = el.localName
  const explicit = explicitRole(el)
  const role = roleOf(el)
  const label = visibleLabel(el, TEXT_MAX)
  const attributes: Record<string, string> = {}
  const roleShown = explicit && explicit !== implicitRole(el)
  if (roleShown) attributes.role = explicit
  const secret = isSecretField(el)

  // With a role of its own, a text or search input is that role; its type would only repeat it.
  if (isTag(el, 'input') && !(roleShown && (el.type === 'text' || el.type === 'search'))) attributes.type = el.type
  else if (isTag(el, 'button') && el.form) attributes.type = el.type
  for (const name of ['name', 'placeholder', 'aria-label'] as const) {
    const value = el.getAttribute(name)
    if (value) attributes[name] = truncate(collapseWhitespace(value), TEXT_MAX)
  }
  const editor = isEditorRoot(el)
  if (editor) {
    // A rich-text editor (Quill, TipTap) is a `<div>` to the eye: say it takes text, and what its placeholder asks.
    if (!attributes.role && role === 'textbox') attributes.role = 'textbox'
    const hint = !attributes.placeholder && editorPlaceholder(el)
    if (hint) attributes.placeholder = truncate(collapseWhitespace(hint), TEXT_MAX)
  }
  // A field has no text of its own: its <label> stands where a button's text would (`<input type=checkbox>Agree`).
  let text = label
  if (!label && !attributes['aria-label'] && (isTag(el, 'input') || isTag(el, 'select') || isTag(el, 'textarea'))) text = labelText(el, TEXT_MAX)
  if (isTag(el, 'select')) selectSummary(el, attributes)
  else if ((isTag(el, 'input') && VALUE_TYPES.has(el.type)) || isTag(el, 'textarea') || (isTag(el, 'input') && secret)) {
    const value = (el as HTMLInputElement).value
    if (value) attributes.value = secret ? MASK : truncate(collapseWhitespace(value), TEXT_MAX)
  }
  // Tells the model (and the risk rules) that this is a card, password or one-time-code field.
  const autocomplete = el.getAttribute('autocomplete')
  if (autocomplete && SECRET_AUTOCOMPLETE.test(autocomplete)) attributes.autocomplete = autocomplete
  const href = shortHref(el)
  if (href !== undefined && (tag === 'a' || tag === 'area')) {
    attributes.href = href
    if (el.hasAttribute('download')) attributes.download = ''
  }
  if (!label) {
    const title = el.getAttribute('title')
    if (title) attributes.title = truncate(collapseWhitespace(title), TEXT_MAX)
    if (tag === 'img' && el.getAttribute('alt')) attributes.alt = truncate(collapseWhitespace(el.getAttribute('alt')!), TEXT_MAX)
  }
  states(el, role, attributes)
  if (mark === 'hover' || mark === 'draggable' || mark === 'dropzone') attributes[mark] = ''
  else if (el.getAttribute('draggable') === 'true' && tag !== 'img' && tag !== 'a') attributes.draggable = ''
  if (mark === 'dropzone') {
    // A column or list to drop on reads as its name, not as every card inside it.
    text = zoneName(el, TEXT_MAX)
    if (attributes['aria-label'] === text) delete attributes['aria-label']
  }
  if (isProxyBox(el, shown)) {
    // A transparent link over a card reads as the card; a transparent field as what its box shows.
    if (tag === 'a') text = shortText(shown, TEXT_MAX)
    else proxyShows(el, shown, attributes)
  }
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar') {
    const value = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow')
    if (value && !attributes.value && value !== text) attributes.value = truncate(collapseWhitespace(value), TEXT_MAX)
  }
  // The accessible name, where what is shown does not already say it (a switch named by its form label, a
  // combobox by aria-labelledby); a control with no words of its own takes it as its text.
  const name = mark === 'dropzone' ? '' : accessibleName(el, TEXT_MAX) || rowLabel(el, TEXT_MAX)
  // Text that already holds the name ("Email *" for "Email") says it: no second copy.
  if (name && !text.includes(name) && name !== attributes['aria-label'] && name !== attributes.placeholder && name !== attributes.title && name !== attributes.alt) {
    if (!text) text = name
    else attributes.label = name
  }
  if (!text && !attributes['aria-label'] && !attributes.title && tag === 'a' && el.parentElement && isOverlay(el)) {
    // A bare link laid over a card: the card's words are what a person reads where they click.
    text = shortText(el.parentElement, 40)
  }
  // Only where the words say nothing (🗑, ×, none) or are themselves an icon's name (a Material ligature).
  const named = `${text} ${attributes['aria-label'] ?? ''} ${attributes.title ?? ''}`.trim()
  if (!hasLetters(named) || /^[a-z0-9_]+$/.test(named)) {
    const { text: drawn, ...seen } = unworded(el, named)
    Object.assign(attributes, seen)
    text ||= drawn ?? ''
  }

  for (const key of Object.keys(attributes)) attributes[key] = redact(attributes[key]!)
  const described: Described = { tag, text: redact(text), label, attributes }
  if (role) described.role = role
  const form = formInfo(el, forms)
  if (form) described.form = form
  const context = contextOf(el, named, redact)
  if (context) described.context = context
  return described
}

const TOKEN = /^[^\s"'<>=`]+$/
const FREE_TEXT = new Set(['placeholder', 'aria-label', 'label', 'value', 'title', 'alt', 'options', 'href', 'row'])

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** One line of the element tree: `[N]<tag attr=value ...>text`, `*` in front when new since the last step. */
export function formatLine(index: number, described: Described, isNew: boolean): string {
  let line = `${isNew ? '*' : ''}[${index}]<${described.tag}`
  for (const [key, value] of Object.entries(described.attributes)) {
    if (value === '') line += ` ${key}`
    else line += ` ${key}=${!FREE_TEXT.has(key) && TOKEN.test(value) ? value : quote(value)}`
  }
  return `${line}>${described.text}`
}
