/**
 * npm run zoo [-- --only <id part>] [--baseline-only] [--timeout <ms>] [--quiet]
 * Writes e2e/output/zoo.md and zoo.json: per task the baseline's and Tandem's result, per library the totals.
 */
import { parseArgs } from 'node:util'
import { buildTandemIfMissing } from '../corpus/build'
import { TASKS } from './tasks'
import { runZoo } from './zoo-run'

const { values } = parseArgs({ options: { only: { type: 'string' }, 'baseline-only': { type: 'boolean' }, timeout: { type: 'string' }, quiet: { type: 'boolean' } } })
const tandem = !values['baseline-only']
if (tandem) buildTandemIfMissing()
const tasks = values.only ? TASKS.filter((t) => values.only!.split(',').some((part) => t.id.includes(part))) : TASKS
const { summary: s, seconds } = await runZoo({ tasks, tandem, timeoutMs: values.timeout ? Number(values.timeout) : undefined, log: values.quiet ? undefined : (line) => console.log(line) })
console.log(`\n${s.tasks} tasks in ${seconds.toFixed(0)} s`)
console.log(`baseline ${s.baseline}/${s.tasks}`)
if (tandem) console.log(`tandem ${s.pass + s.secondLook}/${s.tasks} reached the goal: ${s.pass} with no second look, ${s.secondLook} needed one, ${s.fail} failed`)
if (tandem) console.log(`asked beyond each task's goal write: ${s.harmless.asks} over ${s.harmless.steps} steps (${s.harmless.per100.toFixed(1)} per 100)`)
if (tandem) console.log(`solved by the baseline, not cleanly by Tandem: ${s.owed.join(', ') || 'none'}`)
if (tandem) console.log(`said SUCCEEDED while the site's log says otherwise: ${s.untrue.join(', ') || 'none'}`)
console.log('report: e2e/output/zoo.md')
