import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

export interface TestRedis {
  url: string
  port: number
  /** What redis-server printed, for a failure's message. */
  log(): string
  stop(): Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

function launch(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    // No persistence and no config file: a throwaway Redis that only this test run talks to.
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve({ child, output: () => output })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(error.code === 'ENOENT' ? new Error('redis-server is not installed: apt-get install -y redis-server') : error)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code}:\n${output}`))
    })
  })
}

/** Starts a redis-server of its own on a free loopback port, without persistence. */
export async function startRedis(): Promise<TestRedis> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort()
    try {
      const { child, output } = await launch(port)
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        log: output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      }
    } catch (error) {
      // Another process may have taken the port between the probe and the start.
      if (attempt >= 3 || !/Address already in use/i.test(String((error as Error).message))) throw error
    }
  }
}
