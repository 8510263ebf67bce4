import type { ActionErrorCode } from '../../../protocol/errors'
import type { ElementInfo, UnmetEffect } from '../../../protocol/observation'
import type { PageMemory } from './memory'

export interface ObserveOptions {
  /** Cap on indexed elements; the ones nearest the viewport are kept. Default 500. */
  maxElements?: number
  /** Memory of the previous observation: elements not in it are marked new (`*`). */
  previous?: PageMemory
  /** Cap on visibleTextSnippet in characters. Default 4000. */
  textLimit?: number
  /** Values typed from secrets: every occurrence is replaced with a mask in the tree, elements and text. */
  redactValues?: string[]
}

export interface PageSnapshot {
  url: string
  title: string
  elementTree: string
  elements: ElementInfo[]
  visibleTextSnippet: string
  scroll: { y: number; pixelsAbove: number; pixelsBelow: number }
  memory: PageMemory
  /** How many interactive elements were found before the cap, and how long the build took. */
  stats: { candidates: number; indexed: number; ms: number }
}

export interface PageActionResult {
  status: 'done' | 'failed'
  errors: { code: ActionErrorCode; message: string; origin?: string; effect?: { expected: string; found: string } }[]
  extracted?: unknown
  /**
   * The element a script named by CSS selector, as a person reads it (its label, text, accessible name or
   * placeholder): the server cannot tell `#name` apart in what it observes, the page can.
   */
  targetName?: string
  /** Done, though what the step was expected to leave is not there: the page changed otherwise (see watchPageChanges). */
  unmet?: UnmetEffect
  /** How its clicks and keys reached the page: trusted input through the extension's debugger, or DOM events. */
  input?: 'cdp' | 'dom'
  /** The editing command a key ran (copy, paste, selectAll…) and how: with the trusted key, or the element's editing APIs. */
  command?: { name: string; via: 'cdp' | 'dom' }
}
