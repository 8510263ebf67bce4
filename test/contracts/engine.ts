import { afterAll, beforeAll } from 'vitest'
import { agent } from '../support/agent'
import type { TestServer } from '../support/server'
import { testEngineControl } from './engine-control'
import { testEngineHeld } from './engine-held'
import { testEngineTasks } from './engine-tasks'

export interface EngineBackend {
  /** A real server process over the store under test. */
  start(): Promise<TestServer>
  /** Every observation the store keeps, as stored, to check what reached it. */
  storedObservations(server: TestServer): Promise<string[]>
}

/** What the suites share: filled in before the first test runs. */
export interface EngineContext {
  backend: EngineBackend
  server: TestServer
  a: ReturnType<typeof agent>
}

/** The engine's behaviour over HTTP, whatever store the server keeps its tasks in. */
export function testEngine(backend: EngineBackend) {
  const ctx = { backend } as EngineContext
  beforeAll(async () => {
    ctx.server = await backend.start()
    ctx.a = agent(ctx.server)
  })
  afterAll(() => ctx.server?.close())
  testEngineTasks(ctx)
  testEngineControl(ctx)
  testEngineHeld(ctx)
}
