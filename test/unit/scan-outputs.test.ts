import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipSync, strToU8 } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CANARIES, spaced, type CanaryName } from '../support/canaries'
import { describeScan, scanOutputs } from '../support/scan-outputs'

// Never under TANDEM_TEST_OUTPUT: these folders hold canaries on purpose.
let root = ''
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-scan-test-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const put = (path: string, content: string | Uint8Array) => {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), content)
}
const found = () => scanOutputs(root).hits.map((h) => [h.file, h.canary])

describe('the output scan', () => {
  it('passes clean outputs and counts what it read', () => {
    put('server-1/audit/t1/events.jsonl', '{"seq":0,"data":{"text":"••••","card":"••••"}}\n')
    put('server-1/server.log', 'Listening on http://127.0.0.1:3000\n')
    put('server-1/audit/t1/artifacts/0001-before-x.jpg', Buffer.alloc(2048, 1))
    const report = scanOutputs(root)
    expect(report).toMatchObject({ files: 2, images: 1, imageBytes: 2048, hits: [] })
    expect(report.bytes).toBeGreaterThan(40)
    expect(describeScan(report)).toMatch(/^output scan: 2 files, \d+ bytes .* 1 screenshots .* 0 canary hits$/)
  })

  it('finds each canary raw, JSON-escaped, HTML-escaped, URL-encoded, and cards and phones with or without separators', () => {
    put('a/server.log', `typed ${CANARIES.secret} into the field`)
    put('a/events.jsonl', JSON.stringify({ data: { text: CANARIES.password } }))
    put('a/nested.json', JSON.stringify({ raw: JSON.stringify({ key: CANARIES.apiKey }) }))
    put('a/replay.html', `<p title="${CANARIES.password.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`)
    put('a/url.log', `GET /x?mail=${encodeURIComponent(CANARIES.email)}&tel=${encodeURIComponent(CANARIES.phoneCn)}`)
    put('b/prompts.jsonl', `card ${spaced(CANARIES.cardVisa)} and ${CANARIES.cardUnionPay.replace(/(\d{4})(?=\d)/g, '$1-')}`)
    put('b/page.txt', 'call 138-0013-8000 or (415) 555 0134, write to zhang.wei.canary@example.cn')
    expect(found().sort()).toEqual(
      [
        ['a/server.log', 'secret'],
        ['a/events.jsonl', 'password'],
        ['a/nested.json', 'apiKey'],
        ['a/replay.html', 'password'],
        ['a/url.log', 'email'],
        ['a/url.log', 'phoneCn'],
        ['b/prompts.jsonl', 'cardVisa'],
        ['b/prompts.jsonl', 'cardUnionPay'],
        ['b/page.txt', 'phoneCn'],
        ['b/page.txt', 'phoneEn'],
        ['b/page.txt', 'emailCn'],
      ].sort(),
    )
  })

  it('opens zip exports and names the entry that holds a canary', () => {
    const zip = zipSync({ 'events.jsonl': strToU8('{}\n'), 'replay.html': strToU8(`<script>{"text":"${CANARIES.cardVisa}"}</script>`), 'artifacts/0001-a.jpg': new Uint8Array(10) })
    put('server-2/exports/t9.zip', zip)
    const report = scanOutputs(root)
    expect(report).toMatchObject({ zips: 1, files: 2, images: 1 })
    expect(found()).toEqual([['server-2/exports/t9.zip!replay.html', 'cardVisa']])
  })

  it('reports a hit by file and canary name, never by its value', () => {
    for (const name of Object.keys(CANARIES) as CanaryName[]) put(`all/${name}.log`, `x ${CANARIES[name]} y`)
    const report = scanOutputs(root)
    expect(report.hits).toHaveLength(Object.keys(CANARIES).length)
    const printed = describeScan(report)
    for (const name of Object.keys(CANARIES)) expect(printed).toContain(`all/${name}.log: ${name}`)
    for (const value of Object.values(CANARIES)) expect(printed).not.toContain(value)
  })
})
