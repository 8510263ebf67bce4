/**
 * The zoo as data: each task is a page built from a real component library, a goal in words, the plan a model that
 * knows what to do would follow (naming targets as a person would), a plain-Playwright baseline doing the same, and
 * the request whose arrival at the site is the verdict for both.
 */
import type { Page } from 'playwright-core'

/** The script bundle a page is built by (one Vite entry each, e2e/zoo/app/<entry>.ts). */
export type Entry = 'antd' | 'element' | 'vant' | 'arco' | 'tdesign' | 'mui' | 'radix' | 'headless' | 'rselect' | 'editors' | 'dnd' | 'plain'

/** What the report groups by: the library, or the kind of widget the task is about. */
export type Family =
  | 'antd' | 'element-plus' | 'arco' | 'tdesign' | 'vant' | 'mui' | 'radix' | 'headless-ui' | 'react-select'
  | 'date-picker' | 'rich-text' | 'drag-and-drop' | 'upload' | 'new-tab' | 'hover'

/** What Tandem needs for the task beyond click/type/select on a listed element (the items). */
export type Need = 'names' | 'custom-select' | 'settle' | 'container' | 'hover' | 'drag' | 'upload' | 'new-tab' | 'switch_tab' | 'close_tab' | 'trusted-input'

export type { Find, PlanStep } from '../support/plan-model'
import type { PlanStep } from '../support/plan-model'

/** The request that proves the task was done, as the site logged it. */
export interface Expect {
  /** "METHOD /path", relative to the task's folder. */
  request: string
  /** The JSON body has these values (each compared as JSON). */
  body?: Record<string, unknown>
  /** The raw body contains these strings (a multipart upload's file name, an editor's HTML). */
  contains?: string[]
  /** Other requests that must have arrived too ("METHOD /path"): a tab opened, a tab closed. */
  also?: string[]
}

export interface Task {
  id: string
  /** The page of its entry the task runs on, when several tasks share one (default: the id). */
  page?: string
  family: Family
  entry: Entry
  lang: 'zh' | 'en'
  /** The page's heading. */
  title: string
  goal: string
  plan: PlanStep[]
  needs: Need[]
  /** More pages of the task's folder (a result opened in a new tab): path → page key of the plain entry. */
  pages?: Record<string, string>
  /** The same task with plain Playwright locators, on the page opened at the task's start URL. */
  baseline: (page: Page, files: string) => Promise<void>
  expect: Expect
}
