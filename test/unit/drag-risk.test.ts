import { describe, expect, it } from 'vitest'
import { classifyRisk, type RiskSubject } from '#protocol'

const drag = (item: string, onto?: string): RiskSubject => ({
  actionType: 'drag',
  params: { to: 3 },
  element: { tag: 'li', role: 'button', text: item },
  ...(onto ? { dropTarget: { tag: 'li', role: 'button', text: onto } } : {}),
})

describe('a drag is judged by where it drops, not by what it moves', () => {
  it('reorders a list without asking, whatever the items say', () => {
    expect(classifyRisk(drag('Delete old invoices', 'Water the plants')).risk).toBe('low')
    expect(classifyRisk(drag('发送周报', '待办')).risk).toBe('low')
    expect(classifyRisk(drag('Card')).risk).toBe('low')
  })

  it('asks before dropping onto a place that deletes or sends', () => {
    expect(classifyRisk(drag('Invoice 12', 'Trash')).details).toEqual([{ code: 'drop-high', label: 'Trash', kind: 'deletion' }])
    expect(classifyRisk(drag('照片', '回收站')).risk).toBe('high')
    expect(classifyRisk(drag('Draft', 'Send now')).details[0]).toMatchObject({ code: 'drop-high', kind: 'sending' })
  })
})
