import type { ElementContext } from '../../../protocol/risk-context'
import { wantsContext } from '../../../protocol/risk-context'
import { collapseWhitespace, truncate } from './dom'
import { shortText } from './semantics'

/**
 * Where a generic button sits, for the risk rules (protocol/risk-context.ts): an "OK" means what its dialog
 * says, and a filter's or a date picker's "Apply" changes nothing the write barrier would not hold.
 */

const DIALOG = [
  'dialog', '[role=dialog]', '[role=alertdialog]', '[aria-modal=true]',
  '.ant-modal', '.ant-modal-confirm', '.ant-popconfirm', '.ant-popover', '.el-message-box', '.el-dialog', '.el-popconfirm',
  '.MuiDialog-root', '.MuiDialog-paper', '.modal',
].join(', ')
const DIALOG_TITLE = [
  '.ant-modal-title', '.ant-modal-confirm-title', '.ant-popconfirm-title', '.ant-popover-message-title', '.el-message-box__title',
  '.el-dialog__title', '.MuiDialogTitle-root', 'h1', 'h2', 'h3', 'h4', 'header',
].join(', ')
const WIDGETS: ReadonlyArray<readonly [within: string, selector: string]> = [
  ['date-picker', [
    '.ant-picker-dropdown', '.ant-picker-panel', '.el-picker-panel', '.el-date-picker', '.el-date-range-picker', '.MuiPickersLayout-root',
    '.MuiDateCalendar-root', '.MuiPickersPopper-root', '.react-datepicker', '.flatpickr-calendar', '.daterangepicker', '.datepicker',
    '[class*="date-picker" i]', '[class*="datepicker" i]',
  ].join(', ')],
  ['filter', [
    '.ant-table-filter-dropdown', '.el-table-filter', '[class*="filter" i]', '[id*="filter" i]', '[aria-label*="filter" i]',
    '[aria-label*="筛选"]', '[data-testid*="filter" i]',
  ].join(', ')],
  ['search', '[role=search], search, .ant-input-search, .el-autocomplete'],
]
// A widget is the element's near surroundings: a page whose outer wrapper happens to be called `filter-layout`
// must not make every "Remove" on it a filter's.
const WIDGET_DEPTH = 6
const DIALOG_TEXT_MAX = 200

/** The title and text of a dialog, its buttons left out ("Delete this draft? It cannot be undone."). */
function dialogText(dialog: Element): string {
  const labelledBy = dialog.getAttribute('aria-labelledby')
  const titleEl = labelledBy ? dialog.ownerDocument.getElementById(labelledBy.split(/\s+/)[0]!) : dialog.querySelector(DIALOG_TITLE)
  const title = titleEl ? shortText(titleEl, 80) : collapseWhitespace(dialog.getAttribute('aria-label') ?? '')
  let body = ''
  const walker = dialog.ownerDocument.createTreeWalker(dialog, 1 | 4, {
    acceptNode: (node) => {
      if (node.nodeType === 3) return 1
      const el = node as Element
      const skip = el.localName === 'button' || el.getAttribute('role') === 'button' || ['script', 'style', 'template', 'svg', 'textarea', 'select'].includes(el.localName)
      return skip || el === titleEl ? 2 : 3
    },
  })
  for (let node = walker.nextNode(); node && body.length < DIALOG_TEXT_MAX * 2; node = walker.nextNode()) body += ` ${node.nodeValue}`
  return truncate(collapseWhitespace(`${title} ${body}`), DIALOG_TEXT_MAX)
}

function widgetOf(el: Element): string | undefined {
  let node: Element | null = el
  for (let depth = 0; node && depth <= WIDGET_DEPTH; depth++, node = node.parentElement) {
    for (const [within, selector] of WIDGETS) if (node.matches(selector)) return within
  }
  return undefined
}

/** The context of an element whose label alone says too little (wantsContext), else undefined. */
export function contextOf(el: Element, label: string, redact: (text: string) => string): ElementContext | undefined {
  if (!wantsContext(label)) return undefined
  const context: ElementContext = {}
  const dialog = el.closest(DIALOG)
  if (dialog) {
    const text = redact(dialogText(dialog))
    if (text) context.dialog = text
  }
  const within = widgetOf(el)
  if (within) context.within = within
  return context.dialog || context.within ? context : undefined
}
