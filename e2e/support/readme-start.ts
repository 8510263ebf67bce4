import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
// @ts-expect-error a plain script of the project's, with no types of its own
import { buildIsCurrent } from '../../scripts/build-stamp.mjs'
import { fencedBlocks } from '../../test/support/markdown'
import { outputFolder } from '../../test/support/outputs'

/** What a person reads in the terminal after the README's start command, and the server it started. */
export interface ReadmeStart {
  /** The README's install-and-start line, as written. */
  command: string
  output: () => string
  /** Read from what the terminal printed. */
  serverUrl: string
  extensionDir: string
  tokenFile: string
  demoUrl: string
  stop(): Promise<void>
}

/** The README's first `sh` block: the one line that installs and starts Tandem. */
export function readmeStartCommand(readme = readFileSync('README.md', 'utf8')): string {
  const first = fencedBlocks(readme).find((b) => b.lang === 'sh')
  const lines = first?.lines.map((l) => l.trim()).filter(Boolean) ?? []
  if (lines.length !== 1) throw new Error(`the README's first sh block should be one command, found: ${JSON.stringify(lines)}`)
  return lines[0]!
}

const found = (output: string, pattern: RegExp, what: string) => {
  const match = pattern.exec(output)
  if (!match) throw new Error(`the terminal did not say ${what}:\n${output}`)
  return match[1]!
}

/**
 * Runs the README's start command as a person would, in the project's folder: its install step is skipped (this
 * suite runs from that install, and reinstalling under it would pull the floor away), the rest runs as written on a
 * free port, its data in the run's output folder. Resolves once the terminal has said what to do next.
 */
export async function startAsReadmeSays(): Promise<ReadmeStart> {
  // Its build step would rebuild what this browser has loaded: the suite runs on a build of these very sources.
  if (!buildIsCurrent()) throw new Error('the build is older than the sources: run npm run build first')
  const command = readmeStartCommand()
  const install = /^npm (ci|install) && /
  if (!install.test(command)) throw new Error(`the README's start command does not install first: ${command}`)
  const { dir } = outputFolder('readme')
  let output = ''
  const child: ChildProcess = spawn('sh', ['-c', command.replace(install, '')], {
    cwd: resolve('.'),
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      TANDEM_DATA_DIR: join(dir, 'data'),
      TANDEM_AUDIT_DIR: join(dir, 'audit'),
      TANDEM_LLM_BASE_URL: '',
      TANDEM_LLM_MODEL: '',
      TANDEM_LLM_API_KEY: '',
      TANDEM_TOKEN: '',
      LANG: 'en_US.UTF-8',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const record = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout!.on('data', record)
  child.stderr!.on('data', record)
  const stop = async () => {
    writeFileSync(join(dir, 'terminal.log'), output)
    if (child.exitCode !== null || child.pid === undefined) return
    const exited = new Promise((r) => child.once('exit', r))
    process.kill(-child.pid, 'SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
  }
  // A build of its own, when the sources changed since the last one, takes minutes on a small machine.
  const until = Date.now() + 600_000
  while (!/\/demo\/\s*$/m.test(output)) {
    if (child.exitCode !== null) throw new Error(`"${command}" ended with ${child.exitCode}:\n${output}`)
    if (Date.now() > until) {
      await stop()
      throw new Error(`"${command}" did not finish starting:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    command,
    output: () => output,
    serverUrl: found(output, /Listening on (http:\/\/\S+?)\/?$/m, 'where it listens'),
    extensionDir: found(output, /(\/\S*dist\/chrome-mv3)\b/, 'where the extension is'),
    tokenFile: found(output, /(\/\S*\/token)\b/, 'where the token is'),
    demoUrl: found(output, /(https?:\/\/\S+\/demo\/)\s*$/m, 'where the demo page is'),
    stop,
  }
}
