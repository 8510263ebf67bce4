import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { figures, unrecovered, writeFigures } from './support/faults/figures'
import { runOutage } from './support/faults/outage'
import { startFaultProxy, type FaultProxy } from './support/faults/proxy'
import { routeThroughProxy, type FaultRig } from './support/faults/rig'
import { runOne, type RunRecord } from './support/faults/run-one'
import { coverFromEnv, coverRuns, faultName, onlyFromEnv, planRuns, runsFromEnv, seedFromEnv } from './support/faults/schedule'
import { useHarness } from './support/use-harness'

const h = useHarness()
const rig = { h } as FaultRig
const seed = seedFromEnv()
const tail = runsFromEnv()
const cover = coverFromEnv()
const plans = onlyFromEnv(planRuns(seed, tail, cover))
// The first line of the file's output, so a red CI log always names the seed that replays its tail.
console.log(
  `fault injection: seed ${seed} (TANDEM_FAULT_SEED=${seed} replays the tail), ` +
    `${cover ? `the cover (${coverRuns().length} runs) then ` : ''}a random tail of ${tail} runs; ${plans.length} runs after TANDEM_FAULT_ONLY`,
)
const outageMs = Number(process.env.TANDEM_FAULT_OUTAGE_MS ?? 60_000)
const records: RunRecord[] = []
const started = Date.now()

beforeAll(async () => {
  // Every call of the extension goes through the proxy, where a fault can hold, drop or refuse it.
  rig.proxy = await startFaultProxy(() => h.server.url)
  await routeThroughProxy(rig)
})

afterAll(async () => {
  const text = figures(records, { seed, cover, tail }, Date.now() - started)
  console.log(text)
  writeFigures(resolve('e2e/output/faults.md'), text)
  await (rig.proxy as FaultProxy | undefined)?.close()
})

/** Every violation of the runs, one line each, so a failure names the run, its seed and what broke. */
const violations = (runs: RunRecord[]) =>
  runs.flatMap((r) => {
    const v = r.verdict
    const found = [...v.doubles, ...v.lost, ...v.audit, ...v.replies, ...(v.status === 'STUCK' ? ['stuck'] : [])]
    if (r.misplaced) found.push(`fault not placed: ${r.misplaced}`)
    if (unrecovered(r)) found.push(`ended ${v.status}`)
    return found.map((p) => `seed ${seed} run ${r.plan.index} ${faultName(r.plan)} @${r.plan.seq}: ${p}`)
  })

describe('faults struck while a task runs: every kind at every phase and seq that matters, then at random', () => {
  it(
    `${plans.length} runs: no action runs twice, no acknowledged audit event is lost, no task is left stuck`,
    async () => {
      for (const plan of plans) {
        const record = await runOne(rig, plan)
        records.push(record)
        const found = violations([record])
        if (found.length || process.env.TANDEM_E2E_TRACE) console.log(`run ${plan.index} ${faultName(plan)} @${plan.seq}: ${record.verdict.status} (${record.ms} ms) ${found.join('; ')}`)
      }
      expect(violations(records)).toEqual([])
    },
    // Each run bounds its own waits; this only stops a file that went wrong in a way no run foresaw.
    plans.length * 90_000 + 120_000,
  )

  it(
    'the server unreachable for a minute: the extension comes back by itself and finishes the task',
    async () => {
      // An index no run of the schedule has, so its page's hits are its own.
      const record = await runOutage(rig, coverRuns().length + tail, outageMs)
      records.push(record)
      expect(violations([record])).toEqual([])
    },
    outageMs + 300_000,
  )
})
