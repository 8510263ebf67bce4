import { RiskKind, TaskPlan } from '#protocol'
import { z } from 'zod'
import type { ChatMessage, Completion, JsonSchemaSpec, LlmGateway } from '../llm/gateway'
import type { TaskRecord } from '../tasks/task-record'
import { findJsonObject } from './parse-output'
import { cut } from './prompt/tokens'

const SYSTEM = `You are Tandem, a browser agent working in a person's own browser. Before doing anything, you propose a
plan in words for the person to approve. Answer with exactly ONE JSON object and nothing else:
{"steps": ["short step", ...], "sites": ["host or host:port", ...], "sends": [{"what": "...", "kind": "..."}, ...]}

- steps: 1 to 30 short steps, in order, as the person would read them.
- sites: every site (host, with the port when there is one) any step will open or act on, the start page's first.
- sends: everything the task will send, submit, pay, delete, publish or change for the person, one entry each;
  "kind" is one of ${RiskKind.options.join(', ')}. Leave out searches and reading.
Once approved, a step on another site or a kind of action not listed in sends is asked about again, and every risky
step is still confirmed by the person.`

export const TASK_PLAN_SCHEMA: JsonSchemaSpec | undefined = (() => {
  try {
    return { name: 'task_plan', schema: z.toJSONSchema(TaskPlan, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown> }
  } catch {
    return undefined
  }
})()

export type PlanAttempt = { ok: true; plan: TaskPlan } | { ok: false; error: string; raw?: string }

const problemOf = (text: string): { plan?: TaskPlan; error?: string } => {
  const found = findJsonObject(text, (v) => 'steps' in v)
  if (!found.found) return { error: 'the answer is not a JSON object with "steps", "sites" and "sends"' }
  const parsed = TaskPlan.safeParse(found.value)
  if (parsed.success) return { plan: parsed.data }
  return { error: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') }
}

/** Asks the model for a plan-first task's plan, with one repair round; every call lands in `calls`. */
export async function proposePlan(gateway: LlmGateway, task: Pick<TaskRecord, 'goal' | 'startUrl'>, pageUrl: string | undefined, calls: Completion[]): Promise<PlanAttempt> {
  const where = task.startUrl ? `The task starts at ${task.startUrl}.` : pageUrl ? `The task starts on the page ${pageUrl}.` : ''
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `<goal>\n${cut(task.goal, 4000)}\n</goal>\n\n${where}\n\nPropose the plan as one JSON object.` },
  ]
  try {
    let last = ''
    for (let round = 0; round < 2; round++) {
      const reply = await gateway.complete({ messages, schema: TASK_PLAN_SCHEMA })
      calls.push(reply)
      last = reply.text
      const { plan, error } = problemOf(reply.text)
      if (plan) return { ok: true, plan }
      if (round === 1) return { ok: false, error: error!, raw: cut(last, 2000) }
      messages.push({ role: 'assistant', content: cut(reply.text, 4000) }, { role: 'user', content: `That plan is not valid: ${error}. Answer again with one JSON object in the required format.` })
    }
    return { ok: false, error: 'no plan', raw: cut(last, 2000) }
  } catch (error) {
    return { ok: false, error: String((error as Error)?.message ?? error) }
  }
}
