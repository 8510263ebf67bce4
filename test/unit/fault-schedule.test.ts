import { afterEach, describe, expect, it } from 'vitest'
import { coverRuns, FAULTS, HUNG_CALLS, onlyFromEnv, planRuns, seqsOf, tailRuns } from '../../e2e/support/faults/schedule'

const key = (p: { kind: string; phase: string; call?: string; seq: number }) => `${p.kind}:${p.phase}:${p.call ?? ''}@${p.seq}`

describe('the fault schedule', () => {
  afterEach(() => {
    delete process.env.TANDEM_FAULT_ONLY
  })

  it('covers every kind × phase (× call) × seq a tail can draw, each once, in the same order every time', () => {
    const cover = coverRuns()
    expect(cover.map(key)).toEqual(coverRuns().map(key))
    expect(new Set(cover.map(key)).size).toBe(cover.length)
    for (const [kind, phases] of Object.entries(FAULTS) as [keyof typeof FAULTS, readonly string[]][]) {
      for (const phase of phases) {
        for (const call of kind === 'hung' ? HUNG_CALLS : [undefined]) {
          const covered = cover.filter((p) => p.kind === kind && p.phase === phase && p.call === call)
          expect(covered.length, `${kind} · ${phase} ${call ?? ''}`).toBeGreaterThan(0)
          // A phase whose seq is unused is run once; every other at each of its seqs.
          if (covered.length > 1) expect(covered.map((p) => p.seq)).toEqual(seqsOf(kind, phase as never, call))
        }
      }
    }
    // Whatever a tail draws, the cover has run.
    const covered = new Set(cover.map(key))
    for (const p of tailRuns(7, 500, cover.length)) {
      if (p.phase === 'replay-last' || p.phase === 'any-time') continue
      expect(covered.has(key(p)), key(p)).toBe(true)
    }
  })

  it('replays a tail from its seed, numbered after the cover with or without it', () => {
    const cover = coverRuns()
    const full = planRuns(42, 10)
    const tailOnly = planRuns(42, 10, false)
    expect(full.slice(cover.length)).toEqual(tailOnly)
    expect(tailOnly.map((p) => p.index)).toEqual(Array.from({ length: 10 }, (_, i) => cover.length + i))
    expect(planRuns(43, 10, false)).not.toEqual(tailOnly)
  })

  it('keeps the runs TANDEM_FAULT_ONLY names, by kind, phase and call', () => {
    const plans = planRuns(42, 30)
    process.env.TANDEM_FAULT_ONLY = 'hung:after-answer:report,duplicate-report:older-id'
    const kept = onlyFromEnv(plans)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.every((p) => (p.kind === 'hung' && p.phase === 'after-answer' && p.call === 'report') || (p.kind === 'duplicate-report' && p.phase === 'older-id'))).toBe(true)
    expect(kept.some((p) => p.kind === 'duplicate-report' && p.seq === 2)).toBe(true)
  })
})
