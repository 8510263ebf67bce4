import { randomBytes } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { AuditHeadSignature, type AuditEvent } from '#protocol'
import { syncDir } from './durable'
import type { AuditLog } from './log'
import { signHead, type Signer } from './signature'

/** Beside a task's events.jsonl: the server's signature over the chain's head when the task finished. */
export const HEAD_SIGNATURE_FILE = 'signature.json'

export interface HeadSigningOptions {
  /** Called at the first signature, so a log that never finishes a task never loads the key. */
  signer: () => Signer
  fsync?: boolean
  now?: () => Date
}

/** The task's signature.json, or null when it has none (or none that parses). */
export async function readHeadSignature(taskDir: string): Promise<AuditHeadSignature | null> {
  try {
    const parsed = AuditHeadSignature.safeParse(JSON.parse(await fsp.readFile(join(taskDir, HEAD_SIGNATURE_FILE), 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Written whole or not at all: a reader never sees half a signature. */
async function writeHeadSignature(taskDir: string, signature: AuditHeadSignature, fsync: boolean) {
  const file = join(taskDir, HEAD_SIGNATURE_FILE)
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  const fh = await fsp.open(temp, 'wx', 0o600)
  try {
    await fh.writeFile(JSON.stringify(signature, null, 2) + '\n')
    if (fsync) await fh.datasync()
  } finally {
    await fh.close()
  }
  await fsp.rename(temp, file)
  if (fsync) await syncDir(taskDir)
}

/**
 * The log, signing a task's head each time an append ends it (a `task.finished` among the events): the engine
 * records as it always has, and the signature lands in the task's folder before the append resolves. Events
 * appended later are not covered until the task finishes again; exports sign their own head.
 */
export function signingFinishedTasks(log: AuditLog, { signer, fsync = true, now = () => new Date() }: HeadSigningOptions): AuditLog {
  const writes = new Map<string, Promise<void>>()

  async function sign(taskId: string, last: AuditEvent) {
    const dir = log.taskDir(taskId)
    const existing = await readHeadSignature(dir)
    // Appends to one task keep order, but a slower signing must not put back an older head.
    if (existing && existing.seq >= last.seq) return
    await writeHeadSignature(dir, signHead(signer(), { taskId, seq: last.seq, hash: last.hash }, now()), fsync)
  }

  async function afterAppend(taskId: string, events: AuditEvent[]): Promise<AuditEvent[]> {
    const last = events.at(-1)
    if (!last || !events.some((e) => e.type === 'task.finished')) return events
    const previous = writes.get(taskId) ?? Promise.resolve()
    const current = previous.catch(() => undefined).then(() => sign(taskId, last))
    writes.set(taskId, current)
    try {
      await current
    } catch (error) {
      // The events are on disk already; a missing signature is told by audit:verify, not by losing the append.
      console.error(`[tandem] could not sign the audit of task ${taskId}`, error)
    } finally {
      if (writes.get(taskId) === current) writes.delete(taskId)
    }
    return events
  }

  return {
    ...log,
    append: async (taskId, input) => (await afterAppend(taskId, [await log.append(taskId, input)]))[0]!,
    appendMany: async (taskId, inputs) => afterAppend(taskId, await log.appendMany(taskId, inputs)),
  }
}
