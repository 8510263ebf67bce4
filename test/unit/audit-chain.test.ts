import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AuditEvent, GENESIS_HASH, type ChainHead } from '#protocol'
import { canonicalJson, nextEvent, parseEvents, sealEvent, sha256Hex, verifyChain, verifyChainStream } from '../../server/lib/audit/chain'

function buildChain(count: number, taskId = 'task-1'): { lines: string[]; events: AuditEvent[] } {
  let head: ChainHead | null = null
  const lines: string[] = []
  const events: AuditEvent[] = []
  for (let i = 0; i < count; i++) {
    const { event, line } = nextEvent(head, {
      ts: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
      taskId,
      type: i % 2 ? 'observation' : 'action.proposed',
      ...(i % 2 ? { actionId: `a${i}` } : {}),
      data: { i, url: `https://shop.example/${i}`, nested: { z: [1, 'two', null], a: true }, text: '下单 ✓' },
    })
    head = { seq: event.seq, hash: event.hash }
    lines.push(line)
    events.push(event)
  }
  return { lines, events }
}

const join = (lines: string[]) => lines.map((l) => l + '\n').join('')

/** Re-seals an edited event so its own hash is right again: only the chain can catch it then. */
function reseal(line: string, change: (e: AuditEvent) => AuditEvent): string {
  const { hash: _, ...rest } = change(JSON.parse(line))
  return sealEvent(rest).line
}

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: 'é' } })).toBe('{"a":{"c":"é","d":[3,{"x":2,"y":1}]},"b":1}')
  })

  it('gives the same text for the same value whatever the key order it was built in', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reparsed = JSON.parse(JSON.stringify(value))
        const shuffled = JSON.parse(JSON.stringify(reparsed, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)))
        expect(canonicalJson(shuffled)).toBe(canonicalJson(reparsed))
        expect(JSON.parse(canonicalJson(reparsed))).toEqual(reparsed)
      }),
    )
  })

  it('refuses values that would not survive a JSON round trip', () => {
    expect(() => canonicalJson({ a: undefined })).toThrow()
    expect(() => canonicalJson({ a: Number.NaN })).toThrow()
    expect(() => canonicalJson(new Date())).toThrow()
  })
})

describe('verifyChain', () => {
  const { lines, events } = buildChain(6)
  const good = join(lines)

  it('accepts an intact chain and reports its head', () => {
    const result = verifyChain(good)
    expect(result).toEqual({ ok: true, count: 6, head: { seq: 6, hash: events[5]!.hash } })
    expect(events[0]!.prevHash).toBe(GENESIS_HASH)
    expect(events[1]!.prevHash).toBe(events[0]!.hash)
  })

  it('hashes the canonical JSON of the event without its hash', () => {
    const { hash, ...rest } = events[2]!
    const text = `{"seq":3,"ts":${JSON.stringify(rest.ts)},"taskId":"task-1","type":"action.proposed","data":${canonicalJson(rest.data)},"prevHash":"${rest.prevHash}"}`
    expect(hash).toBe(sha256Hex(text))
    expect(lines[2]).toBe(text.slice(0, -1) + `,"hash":"${hash}"}`)
  })

  it('accepts an empty log', () => {
    expect(verifyChain('')).toEqual({ ok: true, count: 0, head: null })
  })

  const edit = (i: number, line: string) => lines.map((l, j) => (j === i ? line : l))
  it.each<[string, string, number, RegExp]>([
    ['an edited value', join(edit(2, lines[2]!.replace('"i":2', '"i":7'))), 3, /hash does not match/],
    ['an edited value with its hash recomputed', join(edit(2, reseal(lines[2]!, (e) => ({ ...e, data: { ...e.data, i: 7 } })))), 4, /prevHash does not match the hash of line 3/],
    ['a dropped line', join(lines.filter((_, i) => i !== 2)), 3, /seq 4 where 3 was expected/],
    ['two lines swapped', join([lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)]), 2, /seq 3 where 2 was expected/],
    ['a duplicated line', join([...lines.slice(0, 3), lines[2]!, ...lines.slice(3)]), 4, /seq 3 where 4 was expected/],
    ['a bad seq, resealed', join(edit(3, reseal(lines[3]!, (e) => ({ ...e, seq: 9 })))), 4, /seq 9 where 4 was expected/],
    ['a broken prevHash link, resealed', join(edit(3, reseal(lines[3]!, (e) => ({ ...e, prevHash: GENESIS_HASH })))), 4, /prevHash does not match/],
    ['a first event that does not start at genesis', join(edit(0, reseal(lines[0]!, (e) => ({ ...e, prevHash: 'f'.repeat(64) })))), 1, /genesis/],
    ['a line that is not JSON', join(edit(4, '{"seq":5,')), 5, /not JSON/],
    ['an empty line', join([...lines.slice(0, 2), '', ...lines.slice(2)]), 3, /empty line/],
    ['a torn last line', good + lines[0]!.slice(0, 40), 7, /torn/],
    ['a last line without its newline', good.slice(0, -1), 6, /torn/],
    ['a reformatted line', join(edit(1, JSON.stringify(JSON.parse(lines[1]!), null, 1).replace(/\n/g, ' '))), 2, /canonical form/],
    ['CRLF line endings', lines.map((l) => l + '\r\n').join(''), 1, /canonical form/],
    ['a unicode escape for a plain character', join(edit(1, lines[1]!.replace('"task-1"', '"task\\u002d1"'))), 2, /canonical form/],
    ['an added key', join(edit(1, lines[1]!.replace('{"seq":2,', '{"seq":2,"extra":1,'))), 2, /not an audit event/],
    ['a line spliced in from another task', join(edit(2, reseal(lines[2]!, (e) => ({ ...e, taskId: 'task-2' })))), 3, /hash of line|taskId/],
    ['a wrong type for a field', join(edit(0, lines[0]!.replace('"seq":1', '"seq":"1"'))), 1, /not an audit event/],
  ])('catches %s', (_name, jsonl, line, reason) => {
    const result = verifyChain(jsonl)
    expect(result.ok).toBe(false)
    expect(result.problem?.line).toBe(line)
    expect(result.problem?.reason).toMatch(reason)
    expect(result.count).toBe(line - 1)
  })

  it('catches a change of any single character anywhere', () => {
    fc.assert(
      fc.property(fc.nat(good.length - 1), fc.integer({ min: 32, max: 0x3000 }), (at, code) => {
        const replacement = String.fromCharCode(code)
        fc.pre(good[at] !== replacement)
        const tampered = good.slice(0, at) + replacement + good.slice(at + 1)
        const result = verifyChain(tampered)
        expect(result.ok).toBe(false)
        const lineOfChange = good.slice(0, at).split('\n').length
        expect(result.problem!.line).toBeLessThanOrEqual(lineOfChange + 1)
      }),
      { numRuns: 500 },
    )
  })

  it('reports a cut inside a line as torn, and a cut at a line end as a shorter chain with another head', () => {
    fc.assert(
      fc.property(fc.nat(good.length - 1), (at) => {
        const cut = good.slice(0, at)
        const result = verifyChain(cut)
        if (at === 0 || good[at - 1] === '\n') {
          expect(result.ok).toBe(true)
          expect(result.head?.hash).not.toBe(events[5]!.hash)
        } else {
          expect(result.problem?.reason).toMatch(/torn/)
        }
      }),
    )
  })

  it('gives the same verdict streamed in chunks of any size', async () => {
    const tampered = join(edit(3, lines[3]!.replace('shop', 'shap')))
    for (const input of [good, tampered, good + '{"torn"']) {
      const bytes = Buffer.from(input)
      for (const size of [1, 7, 64, 4096]) {
        async function* chunks() {
          for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
        }
        expect(await verifyChainStream(chunks())).toEqual(verifyChain(input))
      }
    }
  })

  it('hands each verified event to onEvent, in order, and stops at the first bad one', () => {
    const seen: number[] = []
    verifyChain(join(edit(3, 'nope')), (e) => seen.push(e.seq))
    expect(seen).toEqual([1, 2, 3])
  })
})

describe('parseEvents', () => {
  it('returns the complete events and leaves out a torn tail', () => {
    const { lines, events } = buildChain(3)
    expect(parseEvents(join(lines) + lines[0]!.slice(0, 10))).toEqual(events)
  })
})
