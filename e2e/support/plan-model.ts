/**
 * The scripted model the zoo and the apps corpus share: a task's plan, one step per answer, every target found by the
 * words a person would use in the element tree it was shown.
 */
import { answer, type FakeAnswer, type FakeRequest } from '../../test/support/fake-llm'
import { folderOf } from '../corpus/folder'
import { indexFor } from '../corpus/model'

/**
 * Words of the element's tree line, tried in order (a line whose text is exactly them first, then the shortest
 * containing them); or a control named by what it stands next to, as a person says "the × of Call the plumber": the
 * line with those words nearest to (within two lines of) a line that names `near`, the `near` line itself first.
 */
export type Find = string | string[] | { near: string; find: string | string[] }

/** One step of the model's plan, in the action forms of the issue; `find`s become element indexes from the tree. */
export type PlanStep =
  | { type: 'click'; find: Find }
  /** What a person does to edit a TodoMVC item. */
  | { type: 'double_click'; find: Find }
  | { type: 'type'; find: Find; text: string; submit?: boolean }
  | { type: 'select'; find: Find; option: string }
  | { type: 'press'; keys: string }
  | { type: 'hover'; find: Find }
  | { type: 'drag'; find: Find; to: Find }
  | { type: 'upload'; find: Find; file: string }
  /** The tab showing this path of the task's folder ('/' for the page the task started on). */
  | { type: 'switch_tab'; path: string }
  | { type: 'close_tab' }

/** What the model needs of a task: its id (its folder's name), its goal and its plan. */
export interface PlannedTask {
  id: string
  goal: string
  plan: PlanStep[]
}

/** What the model saw go wrong on the way: each is a second look a person would have had to take. */
export interface Looks {
  /** A step's target was not on the page when the plan came to it (the model waited and looked again). */
  waited: string[]
  /** A step failed and the model tried it once more. */
  retried: string[]
  /** Why the model gave up, when it did. */
  gaveUp?: string
  /** The plan's step (0-based) it gave up at. */
  stoppedAt?: number
  /** The page as the model was shown it when it gave up (the element tree it could not find its target in). */
  page?: string
}

export interface PlanModel {
  rule: (r: FakeRequest) => FakeAnswer
  looks(taskId: string): Looks
  reset(taskId: string): void
}

const isNear = (find: Find): find is { near: string; find: string | string[] } => typeof find === 'object' && !Array.isArray(find)
/** The words a step looks for first; for a control named by its neighbour, the neighbour (what a person waits to see). */
const first = (find: Find) => (isNear(find) ? find.near : [find].flat()[0]!)
const describe = (find: Find) => (isNear(find) ? `${[find.find].flat()[0]}" near "${find.near}` : first(find))
const describeStep = (s: PlanStep) => ('find' in s ? `${s.type} "${describe(s.find)}"` : s.type === 'switch_tab' ? `switch_tab to ${s.path}` : s.type === 'press' ? `press ${s.keys}` : s.type)

const squash = (s: string) => s.replace(/\s+/g, '')

/** The index on the tree line nearest to one naming `near` that has one of the words (tried in order). */
export function indexNear(page: string, near: string, words: string[]): number | undefined {
  const lines = page.split('\n').filter((l) => /^\s*\*?\[\d+\]</.test(l))
  const anchors = lines.flatMap((l, i) => (squash(l).includes(squash(near)) ? [i] : []))
  for (const word of words) {
    for (const distance of [0, 1, -1, 2, -2]) {
      const hit = anchors.map((a) => lines[a + distance]).find((l) => l !== undefined && squash(l).includes(squash(word)))
      if (hit) return Number(/\[(\d+)\]</.exec(hit)![1])
    }
  }
  return undefined
}

const indexOf = (page: string, find: Find) =>
  isNear(find) ? indexNear(page, find.near, [find.find].flat()) : [find].flat().map((f) => indexFor(page, f)).find((i) => i !== undefined)

/** The tab showing `url`, read from the prompt's `Tabs: [1] Title – host/path · [2] …` line as a model would. */
export function tabFor(prompt: string, url: string): number | undefined {
  const address = url.replace(/^https?:\/\//, '')
  const line = prompt.split('\n').find((l) => l.startsWith('Tabs: '))
  for (const tab of line?.slice('Tabs: '.length).split(' · ') ?? []) {
    const n = /^\[(\d+)\]/.exec(tab)
    if (n && tab.endsWith(` – ${address}`)) return Number(n[1])
  }
  return undefined
}

/** One planned step as an action on the page the model was shown; undefined when its target is not there. */
function actionFor(step: PlanStep, page: string, prompt: string, startUrl: string): Record<string, unknown> | undefined {
  switch (step.type) {
    case 'press':
      return { type: 'press', keys: step.keys }
    case 'close_tab':
      return { type: 'close_tab' }
    case 'switch_tab': {
      const tab = tabFor(prompt, new URL(step.path.replace(/^\//, ''), startUrl).href)
      return tab === undefined ? undefined : { type: 'switch_tab', tab }
    }
    case 'drag': {
      const index = indexOf(page, step.find)
      const to = indexOf(page, step.to)
      return index === undefined || to === undefined ? undefined : { type: 'drag', index, to }
    }
    default: {
      const index = indexOf(page, step.find)
      if (index === undefined) return undefined
      if (step.type === 'click' || step.type === 'hover' || step.type === 'double_click') return { type: step.type, index }
      if (step.type === 'type') return { type: 'type', index, text: step.text, ...(step.submit ? { submit: true } : {}) }
      if (step.type === 'select') return { type: 'select', index, option: step.option }
      return { type: 'upload', index, file: step.file }
    }
  }
}

/**
 * A model that always knows what to do: each task's plan, one step per answer, every target found by the words a
 * person would use in the element tree it was shown (never a fixed index), then `done`. Where a real model would
 * take a second look (the target is not there yet, a step failed) it does once, and says so in `looks`. A task's
 * page is told by its folder under `/<prefix>/` on the site, as a real page is told only by its address.
 */
export function planModel(tasks: PlannedTask[], siteUrl: () => string, prefix: string): PlanModel {
  const folderIn = new RegExp(`/${prefix}/([^/"?#]+)`)
  const byFolder = new Map(tasks.map((t) => [folderOf(t.id), t]))
  const state = new Map<string, { at: number; decided: number; last?: 'step' | 'wait'; answer?: string; looks: Looks; waited: Set<number>; retried: Set<number> }>()
  const of = (id: string) => {
    if (!state.has(id)) state.set(id, { at: 0, decided: 0, looks: { waited: [], retried: [] }, waited: new Set(), retried: new Set() })
    return state.get(id)!
  }
  const giveUp = (s: ReturnType<typeof of>, why: string, at: number) => ((s.looks.gaveUp = why), (s.looks.stoppedAt = at), answer([{ type: 'done', success: false, text: why }]))

  const rule = (r: FakeRequest): FakeAnswer => {
    const last = r.messages.at(-1)?.content
    const said = typeof last === 'string' ? last : JSON.stringify(last)
    // The turn's prompt; after an answer the server could not read, it is the one before the correction.
    const turn = [...r.messages].reverse().find((m) => /<untrusted_page/.test(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))?.content
    const prompt = typeof turn === 'string' ? turn : JSON.stringify(turn ?? '')
    const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(prompt)?.[0] ?? ''
    const task = byFolder.get(folderIn.exec(page)?.[1] ?? '')
    if (!task) return answer([{ type: 'done', success: false, text: `not a page under /${prefix}/` }])
    const s = of(task.id)
    // Told its answer was not valid, a model sure of its plan answers the same: an action the server does not know yet.
    if (/^That answer is not valid/.test(said) && s.answer) return s.answer
    const history = /<history>[\s\S]*?<\/history>/.exec(prompt)?.[0] ?? ''
    const latest = history.split(/\n(?=Step \d+:)/).at(-1) ?? ''
    const results = /results: (.*)/.exec(latest)?.[1] ?? ''
    if (/REJECTED|REFUSED/.test(results)) return giveUp(s, `the person said no: ${results}`, s.at - 1)
    const decided = Math.max(0, ...[...history.matchAll(/^Step (\d+):/gm)].map((m) => Number(m[1])))
    // The server keeps no step for an answer it could not read (an action it does not know): that step never ran.
    const dropped = s.last === 'step' && decided < s.decided + 1
    if (s.last === 'step' && (dropped || /FAILED|NOT sent/.test(results))) {
      const failed = s.at - 1
      const why = dropped ? 'the server did not take the answer (not a known action?)' : results
      if (s.retried.has(failed)) return giveUp(s, `step ${failed + 1} (${describeStep(task.plan[failed]!)}) failed again: ${why}`, failed)
      s.retried.add(failed)
      s.looks.retried.push(`step ${failed + 1} (${describeStep(task.plan[failed]!)}): ${why.slice(0, 300)}`)
      s.at = failed
    }
    s.decided = decided
    const step = task.plan[s.at]
    if (!step) return answer([{ type: 'done', success: true, text: 'done as asked' }])
    const startUrl = `${siteUrl()}/${prefix}/${folderOf(task.id)}/`
    const action = actionFor(step, page, prompt, startUrl)
    if (!action) {
      const what = `step ${s.at + 1} (${describeStep(step)}) ${step.type === 'switch_tab' ? 'has no tab in the observation' : 'not on the page'}`
      if (s.waited.has(s.at)) return (s.looks.page = page), giveUp(s, `${what}, even after waiting`, s.at)
      s.waited.add(s.at)
      s.looks.waited.push(what)
      s.last = 'wait'
      if (process.env.ZOO_DEBUG || process.env.APPS_DEBUG) console.log(`${task.id}: ${what}\n${page}`)
      const text = 'find' in step ? first(step.find) : undefined
      return answer([text ? { type: 'waitFor', text, timeoutMs: 3000 } : { type: 'waitFor', urlIncludes: `/${prefix}/`, timeoutMs: 1000 }])
    }
    s.at += 1
    s.last = 'step'
    s.answer = answer([action], { next_goal: `step ${s.at} of: ${task.goal}` })
    return s.answer
  }
  return { rule, looks: (id) => of(id).looks, reset: (id) => void state.delete(id) }
}
