import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

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
}

/** Starts the built server as a real process on a random loopback port with its own folders. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'tandem-test-'))
  const dataDir = join(root, 'data')
  const auditDir = join(root, 'audit')
  let child: ChildProcess | undefined
  let output = ''
  let port = 0

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
        TANDEM_LLM_API_KEY: '',
        ...(options.token ? { TANDEM_TOKEN: options.token } : {}),
        ...options.env,
      }
      const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      child = proc
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000)
      const from = output.length
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /Listening on http:\/\/[^\s]*:(\d+)/.exec(output.slice(from))
        if (match) {
          port = Number(match[1])
          clearTimeout(timer)
          resolveStart()
        }
      }
      proc.stdout!.on('data', onData)
      proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`server exited with ${code}:\n${output}`))
      })
    })

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
      await stop('SIGTERM')
      rmSync(root, { recursive: true, force: true })
    },
  }
  return server
}
