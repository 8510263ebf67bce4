import { describe, expect, it } from 'vitest'
import type { Observation, ScriptStep } from '#protocol'
import { createScriptPlanner } from '../../server/lib/agent/script-planner'
import { targetsOf } from '../../server/lib/agent/step-targets'
import type { Planner, PlannerInput, PlannerOutput } from '../../server/lib/tasks/planner'
import type { TaskRecord } from '../../server/lib/tasks/task-record'

const SEND: ScriptStep = {
  type: 'click',
  target: { by: 'role', value: 'button:Send request' },
  text: 'Send request',
  selector: 'form > div.actions > button.btn-send',
  reason: 'Click “Send request”',
}
const NAME: ScriptStep = { type: 'type', target: { by: 'role', value: 'textbox:Full name' }, selector: '#fullname', text: 'Ada', clear: true }
const observation = { status: 'done', url: 'http://shop.test/book', title: 'Book', elementTree: '[7]<button>Submit booking</button>', elements: [{ index: 7, tag: 'button', fingerprint: 'fp7' }], visibleTextSnippet: '', errors: [], timing: {} } as unknown as Observation

const taskOf = (script: ScriptStep[], plannerState: unknown, lastOutcome: TaskRecord['lastOutcome']) =>
  ({ id: 't1', goal: 'Book', mode: 'script', script, plannerState, lastOutcome, steps: [], queue: [], seq: 3 }) as unknown as TaskRecord
const gone = (type = 'click'): TaskRecord['lastOutcome'] => ({ kind: 'failed', actionId: 'a', type, errors: [{ code: 'TARGET_NOT_FOUND', message: 'no element' }] })

/** A model that answers one click on element 7, recording what it was asked. */
function fakeModel(answer: PlannerOutput['decision'] = { kind: 'act', actions: [{ type: 'click', index: 7 }] }) {
  const asked: PlannerInput[] = []
  const model: Planner = { kind: 'llm', decide: async (input) => (asked.push(input), { decision: answer, usage: { llmCalls: 1 } }) }
  return { model, asked }
}

describe('a recorded step whose element is gone', () => {
  it('lists its targets as role and name, then visible text, then selector; a typed step’s text is never a target', () => {
    expect(targetsOf(SEND)).toEqual([
      { by: 'role', value: 'button:Send request' },
      { by: 'text', value: 'Send request' },
      { by: 'selector', value: 'form > div.actions > button.btn-send' },
    ])
    expect(targetsOf(NAME)).toEqual([{ by: 'role', value: 'textbox:Full name' }, { by: 'selector', value: '#fullname' }])
  })

  it('is sent by role first, then by text, then by selector, then the model is asked once for that step only', async () => {
    const { model, asked } = fakeModel()
    const planner = createScriptPlanner({ model })
    const first = await planner.decide({ task: taskOf([SEND, NAME], undefined, null), observation })
    expect(first.decision).toEqual({ kind: 'act', actions: [{ type: 'click', target: { by: 'role', value: 'button:Send request' }, reason: 'Click “Send request”' }] })
    const second = await planner.decide({ task: taskOf([SEND, NAME], first.state, gone()), observation })
    expect(second.decision).toMatchObject({ actions: [{ target: { by: 'text', value: 'Send request' } }] })
    const third = await planner.decide({ task: taskOf([SEND, NAME], second.state, gone()), observation })
    expect(third.decision).toMatchObject({ actions: [{ target: { by: 'selector', value: 'form > div.actions > button.btn-send' } }] })
    expect(asked).toHaveLength(0)
    const fixed = await planner.decide({ task: taskOf([SEND, NAME], third.state, gone()), observation })
    expect(asked).toHaveLength(1)
    expect(asked[0].task.goal).toContain('Do only this one step of a recorded procedure: Click “Send request”.')
    // The step keeps its own action; only where it acts comes from the model.
    expect(fixed.decision).toEqual({ kind: 'act', actions: [{ type: 'click', target: { by: 'index', value: 7, fingerprint: 'fp7' }, reason: 'Click “Send request”' }] })
    expect(fixed.usage).toEqual({ llmCalls: 1 })
    // The script goes on with the next step, by its role.
    const next = await planner.decide({ task: taskOf([SEND, NAME], fixed.state, { kind: 'done', actionId: 'b', type: 'click' }), observation })
    expect(next.decision).toMatchObject({ kind: 'act', actions: [{ type: 'type', target: { by: 'role', value: 'textbox:Full name' }, text: 'Ada' }] })
    expect(asked).toHaveLength(1)
  })

  it('tries the next target when the step acted on an element that did not take it (no effect)', async () => {
    const planner = createScriptPlanner()
    const first = await planner.decide({ task: taskOf([SEND], undefined, null), observation })
    const noEffect: TaskRecord['lastOutcome'] = { kind: 'failed', actionId: 'a', type: 'click', errors: [{ code: 'ACTION_NO_EFFECT', message: 'nothing changed' }] }
    const second = await planner.decide({ task: taskOf([SEND], first.state, noEffect), observation })
    expect(second.decision).toMatchObject({ actions: [{ target: { by: 'text', value: 'Send request' } }] })
    const refused: TaskRecord['lastOutcome'] = { kind: 'failed', actionId: 'a', type: 'click', errors: [{ code: 'PERMISSION_DENIED', message: 'no' }] }
    expect((await planner.decide({ task: taskOf([SEND], first.state, refused), observation })).decision).not.toMatchObject({ actions: [{ target: { by: 'text' } }] })
  })

  it('leaves only the decision that asks the model to the background: the report that brought the failure is not held', async () => {
    const { model } = fakeModel()
    const planner = createScriptPlanner({ model })
    expect(planner.decidesNow!(taskOf([SEND], { cursor: 1, alt: 0 }, gone()))).toBe(true)
    expect(planner.decidesNow!(taskOf([SEND], { cursor: 1, alt: 2 }, gone()))).toBe(false)
    expect(planner.decidesNow!(taskOf([SEND], { cursor: 1, alt: 2 }, { kind: 'done', actionId: 'a', type: 'click' }))).toBe(true)
    expect(createScriptPlanner().decidesNow!(taskOf([SEND], { cursor: 1, alt: 2 }, gone()))).toBe(true)
  })

  it('fails the task when the step the model placed fails too', async () => {
    const { model } = fakeModel()
    const planner = createScriptPlanner({ model })
    const out = await planner.decide({ task: taskOf([SEND], { cursor: 1, fixed: 'model' }, gone()), observation })
    expect(out.decision).toMatchObject({ kind: 'fail', code: 'TARGET_NOT_FOUND' })
  })

  it('asks the person to do the step when no model is configured, and goes on after their answer', async () => {
    const planner = createScriptPlanner()
    const asked = await planner.decide({ task: taskOf([SEND, NAME], { cursor: 1, alt: 2 }, gone()), observation })
    expect(asked.decision).toEqual({ kind: 'ask', question: expect.stringContaining('Click “Send request”'), code: 'RECORDED_STEP_GONE', params: { step: 0, intent: 'Click “Send request”' } })
    const next = await planner.decide({ task: taskOf([SEND, NAME], asked.state, { kind: 'answered', answer: 'done' }), observation })
    expect(next.decision).toMatchObject({ kind: 'act', actions: [{ type: 'type' }] })
  })

  it('asks the person when the model names no element', async () => {
    const { model, asked: calls } = fakeModel({ kind: 'ask', question: 'where?' })
    const out = await createScriptPlanner({ model }).decide({ task: taskOf([SEND], { cursor: 1, alt: 2 }, gone()), observation })
    expect(calls).toHaveLength(1)
    expect(out.decision.kind).toBe('ask')
  })

  it('leaves a hand-written step with one target as it was: it fails the task when its element is missing', async () => {
    const { model, asked } = fakeModel()
    const planner = createScriptPlanner({ model })
    const plain: ScriptStep = { type: 'click', selector: '#buy' }
    const first = await planner.decide({ task: taskOf([plain], undefined, null), observation })
    expect(first.decision).toEqual({ kind: 'act', actions: [plain] })
    const out = await planner.decide({ task: taskOf([plain], first.state, gone()), observation })
    expect(out.decision).toMatchObject({ kind: 'fail', code: 'TARGET_NOT_FOUND' })
    expect(asked).toHaveLength(0)
  })
})
