import { createReadStream, promises as fsp } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { AuditEventInput, AuditTaskId, type AuditEvent, type ChainHead } from '#protocol'
import { canonicalJson, checkLine, MAX_LINE_BYTES, nextEvent, parseEvents, toJsonData } from './chain'
import { syncDir, writeAll } from './durable'
import { AuditError } from './errors'

export interface AuditLogOptions {
  /** The audit root: each task gets `<dir>/<taskId>/events.jsonl`. */
  dir: string
  /** fdatasync each write before acknowledging it. Turn off only where losing the tail on power loss is fine (tests). */
  fsync?: boolean
  now?: () => Date
}

/** A consistent prefix of a task's log: `bytes` bytes of `path` hold exactly the events up to `head`. */
export interface AuditSnapshot {
  path: string
  bytes: number
  head: ChainHead | null
}

export interface AuditLog {
  /** Resolves once the event is on disk (and fdatasync'ed when fsync is on). Appends to one task keep call order. */
  append(taskId: string, input: AuditEventInput): Promise<AuditEvent>
  /** Several events in one write and one fdatasync, in order. */
  appendMany(taskId: string, inputs: AuditEventInput[]): Promise<AuditEvent[]>
  read(taskId: string): Promise<AuditEvent[]>
  /** The acknowledged lines of events.jsonl; a torn line left by a crash is not included. '' for an unknown task. */
  readRaw(taskId: string): Promise<string>
  exists(taskId: string): Promise<boolean>
  head(taskId: string): Promise<ChainHead | null>
  snapshot(taskId: string): Promise<AuditSnapshot>
  taskDir(taskId: string): string
}

/** What the log knows about one task's file. */
interface TaskFile {
  exists: boolean
  /** Bytes of complete lines. */
  size: number
  /** Bytes on disk; more than `size` when a crash left a torn line, which is cut before the next append. */
  fileSize: number
  head: ChainHead | null
  /** Why the last complete line does not verify: reading still works, appending is refused. */
  corrupt?: string
}

interface Prepared {
  type: string
  actionId?: string
  data: Record<string, unknown>
}

interface Job {
  entries: Prepared[]
  resolve(events: AuditEvent[]): void
  reject(error: unknown): void
}

const SCAN_CHUNK = 64 * 1024

export function assertTaskId(taskId: string): void {
  if (!AuditTaskId.safeParse(taskId).success) {
    throw new AuditError('BAD_REQUEST', 'A task id is 1–128 letters, digits, _ or -.')
  }
}

function prepare(input: AuditEventInput): Prepared {
  const parsed = AuditEventInput.safeParse(input)
  if (!parsed.success) throw new AuditError('BAD_REQUEST', `Not a valid audit event: ${parsed.error.issues[0]?.message}.`)
  // The caller's object, not zod's copy: zod's record rebuild would drop keys such as "__proto__".
  const data = toJsonData(input.data)
  if (Buffer.byteLength(canonicalJson(data)) > MAX_LINE_BYTES - 4096) {
    throw new AuditError('PAYLOAD_TOO_LARGE', `Audit event data is larger than ${MAX_LINE_BYTES - 4096} bytes.`)
  }
  return { type: parsed.data.type, ...(parsed.data.actionId ? { actionId: parsed.data.actionId } : {}), data }
}

async function readAt(fh: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  let done = 0
  while (done < length) {
    const { bytesRead } = await fh.read(buffer, done, length - done, position + done)
    if (bytesRead === 0) throw new AuditError('INTERNAL', 'The audit log shrank while it was being read.')
    done += bytesRead
  }
  return buffer
}

/** Position of the last newline before `end`, or -1. Reads backwards so a long log costs one line, not the file. */
async function lastNewline(fh: FileHandle, end: number): Promise<number> {
  let to = end
  while (to > 0) {
    const from = Math.max(0, to - SCAN_CHUNK)
    const at = (await readAt(fh, to - from, from)).lastIndexOf(0x0a)
    if (at !== -1) return from + at
    to = from
  }
  return -1
}

async function sha256OfRange(path: string, start: number, end: number): Promise<string> {
  const hash = createHash('sha256')
  if (end > start) for await (const chunk of createReadStream(path, { start, end: end - 1 })) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function loadTaskFile(taskId: string, path: string): Promise<TaskFile> {
  let fh: FileHandle
  try {
    fh = await fsp.open(path, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, size: 0, fileSize: 0, head: null }
    throw error
  }
  try {
    const { size: fileSize } = await fh.stat()
    const last = await lastNewline(fh, fileSize)
    const size = last + 1
    if (fileSize - size > MAX_LINE_BYTES + 1) {
      throw new AuditError('INTERNAL', `The audit log of task ${taskId} ends in ${fileSize - size} bytes without a newline; it is not an audit log.`)
    }
    if (size === 0) return { exists: true, size, fileSize, head: null }
    const start = (await lastNewline(fh, last)) + 1
    const checked = last - start > MAX_LINE_BYTES ? { ok: false as const, reason: 'line too long' } : checkLine((await readAt(fh, last - start, start)).toString('utf8'))
    if (!checked.ok || checked.event.taskId !== taskId) {
      return { exists: true, size, fileSize, head: null, corrupt: checked.ok ? 'it belongs to another task' : checked.reason }
    }
    return { exists: true, size, fileSize, head: { seq: checked.event.seq, hash: checked.event.hash } }
  } finally {
    await fh.close()
  }
}

export function createAuditLog({ dir, fsync = true, now = () => new Date() }: AuditLogOptions): AuditLog {
  const files = new Map<string, Promise<TaskFile>>()
  const queues = new Map<string, Job[]>()
  const taskDir = (taskId: string) => join(dir, taskId)
  const eventsPath = (taskId: string) => join(dir, taskId, 'events.jsonl')

  /** Whether the cached state still describes the file: another server sharing the audit dir may have appended. */
  async function stillCurrent(taskId: string, cached: Promise<TaskFile>): Promise<boolean> {
    let file: TaskFile
    try {
      file = await cached
    } catch {
      return false
    }
    try {
      return file.exists && (await fsp.stat(eventsPath(taskId))).size === file.fileSize
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return !file.exists
      throw error
    }
  }

  /**
   * The state of a task's file, cached and checked against the file's size on each use. Readers cache only a sound
   * file that exists and is not mid-write, so probing unknown ids costs no memory; the writer caches before it
   * writes, so no reader can cache a half-written state.
   */
  async function fileOf(taskId: string, forWrite = false): Promise<TaskFile> {
    const cached = files.get(taskId)
    // While this process appends to the task it holds the task's lock, so no other server is appending: the
    // cache is current, and the file may hold half of our own batch, which a reader must not load.
    if (cached && ((!forWrite && queues.has(taskId)) || (await stillCurrent(taskId, cached)))) return cached
    const loading = loadTaskFile(taskId, eventsPath(taskId))
    if (forWrite) {
      files.set(taskId, loading)
      loading.catch(() => files.get(taskId) === loading && files.delete(taskId))
    } else {
      loading.then(
        (file) => {
          const sound = file.exists && !file.corrupt && file.fileSize === file.size
          if (sound && files.get(taskId) === cached && !queues.has(taskId)) files.set(taskId, loading)
          else if (!sound && cached && files.get(taskId) === cached && !queues.has(taskId)) files.delete(taskId)
        },
        () => {},
      )
    }
    return loading
  }

  async function writeBatch(taskId: string, entries: Prepared[]): Promise<AuditEvent[]> {
    const file = await fileOf(taskId, true)
    const path = eventsPath(taskId)
    if (file.corrupt) {
      // Extending a chain whose end does not verify would bury the damage under valid-looking events.
      throw new AuditError(
        'INTERNAL',
        `The audit log of task ${taskId} ends in a line that does not verify (${file.corrupt}); ` +
          'check it with "npm run audit:verify" and move it aside before recording more.',
      )
    }
    let head = file.head
    const lines: string[] = []
    const add = (entry: Prepared) => {
      const { event, line } = nextEvent(head, { ts: now().toISOString(), taskId, ...entry })
      head = { seq: event.seq, hash: event.hash }
      lines.push(line)
      return event
    }

    if (file.fileSize > file.size) {
      // A crash interrupted a write: those bytes were never acknowledged, so they are not part of the record.
      // Cut them, and say so in the chain, with their hash for anyone who kept a copy.
      const discardedSha256 = await sha256OfRange(path, file.size, file.fileSize)
      const fh = await fsp.open(path, 'r+')
      try {
        await fh.truncate(file.size)
        if (fsync) await fh.datasync()
      } finally {
        await fh.close()
      }
      add({ type: 'audit.recovered', data: { discardedBytes: file.fileSize - file.size, discardedSha256, cause: 'torn last line' } })
      file.fileSize = file.size
    }

    const events = entries.map(add)
    const buffer = Buffer.from(lines.join('\n') + '\n', 'utf8')
    const created = !file.exists
    if (created) await fsp.mkdir(taskDir(taskId), { recursive: true, mode: 0o700 })
    const fh = await fsp.open(path, 'a', 0o600)
    try {
      await writeAll(fh, buffer)
      if (fsync) await fh.datasync()
    } finally {
      await fh.close()
    }
    if (created && fsync) {
      await syncDir(taskDir(taskId))
      await syncDir(dir)
    }
    file.exists = true
    file.size += buffer.length
    file.fileSize = file.size
    file.head = head
    return events
  }

  /** One writer per task; appends that queue up while a write is in flight share the next write and fdatasync. */
  async function drain(taskId: string, queue: Job[]) {
    while (queue.length) {
      const batch = queue.splice(0, queue.length)
      try {
        const events = await writeBatch(taskId, batch.flatMap((job) => job.entries))
        let at = 0
        for (const job of batch) job.resolve(events.slice(at, (at += job.entries.length)))
      } catch (error) {
        // What reached the disk is unknown (or the file needs a person): read it back from the file next time.
        files.delete(taskId)
        for (const job of batch) job.reject(error)
      }
    }
    queues.delete(taskId)
  }

  function appendMany(taskId: string, inputs: AuditEventInput[]): Promise<AuditEvent[]> {
    let entries: Prepared[]
    try {
      assertTaskId(taskId)
      entries = inputs.map(prepare)
    } catch (error) {
      return Promise.reject(error)
    }
    if (!entries.length) return Promise.resolve([])
    return new Promise((resolve, reject) => {
      const job = { entries, resolve, reject }
      const queue = queues.get(taskId)
      if (queue) return void queue.push(job)
      const fresh = [job]
      queues.set(taskId, fresh)
      void drain(taskId, fresh)
    })
  }

  async function readRaw(taskId: string): Promise<string> {
    assertTaskId(taskId)
    const file = await fileOf(taskId)
    const size = file.size // complete, acknowledged lines only; never changes under an append
    if (!file.exists || size === 0) return ''
    const fh = await fsp.open(eventsPath(taskId), 'r')
    try {
      return (await readAt(fh, size, 0)).toString('utf8')
    } finally {
      await fh.close()
    }
  }

  return {
    append: (taskId, input) => appendMany(taskId, [input]).then((events) => events[0]!),
    appendMany,
    readRaw,
    read: async (taskId) => parseEvents(await readRaw(taskId)),
    async exists(taskId) {
      assertTaskId(taskId)
      return (await fileOf(taskId)).exists
    },
    async head(taskId) {
      assertTaskId(taskId)
      return (await fileOf(taskId)).head
    },
    async snapshot(taskId) {
      assertTaskId(taskId)
      const { size, head } = await fileOf(taskId)
      return { path: eventsPath(taskId), bytes: size, head }
    },
    taskDir(taskId) {
      assertTaskId(taskId)
      return taskDir(taskId)
    },
  }
}
