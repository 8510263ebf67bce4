import { describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { assertNoFalseDone, falseDones } from '../../e2e/support/false-done'
import { markdown, summarise, type ZooRow } from '../../e2e/zoo/report'

const observation = (actionId: string, status: 'done' | 'failed', errors: unknown[] = []) =>
  ({ type: 'observation', actionId, ts: '2026-01-01T00:00:00.000Z', data: { status, url: 'http://x/', title: 'x', errors, artifacts: [], timing: {}, elementCount: 0, treeChars: 0 } }) as unknown as AuditEvent
const noEffect = { code: 'ACTION_NO_EFFECT', message: 'The date field is still empty', effect: { expected: '2026-05-01', found: '' } }

describe('a done the page contradicts (the e2e guard on SUCCEEDED tasks)', () => {
  it('names a step reported done whose own observation found no effect', () => {
    const events = [observation('a1', 'done'), observation('a2', 'done', [noEffect])]
    expect(falseDones(events)).toEqual(['a2: done, yet The date field is still empty (expected 2026-05-01, found )'])
    expect(() => assertNoFalseDone('t1', events)).toThrow(/t1 ended SUCCEEDED on steps whose page did not change:\na2: done/)
  })

  it('accepts a no-effect step reported failed (the model then tried another way), and other errors on a done step', () => {
    const events = [observation('a1', 'failed', [noEffect]), observation('a2', 'done', [{ code: 'SCREENSHOT_FAILED', message: 'no picture' }])]
    expect(falseDones(events)).toEqual([])
    expect(() => assertNoFalseDone('t1', events)).not.toThrow()
  })
})

describe('the zoo report', () => {
  const row = (id: string, untrue: string, approved = 0): ZooRow =>
    ({
      task: { id, family: 'antd', goal: 'g', needs: [], expect: { request: 'POST /submit' } },
      baseline: { ok: true, why: '' },
      tandem: { id, outcome: untrue ? 'fail' : 'pass', reached: !untrue, why: untrue ? 'no POST /submit' : '', looks: [], failure: '', approved, status: 'SUCCEEDED', untrue, steps: ['click:done', 'click:done'], ms: 1 },
    }) as unknown as ZooRow

  it('counts and lists the tasks Tandem called SUCCEEDED that the site says are not done', () => {
    const rows = [row('antd-date', 'SUCCEEDED, yet no POST /submit'), row('antd-radio', '')]
    expect(summarise(rows).untrue).toEqual(['antd-date'])
    const md = markdown(rows, { seconds: 1 })
    expect(md).toContain("Tandem said SUCCEEDED while the site's log says otherwise: **1** (antd-date)")
    expect(md).toContain('- `antd-date`: SUCCEEDED, yet no POST /submit; steps click:done click:done')
  })

  it("counts the questions beyond each task's own goal write, per 100 of the other steps", () => {
    // One task reached its POST after two questions (one too many); one never sent it and was asked once.
    const rows = [row('antd-radio', '', 2), row('antd-date', 'SUCCEEDED, yet no POST /submit', 1)]
    expect(summarise(rows).harmless).toEqual({ asks: 2, steps: 3, per100: (2 * 100) / 3 })
  })
})
