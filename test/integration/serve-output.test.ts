import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CANARIES } from '../support/canaries'

interface Served {
  output(): string
  url: string
  stop(): Promise<void>
}

const running: Served[] = []
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop()
})

/** `npm run serve` as a person starts it: scripts/serve.mjs on a free port, a fresh data dir, their own env. */
function serve(env: Record<string, string>): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-serve-'))
  const proc = spawn(process.execPath, [resolve('scripts/serve.mjs')], {
    env: {
      PATH: process.env.PATH!,
      NITRO_PORT: '0',
      TANDEM_DATA_DIR: dataDir,
      TANDEM_AUDIT_DIR: join(dataDir, 'audit'),
      TANDEM_SKILLS_DIR: resolve('skills'),
      LANG: 'C.UTF-8',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout.on('data', (c) => (out += c))
  proc.stderr.on('data', (c) => (out += c))
  const served: Served = {
    output: () => out,
    url: '',
    stop: () =>
      new Promise((done) => {
        proc.once('exit', () => {
          rmSync(dataDir, { recursive: true, force: true })
          done()
        })
        proc.kill()
      }),
  }
  running.push(served)
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no next steps printed:\n${out}`)), 20_000)
    proc.stdout.on('data', () => {
      const url = /(?:Listening on|正在监听) (http:\/\/\S+?)\/?\n/.exec(out)?.[1]
      // The last line of the block: everything before it has been printed.
      if (url && /\[tandem\] (Demo page|入门技能)/.test(out)) {
        clearTimeout(timer)
        ok({ ...served, url: url.replace('[::]', '127.0.0.1') })
      }
    })
    proc.once('exit', (code) => fail(new Error(`serve exited with ${code}:\n${out}`)))
  })
}

const lines = (out: string) => out.split('\n').map((l) => l.trimEnd())

describe('npm start / npm run serve', () => {
  it('ends with the next steps: load dist/chrome-mv3, open the panel, paste the URL and the token; says no LLM is configured and what to set', async () => {
    const s = await serve({})
    const out = lines(s.output())
    // The block is the last thing printed, after Nitro's address and the skills library's line.
    const listening = out.findIndex((l) => l.startsWith('Listening on'))
    const indexed = out.findIndex((l) => /^\[tandem\] \d+ skills indexed/.test(l))
    const first = out.findIndex((l) => l.startsWith('[tandem] No LLM configured'))
    expect(listening).toBeGreaterThan(-1)
    expect(first).toBeGreaterThan(Math.max(listening, indexed))
    const after = out.slice(first).filter(Boolean)
    expect(after).toEqual([
      '[tandem] No LLM configured: skills with a script (try "Fill in the demo contact form") still run.',
      '[tandem] To plan with a model, set TANDEM_LLM_BASE_URL, TANDEM_LLM_MODEL and (if the provider needs one) TANDEM_LLM_API_KEY, then start again.',
      '[tandem] Next:',
      `[tandem] 1. Open chrome://extensions, turn on Developer mode, click "Load unpacked" and choose ${resolve('dist/chrome-mv3')}`,
      '[tandem] 2. Click the Tandem icon in the toolbar to open the side panel.',
      `[tandem] 3. In the panel's settings paste the server URL ${s.url} and the token`,
      expect.stringMatching(/^\[tandem\] {4}\(the token is in \/.*\/token\)$/),
      `[tandem] Console: ${s.url}/console/`,
      `[tandem] Demo page for the starter skill: ${s.url}/demo/`,
    ])
    // The token file it names is the one the server made.
    const file = /the token is in (.*)\)$/.exec(after[6]!)![1]!
    expect(readFileSync(file, 'utf8').trim()).toMatch(/\S{20,}/)
  })

  it('prints the configured model and its address, never the key', async () => {
    const s = await serve({
      TANDEM_LLM_BASE_URL: 'https://user:pw@llm.example.test/v1/?key=abc',
      TANDEM_LLM_MODEL: 'gpt-test-mini',
      TANDEM_LLM_API_KEY: CANARIES.apiKey,
    })
    const out = s.output()
    expect(out).toContain('[tandem] LLM: gpt-test-mini at https://llm.example.test/v1\n')
    expect(out).not.toContain(CANARIES.apiKey)
    expect(out).not.toContain('pw@')
    expect(out).not.toContain('key=abc')
    expect(out).not.toContain('No LLM configured')
  })

  it('speaks Chinese to a Chinese terminal', async () => {
    const s = await serve({ LANG: 'zh_CN.UTF-8', TANDEM_TOKEN: 'a-token-from-the-environment-0123' })
    const out = s.output()
    expect(out).toContain('[tandem] 未配置 LLM：带脚本的技能（试试“填写演示联系表单”）仍可运行。')
    expect(out).toContain('[tandem] 2. 点击工具栏中的 Tandem 图标，打开侧边栏。')
    expect(out).toContain('[tandem]    （令牌即您在 TANDEM_TOKEN 中设置的值）')
    expect(out).not.toContain('a-token-from-the-environment-0123')
  })

  it('logs a start refused for want of an LLM as one plain line, not as an internal error', async () => {
    const s = await serve({ TANDEM_TOKEN: 'a-token-from-the-environment-0123' })
    const res = await fetch(`${s.url}/api/agent/start`, {
      method: 'POST',
      headers: { authorization: 'Bearer a-token-from-the-environment-0123', 'content-type': 'application/json' },
      body: JSON.stringify({ goal: 'plan this with a model' }),
    })
    expect(res.status).toBe(503)
    expect((await res.json()).error.code).toBe('LLM_NOT_CONFIGURED')
    await new Promise((r) => setTimeout(r, 200))
    const out = s.output()
    const refusals = lines(out).filter((l) => l.includes('LLM_NOT_CONFIGURED'))
    expect(refusals).toEqual([expect.stringMatching(/^\[tandem\] refused POST \/api\/agent\/start: LLM_NOT_CONFIGURED: No LLM is configured: set TANDEM_LLM_BASE_URL/)])
    expect(out).not.toContain('internal error')
    expect(out).not.toContain('statusCode')
  })
})

describe("the whole start in the terminal's language", () => {
  const HAN = /\p{Script=Han}/u
  const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u
  /** A line with the token, addresses and paths taken out: what is left is words, which must be the terminal's. */
  const words = (line: string, token: string) =>
    line
      .replace('[tandem]', '')
      .replace(token, '')
      .replace(/(?:https?|chrome):\/\/\S*/g, '')
      .replace(/\/[^\s（）()]+/g, '')
  const shippedCount = readdirSync('skills').filter((d) => existsSync(join('skills', d, 'SKILL.md'))).length

  /** Three starts on one data dir holding a skill of the person's: a token made, a token read back, a model set. */
  async function starts(lang: string): Promise<{ out: string; token: string; dataDir: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-serve-lang-'))
    mkdirSync(join(dataDir, 'skills', 'water-the-plants'), { recursive: true })
    writeFileSync(join(dataDir, 'skills', 'water-the-plants', 'SKILL.md'), '---\nname: Water the plants\ndescription: Order plant food.\n---\n## Steps\n1. Go.')
    const env = { LANG: lang, TANDEM_DATA_DIR: dataDir, TANDEM_AUDIT_DIR: join(dataDir, 'audit') }
    let out = ''
    const llm = { TANDEM_LLM_BASE_URL: 'https://llm.example.test/v1', TANDEM_LLM_MODEL: 'gpt-test-mini' }
    for (const extra of [{}, {}, llm] as Record<string, string>[]) {
      const s = await serve({ ...env, ...extra })
      out += s.output()
      running.splice(running.indexOf(s), 1)
      await s.stop()
    }
    return { out, token: readFileSync(join(dataDir, 'token'), 'utf8').trim(), dataDir }
  }

  it('speaks Chinese on every line to a Chinese terminal: the token, console, skills, model and next-step lines', async () => {
    const { out, token, dataDir } = await starts('zh_CN.UTF-8')
    try {
      const english = lines(out).filter((l) => /[A-Za-z]{2,}/.test(words(l, token)) && !HAN.test(l))
      expect(english).toEqual([])
      // Each kind of line was there to be checked.
      expect(out).toContain(`[tandem] 已生成访问令牌（保存在 ${join(dataDir, 'token')}）：`)
      expect(out).toContain(`[tandem] 访问令牌：${join(dataDir, 'token')}`)
      expect(out).toMatch(/\[tandem\] 控制台：http:\/\/127\.0\.0\.1:\d+\/console\/\n/)
      expect(out).toMatch(/^正在监听 http:\/\/127\.0\.0\.1:\d+$/m)
      expect(out).toContain('[tandem] 审计签名密钥：')
      expect(out).toContain(`[tandem] 已为 ${shippedCount + 1} 个技能建立索引：${resolve('skills')} 中 ${shippedCount} 个，您自己的 1 个在 ${join(dataDir, 'skills')}`)
      expect(out).toContain('[tandem] 已配置 LLM：gpt-test-mini，地址 https://llm.example.test/v1')
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('prints no Chinese to an English terminal', async () => {
    const { out, dataDir } = await starts('en_US.UTF-8')
    rmSync(dataDir, { recursive: true, force: true })
    expect(lines(out).filter((l) => CJK.test(l))).toEqual([])
    expect(out).toContain('[tandem] generated an access token')
  })

  it('counts the shipped skills and the person\'s own apart, so the shipped count is what skills/ holds', async () => {
    const { out, dataDir } = await starts('C.UTF-8')
    rmSync(dataDir, { recursive: true, force: true })
    expect(out).toContain(
      `[tandem] ${shippedCount + 1} skills indexed: ${shippedCount} from ${resolve('skills')} and 1 of yours from ${join(dataDir, 'skills')}\n`,
    )
  })
})

describe('a port another program holds', () => {
  /** scripts/serve.mjs on a port something already listens on: how it ended and all it printed. */
  async function serveOnTaken(lang: string): Promise<{ code: number | null; out: string; port: number }> {
    const holder = createServer()
    await new Promise<void>((ok) => holder.listen(0, '127.0.0.1', ok))
    const port = (holder.address() as AddressInfo).port
    const dataDir = mkdtempSync(join(tmpdir(), 'tandem-serve-'))
    try {
      const proc = spawn(process.execPath, [resolve('scripts/serve.mjs')], {
        env: { PATH: process.env.PATH!, NITRO_PORT: String(port), TANDEM_DATA_DIR: dataDir, LANG: lang },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      proc.stdout.on('data', (c) => (out += c))
      proc.stderr.on('data', (c) => (out += c))
      const code = await new Promise<number | null>((done) => proc.once('exit', done))
      return { code, out, port }
    } finally {
      holder.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }

  it("ends the start with one plain line naming PORT and NITRO_PORT and a non-zero exit, in the terminal's language", async () => {
    const en = await serveOnTaken('C.UTF-8')
    expect(en.code).toBe(1)
    expect(lines(en.out).filter(Boolean)).toEqual([
      `[tandem] Port ${en.port} on 127.0.0.1 is in use by another program: stop it, or start Tandem on another port with PORT=3100 npm start (or NITRO_PORT).`,
    ])
    const zh = await serveOnTaken('zh_CN.UTF-8')
    expect(zh.code).toBe(1)
    expect(lines(zh.out).filter(Boolean)).toEqual([
      `[tandem] 127.0.0.1 的端口 ${zh.port} 已被其他程序占用：请先关闭它，或换一个端口启动，例如 PORT=3100 npm start（或设置 NITRO_PORT）。`,
    ])
  })
})

describe('the build', () => {
  it('tells people to preview it with npm run serve, not a command that skips Tandem’s start-up', () => {
    const built = JSON.parse(readFileSync('.output/nitro.json', 'utf8'))
    expect(built.commands.preview).toBe('npm run serve')
  })
})
