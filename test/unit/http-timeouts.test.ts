import { describe, expect, it } from 'vitest'
import { httpTimeoutsOf } from '../../server/lib/config'

describe('the bounds on a connection', () => {
  it('default to 15 s for headers, 60 s for a request and 5 s idle, checked every second', () => {
    expect(httpTimeoutsOf({})).toEqual({ headersTimeoutMs: 15_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, checkIntervalMs: 1_000 })
  })

  it('keep the headers bound within the request bound, as Node requires, and check small bounds more often', () => {
    expect(httpTimeoutsOf({ TANDEM_HEADERS_TIMEOUT_MS: '90000', TANDEM_REQUEST_TIMEOUT_MS: '30000' })).toMatchObject({ headersTimeoutMs: 30_000, requestTimeoutMs: 30_000 })
    expect(httpTimeoutsOf({ TANDEM_HEADERS_TIMEOUT_MS: '2000' }).checkIntervalMs).toBe(500)
    expect(httpTimeoutsOf({ TANDEM_HEADERS_TIMEOUT_MS: 'soon', TANDEM_KEEP_ALIVE_TIMEOUT_MS: '-1' })).toMatchObject({ headersTimeoutMs: 15_000, keepAliveTimeoutMs: 5_000 })
  })
})
