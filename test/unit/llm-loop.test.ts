import { describe, expect, it } from 'vitest'
import { emptyUsage, type Observation, type ObservationError } from '#protocol'
import { createLlmPlanner, type LlmPlannerOptions, type LlmPlannerState } from '../../server/lib/agent/llm-planner'
import { recordDecision, repeatsOnPage } from '../../server/lib/agent/loop-guard'
import { apiError } from '../../server/lib/http/errors'
import type { ChatMessage, Completion, LlmGateway } from '../../server/lib/llm/gateway'
import { createSecrets } from '../../server/lib/privacy/secrets'
import type { PlannerOutput } from '../../server/lib/tasks/planner'
import type { TaskRecord } from '../../server/lib/tasks/task-record'
import { answer } from '../support/fake-llm'

type Reply = string | Error
/** A model in process: answers from the last user message; records every call. */
function scriptedGateway(reply: (user: string, call: number) => Reply) {
  const calls: ChatMessage[][] = []
  const gateway: LlmGateway = {
    model: 'scripted',
    async complete({ messages }): Promise<Completion> {
      calls.push(messages)
      const last = messages.at(-1)!.content
      const text = reply(typeof last === 'string' ? last : JSON.stringify(last), calls.length - 1)
      if (text instanceof Error) throw text
      return { text, model: 'scripted', usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 }, latencyMs: 5, format: 'json_schema' }
    },
  }
  return { gateway, calls, user: (i: number) => JSON.stringify(calls.at(i)?.at(-1)?.content ?? '') }
}

const page = (tree = '[0]<a href="/">Home</a>\n[1]<button>More</button>', url = 'https://x.test/'): Observation => ({
  status: 'done',
  url,
  title: 'X',
  elementTree: tree,
  visibleTextSnippet: 'Home More',
  errors: [],
  timing: {},
})

/** Just enough of the engine: applies decisions and lets the test say how each action went. */
function harness(options: Omit<LlmPlannerOptions, 'gateway'>, reply: (user: string, call: number) => Reply, goal = 'find the thing') {
  const model = scriptedGateway(reply)
  const planner = createLlmPlanner({ gateway: model.gateway, ...options })
  const task: TaskRecord = {
    id: 't1', rev: 0, goal, status: 'RUNNING', mode: 'llm', createdAt: '', updatedAt: '', queue: [], seq: 0, current: null, steps: [], lastOutcome: null, usage: emptyUsage(),
  }
  let queued: string[] = []
  const self = {
    model,
    task,
    user: model.user,
    async decide(observation: Observation | null): Promise<PlannerOutput> {
      const output = await planner.decide({ task: structuredClone(task), observation })
      task.plannerState = output.state
      task.lastOutcome = null
      queued = output.decision.kind === 'act' ? output.decision.actions.map((a) => a.type) : []
      return output
    },
    /** The next queued action ran: done, or failed with these errors. */
    ran(errors: ObservationError[] = [], url = 'https://x.test/') {
      const type = queued.shift() ?? 'click'
      task.seq += 1
      const failed = errors.length > 0
      task.steps.push({ seq: task.seq, actionId: `a${task.seq}`, type, risk: 'low', outcome: failed ? 'failed' : 'done', url, errors, at: '' })
      task.lastOutcome = failed ? { kind: 'failed', actionId: `a${task.seq}`, type, errors, url } : { kind: 'done', actionId: `a${task.seq}`, type, url }
      if (failed) queued = []
    },
    state: () => task.plannerState as LlmPlannerState,
  }
  return self
}

describe('the loop guard', () => {
  const a = [{ type: 'scroll' as const, direction: 'down' as const }]
  const b = [{ type: 'click' as const, index: 1 }]
  it('warns on the second identical decision on an unchanged page and breaks on the fourth', () => {
    let memory: string[] = []
    const verdicts = [1, 2, 3, 4].map(() => {
      const r = recordDecision(memory, a, page())
      memory = r.memory
      return r.verdict
    })
    expect(verdicts).toEqual(['ok', 'warn', 'warn', 'break'])
    expect(repeatsOnPage(memory, page())).toBe(4)
    expect(repeatsOnPage(memory, page('[0]<a>changed</a>'))).toBe(0)
  })

  it('catches alternating actions too, but not progress', () => {
    let memory: string[] = []
    const verdicts = [a, b, a, b, a, b, a].map((actions) => {
      const r = recordDecision(memory, actions, page())
      memory = r.memory
      return r.verdict
    })
    expect(verdicts).toEqual(['ok', 'ok', 'warn', 'warn', 'warn', 'warn', 'break'])
    memory = []
    const moving = [1, 2, 3, 4, 5].map((i) => {
      const r = recordDecision(memory, a, { ...page(), scroll: { y: i * 500, pixelsAbove: i * 500, pixelsBelow: 1000 } })
      memory = r.memory
      return r.verdict
    })
    expect(moving).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
  })

  it('ignores the reason the model gives', () => {
    const first = recordDecision([], [{ type: 'back', reason: 'one' }], page())
    expect(recordDecision(first.memory, [{ type: 'back', reason: 'two' }], page()).occurrences).toBe(2)
  })
})

describe('the LLM planner loop', () => {
  it('observes first, without asking the model', async () => {
    const h = harness({}, () => answer([{ type: 'back' }]))
    const out = await h.decide(null)
    expect(out.decision).toEqual({ kind: 'act', actions: [{ type: 'observe' }] })
    expect(h.model.calls).toHaveLength(0)
  })

  it('warns the model about a repeated action, then stops the loop', async () => {
    const h = harness({}, () => answer([{ type: 'scroll', direction: 'down' }]))
    const kinds: string[] = []
    for (let i = 0; i < 6; i++) {
      const out = await h.decide(page())
      kinds.push(out.decision.kind)
      if (out.decision.kind === 'fail') {
        expect(out.decision.code).toBe('LOOP_DETECTED')
        expect(out.decision.message).toMatch(/4 times on an unchanged page/)
        break
      }
      h.ran()
    }
    expect(kinds).toEqual(['act', 'act', 'act', 'fail'])
    expect(h.user(2)).toContain('You have chosen the same actions 2 times on this unchanged page')
  })

  it('fails after three failed actions in a row, with the error and a summary', async () => {
    const h = harness({}, (_u, n) => answer([{ type: 'click', index: n }]))
    for (let i = 0; i < 3; i++) {
      const out = await h.decide(page())
      expect(out.decision.kind).toBe('act')
      h.ran([{ code: 'TARGET_NOT_FOUND', message: 'no element' }])
    }
    const out = await h.decide(page())
    // The step it ended on, by the number the timeline shows, for the reader's own words (describeError).
    expect(out.decision).toMatchObject({ kind: 'fail', code: 'TARGET_NOT_FOUND', details: { step: 3 } })
    if (out.decision.kind === 'fail') expect(out.decision.message).toMatch(/3 failures in a row\. 3 actions ran \(0 done, 3 failed\)/)
    expect(h.model.calls).toHaveLength(3)
  })

  it('counts only failures in a row: an action that works resets the count', async () => {
    const h = harness({}, (_u, n) => answer([{ type: 'click', index: n }]))
    for (const fails of [true, true, false, true, true]) {
      expect((await h.decide(page())).decision.kind).toBe('act')
      h.ran(fails ? [{ code: 'TARGET_NOT_INTERACTABLE', message: 'covered' }] : [])
    }
    expect((await h.decide(page())).decision.kind).toBe('act')
    expect(h.state().failures).toBe(2)
  })

  it('repairs a bad answer once, counts an unrepaired one, and gives up after three', async () => {
    const h = harness({}, (user) => (user.includes('not valid') ? 'still not json' : '{"actions": [{"type": "click"}]}'))
    const first = await h.decide(page())
    expect(first.decision).toEqual({ kind: 'act', actions: [{ type: 'observe' }] })
    expect(h.model.calls).toHaveLength(2)
    expect(h.user(1)).toContain('That answer is not valid: actions.0: click, type, select, hover, drag, upload, double_click and right_click need an element')
    expect(first.audit).toMatchObject({ error: expect.stringContaining('no JSON object'), rawOutput: 'still not json' })
    h.ran()
    expect((await h.decide(page())).decision.kind).toBe('act')
    h.ran()
    const last = await h.decide(page())
    expect(last.decision).toMatchObject({ kind: 'fail', code: 'LLM_BAD_OUTPUT' })
    expect(h.model.calls).toHaveLength(6)
    expect(last.usage).toMatchObject({ llmCalls: 2, promptTokens: 200, completionTokens: 20, totalTokens: 220, latencyMs: 10 })
  })

  it("fails with the provider's error after three", async () => {
    const h = harness({}, () => apiError('LLM_ERROR', 'The model provider failed (HTTP 500): upstream exploded'))
    for (let i = 0; i < 2; i++) {
      expect((await h.decide(page())).decision.kind).toBe('act')
      h.ran()
    }
    const out = await h.decide(page())
    expect(out.decision).toMatchObject({ kind: 'fail', code: 'LLM_ERROR', message: expect.stringContaining('upstream exploded') })
  })

  it('stops at the step limit', async () => {
    const h = harness({ maxSteps: 2 }, (_u, n) => answer([{ type: 'click', index: n }]))
    for (let i = 0; i < 2; i++) {
      expect((await h.decide(page(`[${i}]<a>page ${i}</a>`))).decision.kind).toBe('act')
      h.ran()
    }
    expect((await h.decide(page())).decision).toMatchObject({ kind: 'fail', code: 'MAX_STEPS', message: expect.stringMatching(/Stopped after 2 steps/) })
  })

  it('re-observes a stale page without asking the model or counting a failure', async () => {
    const h = harness({}, () => answer([{ type: 'click', index: 1 }]))
    await h.decide(page())
    h.ran([{ code: 'TARGET_STALE', message: 'the element changed' }])
    const out = await h.decide(page())
    expect(out.decision).toEqual({ kind: 'act', actions: [{ type: 'observe' }] })
    expect(h.model.calls).toHaveLength(1)
    expect(h.state().failures).toBe(0)
  })

  it('reads the page again after the person refused what it tried to send, and tells the model of the refusal', async () => {
    const h = harness({}, () => answer([{ type: 'click', index: 1 }]))
    await h.decide(page())
    h.ran()
    h.task.steps.push({ seq: 2, actionId: 'r1', type: 'release', risk: 'high', outcome: 'rejected', errors: [], at: '' })
    h.task.seq = 2
    h.task.lastOutcome = { kind: 'rejected', actionId: 'r1', type: 'release' }
    const out = await h.decide(page('', 'https://x.test/order'))
    expect(out.decision).toEqual({ kind: 'act', actions: [{ type: 'observe' }] })
    expect(h.model.calls).toHaveLength(1)
    h.ran()
    await h.decide(page())
    expect(h.model.calls).toHaveLength(2)
    expect(h.user(1)).toContain('the person REFUSED to let the page send')
  })

  it('tells the model a step did something other than what was expected, and what that was', async () => {
    const h = harness({}, () => answer([{ type: 'click', index: 1 }]))
    await h.decide(page())
    h.ran()
    h.task.steps.at(-1)!.unmet = { expected: 'checked = true', found: 'checked = false', changed: ['dom'] }
    await h.decide(page())
    expect(h.user(1)).toContain('click: done, and the page changed (dom), but not as expected: expected checked = true, found checked = false')
  })

  it('tells the model what came of its actions: done, failed with the error, and the ones never run', async () => {
    const h = harness({}, () => answer([{ type: 'type', index: 0, text: 'a' }, { type: 'click', index: 1 }, { type: 'back' }], { memory: 'remember me' }))
    await h.decide(page())
    h.ran()
    h.ran([{ code: 'TARGET_NOT_INTERACTABLE', message: 'covered by a dialog' }])
    await h.decide(page())
    const prompt = h.user(1)
    expect(prompt).toContain('memory: remember me')
    expect(prompt).toContain('type: done (now at https://x.test/)')
    expect(prompt).toContain('click: FAILED TARGET_NOT_INTERACTABLE covered by a dialog')
    expect(prompt).toContain('1 later action was not run: an earlier action failed')
  })

  it("carries the person's answer into the next prompt", async () => {
    const h = harness({}, (user) => (user.includes('the person answered') ? answer([{ type: 'done', success: true, text: 'blue it is' }]) : answer([{ type: 'ask_user', question: 'Which colour?' }])))
    expect((await h.decide(page())).decision).toEqual({ kind: 'ask', question: 'Which colour?' })
    h.task.lastOutcome = { kind: 'answered', question: 'Which colour?', answer: 'blue' }
    expect((await h.decide(page())).decision).toEqual({ kind: 'done', success: true, text: 'blue it is' })
    expect(h.user(1)).toContain('the person answered \\"blue\\" to \\"Which colour?\\"')
  })

  it('stops a plan at an extract, answers the extract over the page text, validates it, and returns it as data', async () => {
    const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] }
    const h = harness({}, (user, n) => {
      if (user.includes('Instruction: the price')) return n === 1 ? '{"data": {"price": "cheap"}}' : '```json\n{"data": {"price": 799}}\n```'
      if (user.includes('not valid')) return '{"data": {"price": 799}}'
      if (user.includes('extracted: {"price":799}')) return answer([{ type: 'done', success: true, text: 'It costs 799.' }])
      return answer([{ type: 'extract', instruction: 'the price', schema }, { type: 'click', index: 1 }])
    })
    const first = await h.decide(page())
    expect(first.decision).toEqual({ kind: 'act', actions: [{ type: 'extract', instruction: 'the price', schema }] })
    h.ran()
    h.task.lastOutcome = { kind: 'done', actionId: 'a1', type: 'extract', extracted: { url: 'https://x.test/', title: 'X', text: 'Price: $799', truncated: false } }
    const done = await h.decide(page())
    expect(done.decision).toEqual({ kind: 'done', success: true, text: 'It costs 799.', data: { price: 799 } })
    const extraction = h.model.calls[1]
    expect(String(extraction[0].content)).toContain('"data" must match this JSON schema')
    expect(String(extraction[1].content)).toContain('<page_text>\nPrice: $799\n</page_text>')
    expect(JSON.stringify(h.model.calls[2])).toContain('the data does not match the schema: price')
    expect(done.usage?.llmCalls).toBe(3)
  })

  it('reports an extraction the page cannot answer', async () => {
    const h = harness({}, (user) => {
      if (user.includes('Instruction:')) return '{"data": null}'
      if (user.includes('extract: no data (the page does not contain what was asked)')) return answer([{ type: 'done', success: false, text: 'no price' }])
      return answer([{ type: 'extract', instruction: 'the price' }])
    })
    await h.decide(page())
    h.ran()
    h.task.lastOutcome = { kind: 'done', actionId: 'a1', type: 'extract', extracted: { text: 'nothing here' } }
    expect((await h.decide(page())).decision).toEqual({ kind: 'done', success: false, text: 'no price' })
  })

  it('puts the task skill and the best matches into the prompt, and survives a broken library', async () => {
    const skills = {
      search: (_q: string, o: { site?: string }) => (o.site === 'x.test' ? [{ slug: 'site-skill', name: 'Site skill', description: 'for x.test' }] : [{ slug: 'general', name: 'General', description: 'anywhere' }]),
      get: (slug: string) => ({ name: `Skill ${slug}`, description: `about ${slug}`, body: `steps of ${slug}` }),
    }
    const h = harness({ skills }, () => answer([{ type: 'back' }]))
    h.task.skill = 'chosen'
    await h.decide(page())
    expect(h.user(0)).toMatch(/Skill chosen[\s\S]*Skill site-skill[\s\S]*Skill general/)
    const broken = harness({ skills: async () => { throw new Error('index not built') } }, () => answer([{ type: 'back' }]))
    expect((await broken.decide(page())).decision.kind).toBe('act')
  })

  it('names the secrets and scrubs their values from everything it sends', async () => {
    const secrets = createSecrets({ TANDEM_SECRET_SHOP_PASSWORD: 'hunter2-xyz' })
    const h = harness({ secrets }, () => answer([{ type: 'type', index: 0, text: '{{secret:SHOP_PASSWORD}}' }]))
    const out = await h.decide({ ...page('[0]<input type=password value="hunter2-xyz">'), visibleTextSnippet: 'your password is hunter2-xyz' })
    expect(out.decision).toEqual({ kind: 'act', actions: [{ type: 'type', index: 0, text: '{{secret:SHOP_PASSWORD}}' }] })
    const sent = JSON.stringify(h.model.calls)
    expect(sent).toContain('{{secret:SHOP_PASSWORD}}')
    expect(sent).not.toContain('hunter2-xyz')
    expect(JSON.stringify(out)).not.toContain('hunter2-xyz')
  })

  it('shows the screenshot when vision is on', async () => {
    const h = harness({ screenshot: async () => 'data:image/png;base64,iVBORw0KGgo=' }, () => answer([{ type: 'back' }]))
    await h.decide(page())
    const content = h.model.calls[0][1].content
    expect(Array.isArray(content) && content[1]).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' } })
  })

  it('audits each call without its text, and the parsed output', async () => {
    const h = harness({}, () => answer([{ type: 'back' }], { thinking: 'why not' }))
    const out = await h.decide(page())
    expect(out.audit).toMatchObject({
      model: 'scripted',
      calls: [{ model: 'scripted', usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 }, latencyMs: 5, format: 'json_schema' }],
      output: { thinking: 'why not', actions: [{ type: 'back' }] },
      promptTokensEstimate: expect.any(Number),
      treeTokensEstimate: expect.any(Number),
    })
    expect((out.audit!.calls as object[])[0]).not.toHaveProperty('text')
  })
})

describe('a step without effect in the next prompt', () => {
  const noEffect: ObservationError = {
    code: 'ACTION_NO_EFFECT',
    message: 'nothing changed: expected "B-200", found "A-100" (unchanged)',
    effect: { expected: '"B-200"', found: '"A-100" (unchanged)' },
  }

  it('says plainly, on the very next prompt and before any loop warning, that the step did nothing and to try another way', async () => {
    const h = harness({}, () => answer([{ type: 'type', index: 1, text: 'B-200' }]))
    await h.decide(page())
    h.ran([noEffect])
    await h.decide(page())
    const prompt = JSON.parse(h.user(1)) as string
    expect(prompt).toContain('Note: Your last action had NO EFFECT (ACTION_NO_EFFECT). type: NO EFFECT, the page did not change: expected "B-200", found "A-100" (unchanged).')
    expect(prompt).toMatch(/Repeating it will not work: try another way, such as another element .*another action/)
    // The step's result in the history says the same, not a bare failure code.
    expect(prompt).toContain('results: type: NO EFFECT, the page did not change: expected "B-200", found "A-100" (unchanged)')
    // The note comes before the loop guard's warning and the failure count.
    expect(prompt.indexOf('NO EFFECT')).toBeLessThan(prompt.indexOf('failure(s) in a row'))
    h.ran([noEffect])
    await h.decide(page())
    const third = JSON.parse(h.user(2)) as string
    expect(third.indexOf('Note: Your last action had NO EFFECT')).toBeGreaterThan(-1)
    expect(third.indexOf('Note: Your last action had NO EFFECT')).toBeLessThan(third.indexOf('You have chosen the same actions'))
  })

  it('says nothing of it after a step that worked or failed otherwise', async () => {
    const h = harness({}, () => answer([{ type: 'click', index: 1 }]))
    await h.decide(page())
    h.ran([{ code: 'TARGET_NOT_FOUND', message: 'gone' }])
    await h.decide(page())
    h.ran()
    await h.decide(page())
    expect(h.user(1)).not.toContain('NO EFFECT')
    expect(h.user(2)).not.toContain('NO EFFECT')
  })
})
