import type { Action } from '../../../../protocol/action'
import { describeForMessage } from '../actionability'
import { isTag } from '../dom'
import { dispatchChange } from '../events'
import { fail } from '../errors'
import { assertConfirmedIfRisky, type RiskGate } from '../risk-gate'

/** How far up from a styled button the file input it opens is looked for (antd's and Element Plus's wrappers are 1–2). */
const ANCESTORS = 5

const isFileInput = (el: Element | null | undefined): el is HTMLInputElement => !!el && isTag(el, 'input') && el.type === 'file'

/**
 * The file input an element stands for: itself, the input its label names, or the one input inside it or inside
 * the nearest wrapper around it (the styled "Upload" button of antd or Element Plus keeps its input hidden beside
 * it, at display:none). A wrapper holding several file inputs says nothing about which one is meant.
 */
export function fileInputFor(el: Element): HTMLInputElement | null {
  if (isFileInput(el)) return el
  if (isTag(el, 'label') && isFileInput(el.control)) return el.control
  const inLabel = el.closest('label')
  if (inLabel && isFileInput(inLabel.control)) return inLabel.control
  let node: Element | null = el
  for (let level = 0; node && level <= ANCESTORS; level++, node = node.parentElement) {
    const inputs = node.querySelectorAll('input[type=file]')
    if (inputs.length === 1) return inputs[0] as HTMLInputElement
    if (inputs.length > 1) return null
  }
  return null
}

export interface UploadParams {
  file: string
  content?: string
  mime?: string
  refused?: string
}

/** Puts the approved file on the input, as a person choosing it in the file dialog would: files set, input and change fired. */
export function uploadFile(win: Window, action: Action, el: Element, params: UploadParams, gate?: RiskGate): void {
  assertConfirmedIfRisky(win, action, el, { ...gate })
  if (params.refused) fail('UPLOAD_REFUSED', params.refused)
  if (params.content === undefined) fail('UPLOAD_REFUSED', 'the server handed over no file for this step')
  const input = fileInputFor(el)
  if (!input) fail('TARGET_NOT_INTERACTABLE', `${describeForMessage(el)} is not a file input and has none beside it`)
  if (input.disabled) fail('TARGET_NOT_INTERACTABLE', `the file input of ${describeForMessage(el)} is disabled`)
  const realm = (input.ownerDocument.defaultView ?? win) as Window & typeof globalThis
  const binary = realm.atob(params.content)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  const file = new realm.File([bytes], params.file, { type: params.mime ?? 'application/octet-stream' })
  const transfer = new realm.DataTransfer()
  transfer.items.add(file)
  input.files = transfer.files
  input.dispatchEvent(new realm.Event('input', { bubbles: true, composed: true }))
  dispatchChange(input)
}
