import { composedParent, isHtmlElement, isTag } from './dom'

/** Constructors of the element's own realm: events for a frame's element are made in that frame. */
function realm(el: Element): Window & typeof globalThis {
  return el.ownerDocument.defaultView as Window & typeof globalThis
}

function mouseInit(el: Element, x: number, y: number, extra: MouseEventInit = {}): PointerEventInit {
  return { bubbles: true, cancelable: true, composed: true, view: realm(el), clientX: x, clientY: y, screenX: x, screenY: y, button: 0, pointerId: 1, pointerType: 'mouse', isPrimary: true, ...extra }
}

function focusableAncestor(el: Element): HTMLElement | null {
  for (let node: Element | null = el; node; node = composedParent(node)) {
    if (!isHtmlElement(node)) continue
    if (node.tabIndex >= 0 || node.isContentEditable || isTag(node, 'input') || isTag(node, 'select') || isTag(node, 'textarea') || isTag(node, 'button') || (isTag(node, 'a') && node.hasAttribute('href'))) {
      return node
    }
  }
  return null
}

/** The pointer coming onto the element, as the hand that clicks brings it: over, then move. */
function pointerOnto(target: Element, x: number, y: number): void {
  const w = realm(target)
  const Pointer = w.PointerEvent ?? w.MouseEvent
  target.dispatchEvent(new Pointer('pointerover', mouseInit(target, x, y)))
  target.dispatchEvent(new w.MouseEvent('mouseover', mouseInit(target, x, y)))
  target.dispatchEvent(new Pointer('pointermove', mouseInit(target, x, y)))
  target.dispatchEvent(new w.MouseEvent('mousemove', mouseInit(target, x, y)))
}

/** One press and release of the main button: down, focus, up, click; `detail` counts the clicks in a row, as the browser does. */
function pressPrimary(target: Element, x: number, y: number, detail: number): void {
  const w = realm(target)
  const Pointer = w.PointerEvent ?? w.MouseEvent
  const downOk = target.dispatchEvent(new Pointer('pointerdown', mouseInit(target, x, y, { buttons: 1 })))
  const mouseDownOk = downOk && target.dispatchEvent(new w.MouseEvent('mousedown', mouseInit(target, x, y, { buttons: 1, detail })))
  // A real mousedown focuses what it lands on; a dispatched one does not, so do it by hand.
  if (mouseDownOk) focusableAncestor(target)?.focus({ preventScroll: true })
  target.dispatchEvent(new Pointer('pointerup', mouseInit(target, x, y)))
  target.dispatchEvent(new w.MouseEvent('mouseup', mouseInit(target, x, y, { detail })))
  target.dispatchEvent(new w.MouseEvent('click', mouseInit(target, x, y, { detail })))
}

/**
 * The event sequence of a real mouse click at (x, y): hover, pointer/mouse down, focus, up, click.
 * The final click is a dispatched MouseEvent, whose activation behaviour follows links, toggles checkboxes and
 * submits forms like a real one; React's delegated handlers and inline onclick both see it.
 */
export function dispatchClick(target: Element, x: number, y: number): void {
  pointerOnto(target, x, y)
  pressPrimary(target, x, y, 1)
}

/** A real double click: two clicks (detail 1, then 2), then the `dblclick` that editors and file lists listen for. */
export function dispatchDoubleClick(target: Element, x: number, y: number): void {
  pointerOnto(target, x, y)
  pressPrimary(target, x, y, 1)
  pressPrimary(target, x, y, 2)
  target.dispatchEvent(new (realm(target).MouseEvent)('dblclick', mouseInit(target, x, y, { detail: 2 })))
}

/**
 * A press of the secondary button, in the order Chrome sends it on Linux and macOS: down, `contextmenu`, up. The
 * page's own menu opens on contextmenu; no click follows, so nothing is activated.
 */
export function dispatchContextMenu(target: Element, x: number, y: number): void {
  const w = realm(target)
  const Pointer = w.PointerEvent ?? w.MouseEvent
  const right = { button: 2, buttons: 2 }
  pointerOnto(target, x, y)
  const downOk = target.dispatchEvent(new Pointer('pointerdown', mouseInit(target, x, y, right)))
  if (downOk && target.dispatchEvent(new w.MouseEvent('mousedown', mouseInit(target, x, y, { ...right, detail: 1 })))) focusableAncestor(target)?.focus({ preventScroll: true })
  target.dispatchEvent(new w.MouseEvent('contextmenu', mouseInit(target, x, y, { ...right, detail: 1 })))
  target.dispatchEvent(new Pointer('pointerup', mouseInit(target, x, y, { button: 2, buttons: 0 })))
  target.dispatchEvent(new w.MouseEvent('mouseup', mouseInit(target, x, y, { button: 2, buttons: 0, detail: 1 })))
}

/** The pointer arriving over the element: over and move bubble, enter fires on it and each ancestor it newly enters. */
export function dispatchHover(target: Element, x: number, y: number): void {
  const w = realm(target)
  const Pointer = w.PointerEvent ?? w.MouseEvent
  target.dispatchEvent(new Pointer('pointerover', mouseInit(target, x, y)))
  const entered: Element[] = []
  for (let node: Element | null = target; node; node = composedParent(node)) entered.unshift(node)
  for (const node of entered) node.dispatchEvent(new Pointer('pointerenter', mouseInit(node, x, y, { bubbles: false, cancelable: false })))
  target.dispatchEvent(new w.MouseEvent('mouseover', mouseInit(target, x, y)))
  for (const node of entered) node.dispatchEvent(new w.MouseEvent('mouseenter', mouseInit(node, x, y, { bubbles: false, cancelable: false })))
  target.dispatchEvent(new Pointer('pointermove', mouseInit(target, x, y)))
  target.dispatchEvent(new w.MouseEvent('mousemove', mouseInit(target, x, y)))
}

/**
 * A pointer drag with DOM events, for libraries that follow pointer or mouse events (dnd-kit, SortableJS's
 * fallback, react-beautiful-dnd): press on the source, move in steps to the point, release there. Each move goes
 * to whatever is under the pointer, as a real one would.
 */
export async function dispatchPointerDrag(source: Element, from: { x: number; y: number }, to: { x: number; y: number }, pointAt: (x: number, y: number) => Element | null, steps = 12, pause = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<void> {
  const w = realm(source)
  const Pointer = w.PointerEvent ?? w.MouseEvent
  source.dispatchEvent(new Pointer('pointerover', mouseInit(source, from.x, from.y)))
  source.dispatchEvent(new Pointer('pointerdown', mouseInit(source, from.x, from.y, { buttons: 1 })))
  source.dispatchEvent(new w.MouseEvent('mousedown', mouseInit(source, from.x, from.y, { buttons: 1, detail: 1 })))
  let last: Element = source
  for (let i = 1; i <= steps; i++) {
    const x = from.x + ((to.x - from.x) * i) / steps
    const y = from.y + ((to.y - from.y) * i) / steps
    last = pointAt(x, y) ?? last
    last.dispatchEvent(new Pointer('pointermove', mouseInit(last, x, y, { buttons: 1 })))
    last.dispatchEvent(new w.MouseEvent('mousemove', mouseInit(last, x, y, { buttons: 1 })))
    await pause(16)
  }
  last.dispatchEvent(new Pointer('pointerup', mouseInit(last, to.x, to.y)))
  last.dispatchEvent(new w.MouseEvent('mouseup', mouseInit(last, to.x, to.y, { detail: 1 })))
}

/** An HTML5 drag and drop with DOM events: one DataTransfer carries what dragstart put in it to the drop. */
export function dispatchHtmlDrag(source: Element, onto: Element, from: { x: number; y: number }, to: { x: number; y: number }): void {
  const w = realm(source)
  const dataTransfer = new w.DataTransfer()
  const drag = (target: Element, type: string, at: { x: number; y: number }) =>
    target.dispatchEvent(new w.DragEvent(type, { ...mouseInit(target, at.x, at.y), dataTransfer, cancelable: type !== 'dragend' && type !== 'dragleave' }))
  if (!drag(source, 'dragstart', from)) return
  drag(source, 'drag', from)
  drag(onto, 'dragenter', to)
  // A drop target says it takes the drop by cancelling dragover; only then does the browser drop.
  const accepted = !drag(onto, 'dragover', to)
  if (accepted) drag(onto, 'drop', to)
  else drag(onto, 'dragleave', to)
  drag(source, 'dragend', to)
}

const KEY_CODES: Record<string, number> = {
  Enter: 13, Escape: 27, Tab: 9, ' ': 32, Backspace: 8, Delete: 46, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39,
  ArrowDown: 40, Home: 36, End: 35, PageUp: 33, PageDown: 34, Shift: 16, Control: 17, Alt: 18, Meta: 91,
}

export interface KeyChord {
  key: string
  ctrlKey: boolean
  shiftKey: boolean
  altKey: boolean
  metaKey: boolean
}

export function codeOf(key: string): string {
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`
  if (/^[0-9]$/.test(key)) return `Digit${key}`
  if (key === ' ') return 'Space'
  return key.length === 1 ? '' : key
}

export function keyCodeOf(key: string): number {
  if (KEY_CODES[key] !== undefined) return KEY_CODES[key]!
  if (/^[a-z0-9]$/i.test(key)) return key.toUpperCase().charCodeAt(0)
  return key.length === 1 ? key.charCodeAt(0) : 0
}

/** Dispatches one keyboard event; returns false when a listener cancelled it. Legacy keyCode/which are set too. */
export function dispatchKey(target: Element, type: 'keydown' | 'keypress' | 'keyup', chord: KeyChord): boolean {
  const w = realm(target)
  const event = new w.KeyboardEvent(type, {
    key: chord.key,
    code: codeOf(chord.key),
    bubbles: true,
    cancelable: true,
    composed: true,
    view: w,
    ctrlKey: chord.ctrlKey,
    shiftKey: chord.shiftKey,
    altKey: chord.altKey,
    metaKey: chord.metaKey,
  })
  const code = type === 'keypress' && chord.key.length === 1 ? chord.key.charCodeAt(0) : keyCodeOf(chord.key)
  // Many sites still test `event.keyCode === 13`; the constructor cannot set it.
  Object.defineProperty(event, 'keyCode', { get: () => code })
  Object.defineProperty(event, 'which', { get: () => code })
  if (type === 'keypress') Object.defineProperty(event, 'charCode', { get: () => code })
  return target.dispatchEvent(event)
}

export const plainKey = (key: string): KeyChord => ({ key, ctrlKey: false, shiftKey: false, altKey: false, metaKey: false })

/**
 * Sets a field's value through the prototype's setter, past the instance-level setter React installs to track
 * the last value it rendered: React then sees the next input event as a real change.
 */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const w = realm(el)
  const proto = isTag(el, 'textarea') ? w.HTMLTextAreaElement.prototype : isTag(el, 'select') ? w.HTMLSelectElement.prototype : w.HTMLInputElement.prototype
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set
  if (setter) setter.call(el, value)
  else el.value = value
}

export function dispatchInput(el: Element, inputType: string, data: string | null): void {
  const w = realm(el)
  el.dispatchEvent(new w.InputEvent('input', { bubbles: true, composed: true, inputType, data }))
}

export function dispatchBeforeInput(el: Element, inputType: string, data: string | null): boolean {
  const w = realm(el)
  return el.dispatchEvent(new w.InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType, data }))
}

export function dispatchChange(el: Element): void {
  const w = realm(el)
  el.dispatchEvent(new w.Event('change', { bubbles: true }))
}
