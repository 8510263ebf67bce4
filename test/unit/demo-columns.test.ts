import { describe, expect, it } from 'vitest'
import { columns, displayWidth, padToWidth } from '../../scripts/demo/columns'
import { demoText } from '../../scripts/demo/messages'

/** The column (counted as a terminal draws it) where `needle` starts on `line`. */
const columnOf = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)))

describe('terminal columns', () => {
  it('counts a Chinese character or fullwidth sign as two columns, a combining mark as none', () => {
    expect(displayWidth('audit')).toBe(5)
    expect(displayWidth('审计哈希链')).toBe(10)
    expect(displayWidth('任务 status')).toBe(11)
    expect(displayWidth('（批准）')).toBe(8)
    expect(displayWidth('e\u0301')).toBe(1)
    expect(displayWidth('\u001b[1m粗\u001b[22m')).toBe(2)
  })

  it('pads by display width, where String#padEnd would count a Chinese character as one', () => {
    expect(padToWidth('用时', 6)).toBe('用时  ')
    expect(displayWidth(padToWidth('审计 export', 14))).toBe(14)
    expect(padToWidth('too wide already', 4)).toBe('too wide already')
  })

  it('starts every value at the same column with Chinese, English and mixed labels', () => {
    const rows: [string, string][] = [
      ['任务状态', '已完成'],
      ['audit chain', 'intact'],
      ['审计 export', 'demo-output/t1.zip'],
      ['用时', '12.3 秒'],
    ]
    const lines = columns(rows)
    const starts = lines.map((line, i) => columnOf(line, rows[i]![1]))
    expect(new Set(starts).size).toBe(1)
    expect(starts[0]).toBe(2 + displayWidth('audit chain') + 2)
  })

  it("lines up the demo's own summary in Chinese", () => {
    const t = demoText('zh-CN')
    const keys = ['summary.status', 'summary.order', 'summary.approval', 'summary.chain', 'summary.export', 'summary.time'] as const
    const rows = keys.map((key): [string, string] => [t(key), '值'])
    const starts = columns(rows).map((line) => columnOf(line, '值'))
    expect(new Set(starts).size).toBe(1)
  })
})
