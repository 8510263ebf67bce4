import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { StartOptions } from '../../test/support/server'
import type { LaunchOptions } from './browser'
import { startHarness, type Harness } from './harness'

export interface UseHarnessOptions {
  /** How to start the server; a function when the options are only known once earlier hooks have run. */
  server?: StartOptions | (() => StartOptions)
  /** Give every test a fresh fixture site. */
  resetSite?: boolean
  /** How to start the browser. */
  browser?: LaunchOptions
}

/**
 * One harness for a test file: started before its tests, closed after them. The returned object is filled in when
 * the harness has started, so the file can hold it in a constant.
 */
export function useHarness({ server = {}, resetSite = false, browser = {} }: UseHarnessOptions = {}): Harness {
  const h = {} as Harness
  beforeAll(async () => {
    Object.assign(h, await startHarness(typeof server === 'function' ? server() : server, browser))
  })
  afterAll(async () => h.close?.())
  if (resetSite) beforeEach(() => h.site.reset())
  return h
}
