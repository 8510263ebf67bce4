import { describe, expect, it } from 'vitest'
import { findJsonObject, parseAgentOutput } from '../../server/lib/agent/parse-output'

const valid = { thinking: 't', evaluation_previous_goal: 'e', memory: 'm', next_goal: 'n', actions: [{ type: 'click', index: 3 }] }
const json = JSON.stringify(valid)

describe("reading the model's answer", () => {
  it.each([
    ['plain JSON', json],
    ['a ```json fence', '```json\n' + json + '\n```'],
    ['a bare fence', '```\n' + json + '\n```'],
    ['a <think> block with an object in it', '<think>let me see {"not": "this"}</think>' + json],
    ['a <thinking> block', '<thinking>\nhmm\n</thinking>\n' + json],
    ['an unopened </think> (the server cut the opening tag)', 'reasoning about {"x":1} …</think>\n' + json],
    ['a <think> that is never closed', '<think>I should answer ' + json],
    ['prose around it', 'Here is my answer: ' + json + ' — done.'],
    ['prose with braces before it', 'I will use {index} from the tree: ' + json],
    ['a stray object before the answer', '{"note": "ignore"}\n' + json],
    ['braces inside strings', JSON.stringify({ ...valid, memory: 'a } tricky { string "quoted"' })],
    ['an example fence before the real one', '```text\nnot json\n```\n```json\n' + json + '\n```'],
    ['only the actions (everything else is optional)', JSON.stringify({ actions: valid.actions })],
    ['extra keys models like to add', JSON.stringify({ ...valid, confidence: 0.9, actions: [{ type: 'click', index: 3, why: 'x' }] })],
  ])('accepts %s', (_name, raw) => {
    const parsed = parseAgentOutput(raw)
    expect(parsed.ok, parsed.ok ? '' : parsed.error).toBe(true)
    if (parsed.ok) expect(parsed.output.actions[0]).toMatchObject({ type: 'click', index: 3 })
  })

  it.each([
    ['no object', 'I will click the button.', /no JSON object/],
    ['broken JSON', '{"actions": [', /does not parse|not closed/],
    ['no actions', JSON.stringify({ ...valid, actions: [] }), /actions/],
    ['actions that is not a list', JSON.stringify({ ...valid, actions: 'click' }), /actions/],
    ['four actions', JSON.stringify({ ...valid, actions: Array(4).fill({ type: 'back' }) }), /actions/],
    ['done beside another action', JSON.stringify({ ...valid, actions: [{ type: 'back' }, { type: 'done', success: true, text: 'x' }] }), /alone/],
    ['ask_user beside another action', JSON.stringify({ ...valid, actions: [{ type: 'ask_user', question: 'q' }, { type: 'back' }] }), /alone/],
    ['an unknown action', JSON.stringify({ ...valid, actions: [{ type: 'teleport' }] }), /actions/],
    ['a click with no element', JSON.stringify({ ...valid, actions: [{ type: 'click' }] }), /element/],
    ['a negative index', JSON.stringify({ ...valid, actions: [{ type: 'click', index: -1 }] }), /index/],
    ['a scroll with no direction', JSON.stringify({ ...valid, actions: [{ type: 'scroll' }] }), /direction/],
  ])('refuses %s with a message the model can act on', (_name, raw, message) => {
    const parsed = parseAgentOutput(raw)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toMatch(message)
  })

  it('finds a JSON object for other answers too (extraction)', () => {
    expect(findJsonObject('<think>x</think>```json\n{"data": {"price": 799}}\n```', (v) => 'data' in v)).toEqual({ found: true, value: { data: { price: 799 } } })
    expect(findJsonObject('nothing here')).toEqual({ found: false, parseError: undefined })
  })
})
