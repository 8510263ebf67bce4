import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { demoText } from '../scripts/demo/messages'
import { runDemo } from '../scripts/demo/run'

const scratch = mkdtempSync(join(tmpdir(), 'tandem-demo-e2e-'))
// Each command gets its own short TMPDIR: Chromium's socket path inside it must stay under 108 bytes.
const commandTmp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-'))
  made.push(dir)
  return dir
}
const made: string[] = [scratch]
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

interface Finished {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `npm run demo` as a person would, minus the build (the e2e run has just built everything). */
function startCli(env: Record<string, string>, tmp: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--no-build', '--out', join(tmp, 'out')], {
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', TMPDIR: tmp, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const seen: { pattern: RegExp; found: (m: RegExpExecArray) => void }[] = []
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    for (const w of seen) {
      const m = w.pattern.exec(stdout)
      if (m) w.found(m)
    }
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const finished = new Promise<Finished>((done) => child.once('exit', (code) => done({ code, stdout, stderr })))
  return {
    child,
    finished,
    /** Resolves when the output shows `pattern`; fails with the output so far if the command ends first. */
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpExecArray>((found, fail) => {
        seen.push({ pattern, found })
        void finished.then((f) => fail(new Error(`the demo ended (${f.code}) before printing ${pattern}:\n${f.stdout}\n${f.stderr}`)))
      }),
  }
}

/** The demo's own temporary folders left in a TMPDIR (tsx keeps its compile cache there too, which is not ours). */
const leftovers = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('tandem-'))

const reachable = (url: string) =>
  fetch(`${url}/api/health`).then(
    () => true,
    () => false,
  )

/** Processes whose command line mentions `part` (a temp folder of the run: the server's data, the browser profile). */
function processesMentioning(part: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      if (cmd.includes(part)) found.push(`${pid} ${cmd.slice(0, 120)}`)
    } catch {}
  }
  return found
}

describe('npm run demo', () => {
  it('buys the phone with every confirmation approved by a click in the side panel, and leaves a verified zip of the audit', async () => {
    const lines: string[] = []
    const outDir = join(scratch, 'out')
    const before = process.env.TMPDIR
    const result = await runDemo({ outDir, log: (line) => lines.push(line), t: demoText('en') })

    expect(result.status, lines.join('\n')).toBe('SUCCEEDED')
    expect(result.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    expect(result.chain.verdict).toMatch(/^OK /)

    // The zip on disk is the evidence: read it without the server, which is gone by now.
    expect(result.zipPath).toBe(join(outDir, `${result.taskId}.zip`))
    const zip = unzipSync(readFileSync(result.zipPath))
    expect(Object.keys(zip)).toContain('events.jsonl')
    const events: AuditEvent[] = new TextDecoder().decode(zip['events.jsonl']).trim().split('\n').map((l) => JSON.parse(l))

    // The order itself, not the picture taken for its card (aimed at the same button).
    const placeOrder = events.find((e) => e.type === 'action.proposed' && (e.data as any).evidence !== true && (e.data as any).action.target?.value === 'Place order')!
    expect(placeOrder, 'the checkout was proposed').toBeDefined()
    const answered = events.filter((e) => e.type === 'confirmation.answered')
    expect(answered).toHaveLength(result.panelClicks)
    // Every approval came from the extension's panel (its client id and Chrome's user agent), none from a plain API call.
    for (const event of answered) {
      expect(event.data).toMatchObject({ approved: true, by: result.clientId, source: { clientId: result.clientId } })
      expect((event.data as any).source.userAgent).toMatch(/HeadlessChrome/)
    }
    const approvedAt = answered.findIndex((e) => e.actionId === placeOrder.actionId)
    expect(approvedAt, 'the checkout was approved').toBeGreaterThan(-1)
    const seqOf = (type: string) => events.find((e) => e.type === type && e.actionId === placeOrder.actionId)!.seq
    expect(seqOf('action.dispatched')).toBeGreaterThan(seqOf('confirmation.answered'))

    // The checkout's before and after screenshots are in the zip, as JPEGs.
    const observed = events.find((e) => e.type === 'observation' && e.actionId === placeOrder.actionId)!
    const shots = (observed.data as { artifacts: { name: string; label: string }[] }).artifacts
    expect(shots.map((a) => a.label).sort()).toEqual(['after', 'before'])
    for (const shot of shots) expect(Array.from(zip[`artifacts/${shot.name}`].subarray(0, 3))).toEqual([0xff, 0xd8, 0xff])

    // The printed timeline names the checkout step with its target, risk, outcome and screenshots.
    const checkoutLine = lines.find((l) => l.includes('Click · “Place order”'))
    expect(checkoutLine, lines.join('\n')).toMatch(/#\d+ · Click · “Place order” · high · done · before artifacts\/\S+\.jpg, after artifacts\/\S+\.jpg/)
    expect(lines.filter((l) => l.includes('Approved in the side panel'))).toHaveLength(result.panelClicks)

    // Nothing of the run is left: its temp folder is gone and TMPDIR is what it was.
    expect(existsSync(result.tempRoot)).toBe(false)
    expect(process.env.TMPDIR).toBe(before)
  })

  it('speaks Chinese all the way when the terminal does: risks, reasons, outcomes and statuses, with the panel’s step numbers', async () => {
    const tmp = commandTmp()
    const run = startCli({ LANG: 'zh_CN.UTF-8' }, tmp)
    const { code, stdout, stderr } = await run.finished
    expect(code, `${stdout}\n${stderr}`).toBe(0)
    const waits = stdout.split('\n').filter((l) => l.includes('等待批准：'))
    expect(waits.length, stdout).toBeGreaterThan(0)
    for (const line of waits) {
      expect(line).toMatch(/（风险 (高|中|低)），原因：/)
      // The reasons are the policy's, in Chinese: none of the English sentences is left.
      expect(line).not.toMatch(/looks like|submits a form|which sends|risk (high|medium|low)/)
    }
    // Step lines are numbered as the side panel numbers them: 1, 2, 3… with the picture before asking unnumbered.
    const numbers = [...stdout.matchAll(/^ {2}#(\d+) · /gm)].map((m) => Number(m[1]))
    expect(numbers.length, stdout).toBeGreaterThan(3)
    expect(numbers).toEqual(numbers.map((_, i) => i + 1))
    expect(stdout).toMatch(/^ {2}— · 截图 · .* — 征求你批准前拍下的页面$/m)
    expect(stdout).toMatch(/· 高 · 完成 ·/)
    expect(stdout).toMatch(/任务状态\s+已完成/)
    // Chinese takes full-width punctuation.
    expect(stdout).not.toMatch(/[\u4e00-\u9fff][:,;]/)
  })

  it('names what failed, exits non-zero and stops the server it started when Chromium is missing', async () => {
    const tmp = commandTmp()
    const run = startCli({ TANDEM_CHROMIUM: '/nonexistent/chromium' }, tmp)
    const [, serverUrl] = await run.waitFor(/Server listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const { code, stderr } = await run.finished
    expect(code).toBe(1)
    expect(stderr).toContain('Demo failed at starting Chromium with the extension: no Chromium at /nonexistent/chromium')
    expect(await reachable(serverUrl)).toBe(false)
    expect(leftovers(tmp)).toEqual([])
  })

  it('on Ctrl-C stops the server and the browser and removes its temporary folder', async () => {
    const tmp = commandTmp()
    const run = startCli({}, tmp)
    const [, serverUrl] = await run.waitFor(/Server listening on (http:\/\/127\.0\.0\.1:\d+)/)
    await run.waitFor(/Task \S+ started/)
    expect(processesMentioning(resolve(tmp)).length, 'the browser runs from the demo folder').toBeGreaterThan(0)
    run.child.kill('SIGINT')
    const { code } = await run.finished
    expect(code).toBe(130)
    expect(await reachable(serverUrl)).toBe(false)
    expect(leftovers(tmp)).toEqual([])
    expect(processesMentioning(resolve(tmp))).toEqual([])
  })
})
