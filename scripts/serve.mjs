// Starts the built server on loopback unless NITRO_HOST/HOST says otherwise, then says what to do next.
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

process.env.NITRO_HOST ??= process.env.HOST || '127.0.0.1'
process.env.NITRO_PORT ??= process.env.PORT || '3000'

const root = fileURLToPath(new URL('..', import.meta.url))
// The server's own start-up lines come from the same tables (server/lib/terminal/words.ts), in the same language.
const WORDS = JSON.parse(readFileSync(join(root, 'server', 'lib', 'terminal', 'words.json'), 'utf8'))
const lang = /^zh/i.test(process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || '') ? 'zh-CN' : 'en'
const say = (key, params = {}) =>
  (WORDS[lang][key] ?? WORDS.en[key]).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole))
/** Whether a line is the one `key` prints, whatever it filled in. */
const printed = (key, line) => {
  const [head, ...rest] = (WORDS[lang][key] ?? WORDS.en[key]).split(/\{\w+\}/)
  return line.startsWith(head) && rest.every((part) => line.includes(part))
}

/** The model's address without anything secret in it: no user, password, query or fragment. */
function safeBase(raw) {
  try {
    const url = new URL(raw)
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return say('notUrl')
  }
}

function nextSteps(serverUrl) {
  const base = process.env.TANDEM_LLM_BASE_URL
  const model = process.env.TANDEM_LLM_MODEL
  const extension = join(root, 'dist', 'chrome-mv3')
  const dataDir = resolve(process.env.TANDEM_DATA_DIR || '.data')
  const lines = [
    '',
    ...(base && model ? [say('llm', { model, base: safeBase(base) })] : [say('noLlm', { starter: say('starter') }), say('setLlm')]),
    '',
    say('next'),
    say(existsSync(join(extension, 'manifest.json')) ? 'load' : 'loadNotBuilt', { dir: extension }),
    say('panel'),
    say('paste', { url: serverUrl }),
    process.env.TANDEM_TOKEN ? say('tokenEnv') : say('tokenIn', { file: join(dataDir, 'token') }),
    '',
    say('openConsole', { url: `${serverUrl}/console/` }),
    say('demo', { url: `${serverUrl}/demo/` }),
    '',
  ]
  for (const line of lines) console.log(line)
}

// Nitro says where it listens (with the port it was given, 0 included); the next steps come once the start-up lines
// are out, the skills library's last among them, so they are what the terminal ends with.
const log = console.log
let serverUrl = null
let done = false
let indexed = false
const finish = () => {
  if (done || !serverUrl) return
  done = true
  console.log = log
  nextSteps(serverUrl)
}
console.log = (...args) => {
  log(...args)
  const line = typeof args[0] === 'string' ? args[0] : ''
  const match = printed('listening', line) && /(https?:\/\/\S+?)\/?$/.exec(line)
  if (match) {
    const url = new URL(match[1])
    // A server listening on every address is reached on loopback from this machine.
    if (['[::]', '0.0.0.0'].includes(url.hostname)) url.hostname = '127.0.0.1'
    serverUrl = url.origin
    setTimeout(finish, indexed ? 0 : 3000).unref()
  }
  if (['skillsIndexed', 'skillIndexed', 'skillsIndexedWithOwn'].some((key) => printed(key, line))) {
    indexed = true
    setTimeout(finish, 0)
  }
}

/** Whether the port can be listened on; a taken one ends the start with one plain line and a non-zero exit. */
function portFree(host, port) {
  return new Promise((done) => {
    const probe = createServer()
    probe.once('error', (error) => done(error.code !== 'EADDRINUSE'))
    probe.listen(Number(port), host, () => probe.close(() => done(true)))
  })
}

const taken = () => {
  console.error(say('taken', { host: process.env.NITRO_HOST, port: process.env.NITRO_PORT }))
  process.exit(1)
}
if (process.env.NITRO_PORT !== '0' && !(await portFree(process.env.NITRO_HOST, process.env.NITRO_PORT))) taken()
// Taken between that check and the server's own listen: the same line, not a stack.
process.on('uncaughtException', (error) => {
  if (error?.code === 'EADDRINUSE') taken()
  console.error(error)
  process.exit(1)
})

await import('../.output/server/index.mjs')
