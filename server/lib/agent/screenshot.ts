import type { ArtifactStore } from '../audit/artifacts'
import type { TaskRecord } from '../tasks/task-record'

// Artifact names start with the zero-padded step number, then the label (see the engine's report).
const NAME = /^(\d+)-(before|after|observation|screenshot)-/
// A 'before' picture shows the page the last action started from, not the one it left.
const PREFERENCE = ['after', 'observation', 'screenshot']
const MAX_BYTES = 4 * 1024 * 1024

/**
 * The screenshot of the page as the last step left it, as a data: URL, or undefined when that step took none:
 * an older picture would show the model a page that is no longer there. The extension masks credential fields.
 */
export async function latestScreenshot(store: Pick<ArtifactStore, 'list' | 'open'>, task: Pick<TaskRecord, 'id' | 'steps'>): Promise<string | undefined> {
  const step = task.steps.at(-1)
  if (!step) return undefined
  const candidates = (await store.list(task.id))
    .map((a) => ({ ...a, match: NAME.exec(a.name) }))
    .filter((a) => a.match && Number(a.match[1]) === step.seq && PREFERENCE.includes(a.match[2]) && a.bytes <= MAX_BYTES)
    .sort((a, b) => PREFERENCE.indexOf(a.match![2]) - PREFERENCE.indexOf(b.match![2]))
  const best = candidates[0]
  if (!best) return undefined
  const opened = await store.open(task.id, best.name)
  if (!opened) return undefined
  const chunks: Buffer[] = []
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer)
  return `data:${opened.contentType};base64,${Buffer.concat(chunks).toString('base64')}`
}
