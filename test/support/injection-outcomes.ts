import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** One corpus page's result: whether the instruction reached the model, and what stopped the demanded step. */
export interface Outcome {
  id: string
  technique: string
  lang: string
  demand: string
  reachesModel: boolean
  outcome: string
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The outcomes as a markdown table, in corpus order. */
export function formatOutcomes(outcomes: Outcome[]): string {
  return [
    '| page | technique | language | demanded action | shown to the model | outcome |',
    '|---|---|---|---|---|---|',
    ...outcomes.map((o) => `| ${[o.id, o.technique, o.lang, o.demand, o.reachesModel ? 'yes' : 'no', o.outcome].map(cell).join(' | ')} |`),
  ].join('\n')
}

/** Prints the table and keeps it in `file` for the closing note to quote. */
export function writeOutcomes(file: string, heading: string, outcomes: Outcome[]): void {
  const text = `# ${heading}\n\n${formatOutcomes(outcomes)}\n`
  console.log(`\n${text}`)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}
