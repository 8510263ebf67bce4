/**
 * The apps corpus as data: each task is a real app (TodoMVC in one framework, or a jQuery-era page built with the
 * real plugins), a goal in words, the plan a model that knows what to do would follow (naming targets as a person
 * would), a plain-Playwright baseline doing the same, and the page state whose reading is the verdict for both.
 */
import type { Page } from 'playwright-core'
import type { PlanStep } from '../support/plan-model'

/** The TodoMVC builds, one Vite entry each (e2e/apps/app/<framework>.ts). */
export type Framework = 'react' | 'redux' | 'vue' | 'preact' | 'svelte' | 'lit' | 'backbone' | 'jquery' | 'vanilla' | 'wc'

/** The script bundle a page is built by: a TodoMVC framework, or the jQuery-era pages' one entry. */
export type Entry = Framework | 'legacy'

export type Filter = 'all' | 'active' | 'completed'

/** The todos a TodoMVC task must leave, in order, as [title, completed], and the filter it must leave shown. */
export interface TodosExpect {
  todos: [string, boolean][]
  filter?: Filter
}

/** The values a jQuery-era page's state must hold (each compared as JSON); other keys may hold anything. */
export interface StateExpect {
  state: Record<string, unknown>
}

export type Expect = TodosExpect | StateExpect

export interface AppTask {
  id: string
  /** What the report totals by: the framework ("react", "react in a large page") or the jQuery-era page. */
  app: string
  group: 'todomvc' | 'jquery-era'
  entry: Entry
  /** The page of the entry the task runs on (the jQuery-era entry has several). */
  page: string
  /** A TodoMVC app drawn alone (the spec's page), or inside a large page of unrelated content. */
  layout?: 'alone' | 'large-page'
  lang: 'zh' | 'en'
  /** The document's title. */
  title: string
  goal: string
  plan: PlanStep[]
  /** The todos a TodoMVC page starts with. */
  seed?: [string, boolean][]
  /** The same task with plain Playwright locators, on the page opened at the task's start URL. */
  baseline: (page: Page) => Promise<void>
  expect: Expect
}
