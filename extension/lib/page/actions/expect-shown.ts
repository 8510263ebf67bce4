import { describeForMessage } from '../actionability'
import { collapseWhitespace, isTag, truncate } from '../dom'
import { noEffect } from '../errors'
import { isShownBox } from '../visibility'

const FIELD = 'label, input, select, textarea, [role=combobox], [role=listbox], [role=textbox]'
const otherField = (around: Element, box: Element) => Array.from(around.querySelectorAll(FIELD)).some((f) => !box.contains(f))

/**
 * The widget's whole box (its value, chips, arrow, clear button): what it now shows is read there. It grows while the
 * box around is no taller (a row, not a form) and holds no label or other field, so another field's words never count.
 */
function valueBox(trigger: Element): Element {
  let box = trigger
  // A search input as narrow as its text (react-select's) stands for the control around it, where chosen values show.
  for (let depth = 0; !isShownBox(box) && box.parentElement && depth < 4; depth++) box = box.parentElement
  const r = box.getBoundingClientRect()
  for (let depth = 0, up = box.parentElement; up && depth < 4; depth++, up = up.parentElement) {
    const u = up.getBoundingClientRect()
    if (u.height > r.height + 24 || otherField(up, box)) break
    box = up
  }
  return box
}

/**
 * Whether `text` shows `value` as a whole: "Option 26" does not show "Option 2". Only Latin letters and digits bound
 * a word; CJK text has no spaces, and a box may read "请选择城市上海" while a hidden placeholder stays in it.
 */
function showsWhole(text: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'i').test(text)
}

/** The box's texts and input values, each apart (antd repeats the value in a title: "Item 87Item 87" as one string). */
function shownValue(box: Element): string {
  const texts: string[] = []
  const walker = box.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.nodeValue ?? '')
  const inputs = Array.from(box.querySelectorAll('input')).map((i) => i.value)
  const self = isTag(box, 'input') ? [box.value] : []
  return collapseWhitespace([...texts, ...inputs, ...self].join(' '))
}

/** What the widget shows now is the proof: a click the library did not take leaves the old value (or none). */
export function expectShown(trigger: Element, widget: Element, picked: string): void {
  const box = trigger.isConnected ? valueBox(trigger) : null
  const showing = box ? shownValue(box) : ''
  if (box && !showsWhole(showing, picked)) {
    noEffect(`"${truncate(picked, 80)}" shown in ${describeForMessage(widget)}`, `it shows ${showing ? `"${truncate(showing, 80)}"` : 'nothing'}: the click on the option was not taken`)
  }
}
