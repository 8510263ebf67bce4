import { answer, type FakeAnswer, type FakeRequest } from '../../test/support/fake-llm'
import type { Case, Step } from './types'
import { folderOf } from './folder'

const squash = (s: string) => s.replace(/\s+/g, '')

/**
 * The index of the element a step means, read from the tree the model was shown: a line whose text is exactly
 * the target first (so "OK" is the dialog's button, not "Book"), then the shortest line that contains it.
 */
export function indexFor(page: string, wanted: string): number | undefined {
  const lines = page.split('\n').filter((l) => /^\s*\*?\[\d+\]</.test(l))
  const want = squash(wanted)
  const textOf = (l: string) => squash(l.slice(l.indexOf('>') + 1))
  const hit = lines.filter((l) => textOf(l) === want).at(-1) ?? lines.filter((l) => squash(l).includes(want)).sort((a, b) => a.length - b.length)[0]
  const match = hit && /\[(\d+)\]</.exec(hit)
  return match ? Number(match[1]) : undefined
}

function actionFor(step: Step, page: string): unknown | undefined {
  if (step.type === 'press') return { type: 'press', keys: step.keys }
  const finds = [step.find ?? step.text ?? ''].flat()
  const index = finds.map((f) => indexFor(page, f)).find((i) => i !== undefined)
  if (index === undefined) return undefined
  if (step.type === 'click') return { type: 'click', index }
  if (step.type === 'type') return { type: 'type', index, text: step.text, ...(step.submit ? { submit: true } : {}) }
  return { type: 'select', index, option: step.option }
}

export interface CorpusModel {
  rule: (r: FakeRequest) => FakeAnswer
  /** Steps the model could not find on the page, by case: a corpus problem, not Tandem's. */
  misses: Map<string, string>
  reset(caseId: string): void
}

/**
 * A model that does what the page leads it to: the case's own steps, one per answer, each naming its element by
 * index in the observation, then `done`. It states no risk (the server's rules decide), and gives up once the person
 * rejects a step or a step fails, as a model told "rejected" would.
 */
export function corpusModel(cases: Case[]): CorpusModel {
  const byFolder = new Map(cases.map((c) => [folderOf(c.id), c]))
  const next = new Map<string, number>()
  const misses = new Map<string, string>()
  const waited = new Set<string>()
  const rule = (r: FakeRequest): FakeAnswer => {
    const prompt = String(typeof r.messages.at(-1)?.content === 'string' ? r.messages.at(-1)!.content : JSON.stringify(r.messages.at(-1)?.content))
    const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(prompt)?.[0] ?? ''
    // The page says which case it is only by its folder, as a real page says where it is only by its address.
    const c = byFolder.get(/\/c\/([^/"?]+)/.exec(page)?.[1] ?? '')
    if (!c) return answer([{ type: 'done', success: false, text: 'not a corpus page' }])
    const id = c.id
    const history = /<history>[\s\S]*?<\/history>/.exec(prompt)?.[0] ?? ''
    if (/REJECTED|failed/.test(history.replace(/waitFor[^\n]*/g, ''))) return answer([{ type: 'done', success: false, text: 'the person said no' }])
    const at = next.get(id) ?? 0
    const step = c.steps[at]
    if (!step) return answer([{ type: 'done', success: true, text: 'did what was asked' }])
    const action = actionFor(step, page)
    const waitText = step.type === 'click' || step.type === 'select' ? step.text : undefined
    if (!action && waitText && !waited.has(`${id}:${at}`)) {
      // What a model does when the control it expects is not there yet (a dialog still opening): wait, look again.
      waited.add(`${id}:${at}`)
      return answer([{ type: 'waitFor', text: waitText, timeoutMs: 3000 }])
    }
    if (!action) {
      misses.set(id, `step ${at + 1} (${step.type} "${step.type === 'press' ? step.keys : (step.find ?? step.text)}") in the tree`)
      if (process.env.CORPUS_DEBUG) console.log(`${id}: no "${step.type === 'press' ? '' : (step.find ?? step.text)}" in\n${page}`)
      return answer([{ type: 'done', success: false, text: 'could not find the control' }])
    }
    next.set(id, at + 1)
    return answer([action], { next_goal: `step ${at + 1} of ${c.goal}` })
  }
  return { rule, misses, reset: (caseId) => (next.delete(caseId), misses.delete(caseId), [...waited].filter((k) => k.startsWith(`${caseId}:`)).forEach((k) => waited.delete(k))) }
}
