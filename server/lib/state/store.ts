import type { Storage } from 'unstorage'
import type { Observation } from '#protocol'
import { isTerminal } from '#protocol'
import { notFound } from '../http/errors'
import type { TaskStore } from '../tasks/deps'
import type { TaskRecord } from '../tasks/task-record'
import { createKeyedMutex, type WithLock } from './keyed-mutex'

const taskKey = (id: string) => `tasks:${id}`
const observationKey = (id: string) => `observations:${id}`
const stagedKey = (id: string) => `staged:${id}`

/** Ids of unfinished tasks, so polls do not scan every task ever run. */
export interface ActiveIndex {
  list(): Promise<string[]>
  add(taskId: string): Promise<void>
  remove(taskId: string): Promise<void>
}

export interface TaskStoreOptions {
  /** Per-task lock; the default is in-process (one server). Several servers need a shared one. */
  withLock?: WithLock
  /** Keep what was read or written in memory. Only safe when this process is the storage's one writer. */
  cache?: boolean
  /** Where unfinished tasks are listed; the default is this process's memory, built from every task once. */
  activeIndex?: ActiveIndex
}

function createMemoryActiveIndex(loadAll: () => Promise<TaskRecord[]>): ActiveIndex {
  let ids: Promise<Set<string>> | undefined
  const known = () =>
    (ids ??= loadAll().then(
      (tasks) => new Set(tasks.filter((t) => !isTerminal(t.status)).map((t) => t.id)),
      (error: unknown) => {
        ids = undefined // a failed scan is tried again by the next caller
        throw error
      },
    ))
  return {
    list: async () => [...(await known())],
    async add(taskId) {
      if (ids) (await ids).add(taskId)
    },
    async remove(taskId) {
      if (ids) (await ids).delete(taskId)
    },
  }
}

export function createTaskStore(storage: Storage, options: TaskStoreOptions = {}): TaskStore {
  const withLock = options.withLock ?? createKeyedMutex()
  const cache = options.cache ? new Map<string, unknown>() : undefined
  const read = async <T>(key: string): Promise<T | null> => {
    if (cache?.has(key)) return cache.get(key) as T
    const value = ((await storage.getItem<T>(key)) ?? null) as T | null
    if (value) cache?.set(key, value)
    return value
  }
  const write = async (key: string, value: unknown) => {
    await storage.setItem(key, value as never)
    cache?.set(key, value)
  }
  // Callers treat what get() returns as read-only; update() hands its callback a copy.
  const get = (taskId: string) => read<TaskRecord>(taskKey(taskId))
  const loadAll = async () => {
    const keys = await storage.getKeys('tasks')
    const tasks = await Promise.all(keys.map((k) => read<TaskRecord>(k)))
    return tasks.filter((t): t is TaskRecord => !!t && typeof t === 'object' && 'id' in t)
  }
  const active = options.activeIndex ?? createMemoryActiveIndex(loadAll)
  // Listed before it is saved, unlisted after: a crash in between leaves an extra id (filtered out), never a lost task.
  const save = async (task: TaskRecord) => {
    if (isTerminal(task.status)) {
      await write(taskKey(task.id), task)
      await active.remove(task.id)
    } else {
      await active.add(task.id)
      await write(taskKey(task.id), task)
    }
  }

  return {
    async create(task) {
      await withLock(task.id, () => save(task))
    },
    get,
    update(taskId, change) {
      return withLock(taskId, async () => {
        const task = await get(taskId)
        if (!task) throw notFound(`No task ${taskId}.`)
        const { task: next, result } = await change(structuredClone(task))
        if (next) {
          next.rev = task.rev + 1
          next.updatedAt = new Date().toISOString()
          await save(next)
        }
        return result
      })
    },
    // Straight to storage: a staged record only matters to the next process.
    stage: (task) => storage.setItem(stagedKey(task.id), task as never),
    staged: async (taskId) => ((await storage.getItem<TaskRecord>(stagedKey(taskId))) ?? null) as TaskRecord | null,
    list: loadAll,
    async listActive() {
      const tasks = await Promise.all((await active.list()).map(get))
      return tasks.filter((t): t is TaskRecord => !!t && !isTerminal(t.status))
    },
    getObservation: (taskId) => read<Observation>(observationKey(taskId)),
    setObservation: (taskId, observation) => write(observationKey(taskId), observation),
  }
}
