/**
 * The one table `npm run bench` opens with: each benchmark contributes rows that set a measured value beside a
 * baseline measured in the same run. Benchmarks that run as their own process print their rows on one marked
 * line of stdout, which bench/run.ts lifts out of their markdown.
 */
import { table } from './stats'

export interface SummaryRow {
  measure: string
  value: string
  baseline: string
  /** value ÷ baseline, in the sense the note gives. */
  ratio: number
  note: string
}

const MARK = 'BENCH_SUMMARY '

export function summaryRow(measure: string, value: string, baseline: string, ratio: number, note: string): SummaryRow {
  return { measure, value, baseline, ratio, note }
}

/** The marked line a spawned benchmark prints for run.ts. */
export function printSummary(rows: SummaryRow[]): void {
  console.log(MARK + JSON.stringify(rows))
}

/** Splits a spawned benchmark's stdout into its summary rows and its markdown. */
export function takeSummary(stdout: string): { rows: SummaryRow[]; markdown: string } {
  const rows: SummaryRow[] = []
  const kept: string[] = []
  for (const line of stdout.split('\n')) {
    if (line.startsWith(MARK)) rows.push(...(JSON.parse(line.slice(MARK.length)) as SummaryRow[]))
    else kept.push(line)
  }
  return { rows, markdown: kept.join('\n').trim() }
}

const ratioText = (ratio: number) => (Number.isFinite(ratio) ? `${ratio >= 10 ? ratio.toFixed(0) : ratio >= 0.1 ? ratio.toFixed(2) : ratio.toPrecision(2)}×` : '–')

export function summaryTable(rows: SummaryRow[]): string {
  return table(
    ['measure', 'value', 'baseline (same run)', 'ratio', 'note'],
    rows.map((r) => [r.measure, r.value, r.baseline, ratioText(r.ratio), r.note]),
  )
}
