/**
 * npm run apps [-- --only <id part>[,<id part>…]] [--baseline-only] [--timeout <ms>] [--quiet]
 * Writes e2e/output/apps.md and apps.json: per app and task the baseline's and Tandem's result, per app the totals.
 */
import { parseArgs } from 'node:util'
import { buildTandemIfMissing } from '../corpus/build'
import { runApps } from './apps-run'
import { TASKS } from './tasks'

const { values } = parseArgs({ options: { only: { type: 'string' }, 'baseline-only': { type: 'boolean' }, timeout: { type: 'string' }, quiet: { type: 'boolean' } } })
const tandem = !values['baseline-only']
if (tandem) buildTandemIfMissing()
const tasks = values.only ? TASKS.filter((t) => values.only!.split(',').some((part) => t.id.includes(part))) : TASKS
const { summary: s, seconds } = await runApps({ tasks, tandem, timeoutMs: values.timeout ? Number(values.timeout) : undefined, log: values.quiet ? undefined : (line) => console.log(line) })
console.log(`\n${s.tasks} tasks in ${seconds.toFixed(0)} s`)
console.log(`baseline ${s.baseline}/${s.tasks}`)
if (tandem) {
  console.log(`tandem ${s.pass + s.secondLook}/${s.tasks} reached the goal: ${s.pass} with no second look, ${s.secondLook} needed one, ${s.fail} failed, ${s.unsupported} need an action Tandem does not have`)
  console.log(`questions asked: ${s.asked}, beyond each task's own write: ${s.needless}${s.overAsked.length ? ` (${s.overAsked.join(', ')})` : ''}`)
  for (const [app, t] of Object.entries(s.byApp)) console.log(`  ${app.padEnd(24)} ${t.pass + t.secondLook}/${t.tasks} (baseline ${t.baseline})`)
  console.log(`said SUCCEEDED while the page's state says otherwise: ${s.untrue.join(', ') || 'none'}`)
  console.log(`steps reported without effect (ACTION_NO_EFFECT): ${s.noEffect.join(', ') || 'none'}`)
}
console.log('report: e2e/output/apps.md')
