import { startFakeLlm } from '../../test/support/fake-llm'
import { startHarness } from '../support/harness'
import { buildCorpusPages } from './build'
import { CASES } from './cases'
import { corpusModel } from './model'
import { runCase } from './run-case'
import { startCorpusSite } from './site'

const ids = process.argv.slice(2)
const cases = CASES.filter((c) => ids.includes(c.id))
buildCorpusPages()
const model = corpusModel(cases)
const llm = await startFakeLlm(model.rule)
const site = await startCorpusSite(cases)
const h = await startHarness({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-corpus' } })
try {
  for (const c of cases) {
    model.reset(c.id)
    const r = await runCase(h, site, c, 'script', 30000)
    console.log(c.id, r.ms, r.status, r.steps.join(','), r.arrivals.join(','))
    const tasks = (await h.server.api('GET', '/api/agent/tasks')).body.data
    const taskId = (tasks.tasks ?? tasks)[0]?.taskId ?? (tasks.tasks ?? tasks)[0]?.id
    const events = (await h.server.api('GET', `/api/audit/${taskId}`)).body.data.events
    const t0 = Date.parse(events[0].ts)
    for (const e of events) console.log(String(Date.parse(e.ts) - t0).padStart(6), e.type, e.type === 'observation' ? JSON.stringify(e.data.timing) : e.type === 'action.proposed' ? e.data.action.type : '')
  }
} finally {
  await Promise.allSettled([h.close(), site.close(), llm.close()])
}
