import { describe, expect, it } from 'vitest'
import { judge } from '../../e2e/zoo/site'
import { TASKS } from '../../e2e/zoo/tasks'

// The zoo's verdicts are what reached its site, never what Tandem reports: a task that only types or chooses a
// value proves nothing unless the value is checked in what the page sent.
describe('the zoo judges each task by what the site received', () => {
  it('checks the values a task types or chooses, not only that something was sent', () => {
    const unchecked = TASKS.filter((t) => t.plan.some((s) => s.type === 'type' || s.type === 'select') && !t.expect.body && !t.expect.contains).map((t) => t.id)
    expect(unchecked).toEqual([])
  })

  it('fails a task whose request came with other values, or never came', () => {
    const arrival = (body: string) => ({ taskId: 't', method: 'POST', path: '/submit', body })
    const expected = { request: 'POST /submit', body: { date: '2026-05-01' } }
    expect(judge(expected, [arrival('{"date":"2026-05-01"}')])).toEqual({ ok: true, why: '' })
    expect(judge(expected, [arrival('{"date":""}')]).ok).toBe(false)
    expect(judge(expected, []).ok).toBe(false)
  })
})
