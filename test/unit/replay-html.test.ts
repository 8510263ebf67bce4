import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuditEvent, VerifyResult } from '#protocol'
import { parseEvents } from '../../server/lib/audit/chain'
import type { ExportContext } from '../../server/lib/audit/export'
import { createAuditLog } from '../../server/lib/audit/log'
import { renderReplayHtml, scriptSafeJson } from '../../server/lib/audit/replay-html'
import { tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = tempDir()))
afterEach(() => cleanup())

const HOSTILE = 'Buy </script><script>alert(1)</script> <!-- & </SCRIPT > \u2028 done'
const assets = { script: 'var s = "</script>"; /* <!-- */ document.title = "x"', style: 'body{color:red} /* </style> */' }

function contextOf(events: AuditEvent[], pulled = { count: 0 }): ExportContext {
  return {
    taskId: 'task-1',
    exportedAt: new Date('2025-11-02T10:00:00.000Z'),
    snapshot: { path: '', bytes: 0, head: null } as unknown as ExportContext['snapshot'],
    artifacts: [],
    async *events() {
      for (const event of events) {
        pulled.count++
        yield event
      }
    },
    async *readArtifact() {},
  }
}

async function render(context: ExportContext) {
  let html = ''
  for await (const piece of renderReplayHtml(context, assets)) html += piece
  return html
}

/** The inline JSON blocks of the page, as the browser would hand their text to JSON.parse. */
const block = (html: string, id: string) => {
  const match = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)
  if (!match) throw new Error(`no ${id} block`)
  return JSON.parse(match[1]!)
}

async function logEvents() {
  const log = createAuditLog({ dir, fsync: false })
  await log.append('task-1', { type: 'task.created', data: { goal: HOSTILE } })
  await log.append('task-1', { type: 'observation', actionId: 'a1', data: { url: 'https://shop.example', title: HOSTILE, errors: [] } })
  await log.append('task-1', { type: 'task.finished', data: { status: 'SUCCEEDED' } })
  return parseEvents(await log.readRaw('task-1'))
}

describe('renderReplayHtml', () => {
  it('inlines the events so that page text cannot close the script, and they read back unchanged', async () => {
    const events = await logEvents()
    const html = await render(contextOf(events))
    // Exactly the page's own script elements: the hostile text opened none and closed none early.
    expect(html.match(/<script/gi)).toHaveLength(4)
    expect(html.match(/<\/script/gi)).toHaveLength(4)
    expect(html).not.toContain('<!--')
    expect(html).not.toContain('\u2028')
    expect(block(html, 'tandem-events')).toEqual(events)
    expect(block(html, 'tandem-export')).toEqual({ taskId: 'task-1', exportedAt: '2025-11-02T10:00:00.000Z' })
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain("default-src 'none'")
    expect(html).toContain('<style>body{color:red} /* <\\/style> */</style>')
  })

  it('verifies the chain of the events it inlines and says where it breaks', async () => {
    const events = await logEvents()
    expect(block(await render(contextOf(events)), 'tandem-verified')).toMatchObject({ ok: true, count: 3, head: { seq: 3, hash: events[2]!.hash } })
    const edited = events.map((e) => (e.seq === 2 ? { ...e, data: { ...e.data, title: 'edited' } } : e))
    const verdict: VerifyResult = block(await render(contextOf(edited)), 'tandem-verified')
    expect(verdict).toMatchObject({ ok: false, count: 1, problem: { line: 2 } })
  })

  it('names the key that signs the export, and only when it is signed', async () => {
    const events = await logEvents()
    const signer = { algorithm: 'ed25519' as const, key: `ed25519:${'ab'.repeat(16)}`, publicKey: `${'A'.repeat(43)}=` }
    expect(block(await render({ ...contextOf(events), signer }), 'tandem-signer')).toEqual(signer)
    expect(await render(contextOf(events))).not.toContain('tandem-signer')
  })

  it('writes each event out as it is read, holding one at a time', async () => {
    const events = await logEvents()
    const pulled = { count: 0 }
    const pieces = renderReplayHtml(contextOf(events, pulled), assets)[Symbol.asyncIterator]()
    await pieces.next() // the head of the page
    const first = await pieces.next()
    expect(first.value).toContain('"task.created"')
    expect(pulled.count).toBe(1)
  })

  it('escapes every character that could end a script element or a JS line', () => {
    const text = scriptSafeJson({ s: '</script>&<!--\u2028\u2029' })
    expect(text).toBe('{"s":"\\u003c/script\\u003e\\u0026\\u003c!--\\u2028\\u2029"}')
    expect(JSON.parse(text)).toEqual({ s: '</script>&<!--\u2028\u2029' })
  })
})
