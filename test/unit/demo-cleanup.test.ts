import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCleanup } from '../../scripts/demo/cleanup'

describe('demo cleanup', () => {
  it('points temporary folders into its root, stops pieces newest first, then removes the root and restores TMPDIR', async () => {
    const before = process.env.TMPDIR
    const cleanup = createCleanup('tandem-demo-unit-')
    try {
      expect(tmpdir()).toBe(cleanup.root)
      mkdirSync(join(tmpdir(), 'profile'))
      writeFileSync(join(tmpdir(), 'profile', 'state'), 'x')
      const order: string[] = []
      cleanup.add(
        () => order.push('server'),
        () => order.push('kill server'),
      )
      cleanup.add(async () => {
        order.push('browser')
        throw new Error('already gone')
      })
      await Promise.all([cleanup.run(), cleanup.run()])
      expect(order).toEqual(['browser', 'server', 'kill server'])
      expect(existsSync(cleanup.root)).toBe(false)
      expect(process.env.TMPDIR).toBe(before)

      // A piece that finishes starting after the stop is stopped at once.
      const late: string[] = []
      cleanup.add(
        () => late.push('close'),
        () => late.push('kill'),
      )
      await new Promise((r) => setTimeout(r, 10))
      expect(late).toEqual(['close', 'kill'])
    } finally {
      cleanup.killNow()
    }
  })

  it('kills what is left and removes the root synchronously on exit', () => {
    const cleanup = createCleanup('tandem-demo-unit-')
    const killed: string[] = []
    cleanup.add(
      () => new Promise(() => undefined),
      () => killed.push('server'),
    )
    cleanup.killNow()
    expect(killed).toEqual(['server'])
    expect(existsSync(cleanup.root)).toBe(false)
  })
})
