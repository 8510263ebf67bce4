import type { ScriptStep } from '../../../protocol/action-form'
import { isTag } from '../page/dom'
import { controlAround, isSecret, recordedTarget, type RecordedTarget } from './target'

/** One thing the person did, as a replayable step with how to describe it; typed values never appear. */
export interface Recorded {
  step: ScriptStep
  /** What the step acted on, in words (the element's name). */
  label: string
  /** For a typed step: the parameter the value becomes, asked for at each run. */
  parameter?: { name: string; label: string; secret: boolean }
}

export interface RecorderDeps {
  win: Window
  emit: (recorded: Recorded) => void
  /** Whether a click came from the person (the browser's isTrusted; tests dispatch their own). */
  trusted?: (event: Event) => boolean
}

const TEXT_TYPES = new Set(['text', 'email', 'search', 'tel', 'url', 'password', 'number', 'date', 'time', 'datetime-local', 'month', 'week'])
const isTextField = (el: Element): el is HTMLInputElement | HTMLTextAreaElement =>
  isTag(el, 'textarea') || (isTag(el, 'input') && TEXT_TYPES.has((el.getAttribute('type') || 'text').toLowerCase())) || (el as HTMLElement).isContentEditable === true

const lowerSnake = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 40)

const targetKeys = (t: RecordedTarget, typed: boolean) => ({
  ...(t.target ? { target: t.target } : {}),
  ...(!typed && t.text ? { text: t.text } : {}),
  selector: t.selector,
})

/**
 * Watches the person work in the page and reports each step once: a click (on a button, a link, an option of a
 * library combobox), the final value of a field (when it is committed, never key by key), a choice in a native
 * select. A field's value becomes a `{{name}}` parameter; a password or card field is marked secret. Returns stop.
 */
export function createRecorder(deps: RecorderDeps): () => void {
  const { win, emit } = deps
  const doc = win.document
  /** Fields typed into and not yet reported, in the order first touched. */
  const pending = new Map<Element, string>()
  const names = new Map<Element, string>()
  const used = new Set<string>()

  function parameterName(el: Element, label: string): string {
    const known = names.get(el)
    if (known) return known
    const base = [el.getAttribute('name'), el.getAttribute('autocomplete'), el.id, label].map((v) => lowerSnake(v ?? '')).find((v) => v && v !== 'on' && v !== 'off') ?? 'value'
    let name = base
    for (let n = 2; used.has(name); n++) name = `${base.slice(0, 36)}_${n}`
    used.add(name)
    names.set(el, name)
    return name
  }

  function reportField(el: Element, submit = false) {
    if (!pending.has(el)) return
    pending.delete(el)
    const value = isTag(el, 'input') || isTag(el, 'textarea') ? el.value : (el.textContent ?? '')
    if (!value.trim() && !names.has(el)) return
    const t = recordedTarget(el, 'field')
    const name = parameterName(el, t.label)
    const secret = isSecret(el)
    emit({
      step: { type: 'type', ...targetKeys(t, true), text: `{{${name}}}`, clear: true, ...(submit ? { submit: true } : {}) } as ScriptStep,
      label: t.label,
      parameter: { name, label: t.label.slice(0, 200), secret },
    })
  }
  const flush = () => [...pending.keys()].forEach((el) => reportField(el))

  const onInput = (e: Event) => {
    const el = e.target as Element | null
    if (el && isTextField(el)) pending.set(el, '')
  }
  const onChange = (e: Event) => {
    const el = e.target as Element | null
    if (!el) return
    if (isTextField(el)) return reportField(el)
    if (isTag(el, 'select') && !el.multiple) {
      flush()
      const option = el.selectedOptions[0]
      const label = option ? (option.label || option.textContent || '').replace(/\s+/g, ' ').trim() : ''
      if (!label) return
      const t = recordedTarget(el, 'field')
      emit({ step: { type: 'select', ...targetKeys(t, true), option: label } as ScriptStep, label: t.label })
    }
  }
  const onClick = (e: MouseEvent) => {
    const hit = e.target as Element | null
    if (!hit || !(deps.trusted ?? ((ev) => ev.isTrusted))(e)) return
    const el = controlAround(hit)
    // Focusing a field or opening a native select is not a step: its value or choice is.
    if (isTextField(el) || isTag(el, 'select') || isTag(el, 'option')) return
    // A label's click lands on its control too (a second click event): the control's is the one reported.
    if (isTag(el, 'label') && (el as HTMLLabelElement).control) return
    flush()
    const t = recordedTarget(el, 'click')
    emit({ step: { type: 'click', ...targetKeys(t, false) } as ScriptStep, label: t.label })
  }
  const onKey = (e: KeyboardEvent) => {
    // Enter in a field submits its form: the value typed comes first.
    if (e.key === 'Enter' && e.target && isTag(e.target as Element, 'input') && isTextField(e.target as Element)) reportField(e.target as Element, true)
  }
  const onSubmit = () => flush()
  const onLeave = () => flush()

  doc.addEventListener('input', onInput, true)
  doc.addEventListener('change', onChange, true)
  doc.addEventListener('click', onClick, true)
  doc.addEventListener('keydown', onKey, true)
  doc.addEventListener('submit', onSubmit, true)
  win.addEventListener('pagehide', onLeave)
  return () => {
    flush()
    doc.removeEventListener('input', onInput, true)
    doc.removeEventListener('change', onChange, true)
    doc.removeEventListener('click', onClick, true)
    doc.removeEventListener('keydown', onKey, true)
    doc.removeEventListener('submit', onSubmit, true)
    win.removeEventListener('pagehide', onLeave)
  }
}
