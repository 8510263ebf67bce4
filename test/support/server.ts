import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CANARIES } from './canaries'
import { outputFolder } from './outputs'

const ENTRY = resolve('.output/server/index.mjs')

export interface TestServer {
  url: string
  token: string
  dataDir: string
  auditDir: string
  /** The server process's id (it changes on restart), for sampling its memory from outside. */
  readonly pid: number | undefined
  /** The server's output so far, for assertions and for debugging a failure. */
  log(): string
  /** Calls the API with the token; returns status, parsed body and headers. */
  api<T = any>(method: string, path: string, body?: unknown, init?: { token?: string | null; headers?: Record<string, string>; raw?: string | Buffer }): Promise<ApiResponse<T>>
  kill(signal?: NodeJS.Signals): Promise<void>
  restart(): Promise<void>
  close(): Promise<void>
}

export interface ApiResponse<T> {
  status: number
  body: T
  headers: Headers
}

export interface StartOptions {
  env?: Record<string, string>
  /** Extra node flags for the server process (e.g. --cpu-prof). */
  nodeArgs?: string[]
  token?: string
  /** Keep tasks in this Redis (TANDEM_STORE=redis) instead of the data dir's files. */
  redisUrl?: string
  /** Folders (data, audit) shared with another server; the caller removes them. */
  root?: string
}

// Exporting every task of a fuzzed server would take longer than its tests: the newest are enough to read zips.
const MAX_EXPORTS = 30

/**
 * Starts the built server as a real process on a random loopback port with its own folders, under the run's
 * output folder when there is one (test/support/outputs.ts): its data, audit and skills dirs, its log, and at
 * close the zip export of its newest tasks stay there for the output scan.
 */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const { dir: root, keep } = options.root ? { dir: options.root, keep: false } : outputFolder('server')
  const dataDir = join(root, 'data')
  const auditDir = join(root, 'audit')
  const logFile = join(root, 'server.log')
  let child: ChildProcess | undefined
  let output = ''
  let port = 0
  const record = (chunk: Buffer) => {
    output += chunk.toString()
    appendFileSync(logFile, chunk)
  }

  const launch = () =>
    new Promise<void>((resolveStart, reject) => {
      const env = {
        ...process.env,
        NITRO_HOST: '127.0.0.1',
        NITRO_PORT: String(port),
        TANDEM_DATA_DIR: dataDir,
        TANDEM_AUDIT_DIR: auditDir,
        TANDEM_SKILLS_DIR: join(root, 'skills'),
        TANDEM_LLM_BASE_URL: '',
        TANDEM_LLM_MODEL: '',
        // A canary: the key may reach the model's endpoint in a header, and nothing the server writes.
        TANDEM_LLM_API_KEY: CANARIES.apiKey,
        ...(options.token ? { TANDEM_TOKEN: options.token } : {}),
        ...(options.redisUrl ? { TANDEM_STORE: 'redis', TANDEM_REDIS_URL: options.redisUrl } : {}),
        ...options.env,
      }
      const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      child = proc
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000)
      const from = output.length
      const onData = (chunk: Buffer) => {
        record(chunk)
        // The line is in the terminal's language (server/lib/terminal/words.json): the demo runs in a Chinese one too.
        const match = /(?:Listening on|正在监听) http:\/\/[^\s]*:(\d+)/.exec(output.slice(from))
        if (match) {
          port = Number(match[1])
          clearTimeout(timer)
          resolveStart()
        }
      }
      proc.stdout!.on('data', onData)
      proc.stderr!.on('data', record)
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`server exited with ${code}:\n${output}`))
      })
    })

  const running = () => !!child && child.exitCode === null && !child.signalCode

  /** The zip export of the server's newest tasks, for the output scan to open. */
  async function saveExports() {
    if (!running()) return
    const list = await server.api<{ data?: { id: string }[] }>('GET', '/api/agent/tasks').catch(() => null)
    const ids = (list?.body?.data ?? []).slice(0, MAX_EXPORTS).map((t) => t.id)
    if (!ids.length) return
    mkdirSync(join(root, 'exports'), { recursive: true })
    for (const id of ids) {
      const res = await fetch(`${server.url}/api/audit/${id}/export`, { headers: { authorization: `Bearer ${token}` } }).catch(() => null)
      if (res?.ok) writeFileSync(join(root, 'exports', `${id}.zip`), Buffer.from(await res.arrayBuffer()))
    }
  }

  const stop = (signal: NodeJS.Signals) =>
    new Promise<void>((done) => {
      if (!child || child.exitCode !== null || child.signalCode) return done()
      child.once('exit', () => done())
      child.kill(signal)
    })

  await launch()
  const token = options.token ?? readFileSync(join(dataDir, 'token'), 'utf8').trim()
  const server: TestServer = {
    get url() {
      return `http://127.0.0.1:${port}`
    },
    get pid() {
      return child?.pid
    },
    token,
    dataDir,
    auditDir,
    log: () => output,
    async api(method, path, body, init = {}) {
      const headers: Record<string, string> = { ...init.headers }
      const auth = init.token === undefined ? token : init.token
      if (auth !== null) headers.authorization = `Bearer ${auth}`
      let payload: string | Buffer | undefined = init.raw
      if (payload === undefined && body !== undefined) payload = JSON.stringify(body)
      if (payload !== undefined) headers['content-type'] ??= 'application/json'
      const res = await fetch(server.url + path, { method, headers, body: payload as BodyInit | undefined })
      const text = await res.text()
      let parsed: any = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers }
    },
    kill: (signal = 'SIGKILL') => stop(signal),
    async restart() {
      await stop('SIGTERM')
      await launch()
    },
    async close() {
      if (keep) await saveExports()
      await stop('SIGTERM')
      // A shared root belongs to the caller, who removes it.
      if (!keep && !options.root) rmSync(root, { recursive: true, force: true })
    },
  }
  return server
}
