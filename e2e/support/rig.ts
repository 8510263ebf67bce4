/**
 * What a corpus of planned tasks runs on: the built server and the production extension in Chromium (Tandem), a
 * plain Chromium (the baseline) and the scripted model. Corpora that share an e2e file share one rig, so a second
 * corpus costs its tasks, not two more browser start-ups; each corpus gives the model its plan while it runs.
 */
import { startFakeLlm, type FakeLlm, type FakeRule } from '../../test/support/fake-llm'
import { startHarness, type Harness } from './harness'
import { startPlainBaseline, type PlainBaseline } from './plain-baseline'

export interface Rig {
  /** Absent when only the baseline runs. */
  h?: Harness
  plain: PlainBaseline
  llm: FakeLlm
  /** The plan the model answers from until the next call. */
  plan(rule: FakeRule): void
  close(): Promise<void>
}

export async function startRig(options: { tandem?: boolean; env?: Record<string, string> } = {}): Promise<Rig> {
  let current: FakeRule = () => undefined
  const llm = await startFakeLlm((r, i) => current(r, i))
  const plain = await startPlainBaseline()
  const h = options.tandem === false ? undefined : await startHarness({ env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-planner', ...options.env } })
  return {
    h,
    plain,
    llm,
    plan: (rule) => void (current = rule),
    async close() {
      const closing = Promise.allSettled([h?.close(), plain.close(), llm.close()])
      await Promise.race([closing, new Promise((r) => setTimeout(r, 15_000))])
    },
  }
}

/** The rig given, or one of its own that `done` closes. */
export async function rigFor(given: Rig | undefined, options: Parameters<typeof startRig>[0]): Promise<{ rig: Rig; done(): Promise<void> }> {
  if (given) return { rig: given, done: async () => undefined }
  const rig = await startRig(options)
  return { rig, done: () => rig.close() }
}
