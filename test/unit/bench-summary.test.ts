import { describe, expect, it } from 'vitest'
import { summaryRow, summaryTable, takeSummary } from '../../bench/summary'

describe('benchmark summary rows', () => {
  it('lifts marked rows out of a benchmark’s output and keeps its markdown', () => {
    const rows = [summaryRow('search p50', '0.5 ms', '1.0 ms scan', 0.5, 'lower is better')]
    const stdout = `BENCH_SUMMARY ${JSON.stringify(rows)}\n## Skills\n\n| a |\n| --- |\nBENCH_SUMMARY ${JSON.stringify([summaryRow('build', '1 s', '2 s', 0.5, '')])}\n`
    const { rows: taken, markdown } = takeSummary(stdout)
    expect(taken.map((r) => r.measure)).toEqual(['search p50', 'build'])
    expect(markdown).toBe('## Skills\n\n| a |\n| --- |')
  })

  it('prints one table with each ratio as a multiple, and a dash when there is none', () => {
    const table = summaryTable([
      summaryRow('a', '1', '2', 0.5, 'n'),
      summaryRow('b', '30', '2', 15, ''),
      summaryRow('c', '1', '0', Infinity, ''),
      summaryRow('d', '1', '400', 0.0025, ''),
    ])
    const lines = table.split('\n')
    expect(lines[0]).toBe('| measure | value | baseline (same run) | ratio | note |')
    expect(lines.slice(2).map((l) => l.split(' | ')[3])).toEqual(['0.50×', '15×', '–', '0.0025×'])
  })
})
