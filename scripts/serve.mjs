// Starts the built server on loopback unless NITRO_HOST/HOST says otherwise, then says what to do next.
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

process.env.NITRO_HOST ??= process.env.HOST || '127.0.0.1'
process.env.NITRO_PORT ??= process.env.PORT || '3000'

const root = fileURLToPath(new URL('..', import.meta.url))
const zh = /^zh/i.test(process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || '')

const WORDS = {
  en: {
    llm: (model, base) => `LLM: ${model} at ${base}`,
    noLlm: 'No LLM configured: skills with a script (try "Fill in the demo contact form") still run.',
    setLlm: 'To plan with a model, set TANDEM_LLM_BASE_URL, TANDEM_LLM_MODEL and (if the provider needs one) TANDEM_LLM_API_KEY, then start again.',
    next: 'Next:',
    load: (dir) => `1. Open chrome://extensions, turn on Developer mode, click "Load unpacked" and choose ${dir}`,
    build: 'the extension is not built yet: run npm run build',
    panel: '2. Click the Tandem icon in the toolbar to open the side panel.',
    paste: (url) => `3. In the panel's settings paste the server URL ${url} and the token`,
    tokenFile: (file) => `   (the token is in ${file})`,
    tokenEnv: '   (the token is the one you set in TANDEM_TOKEN)',
    console: (url) => `Console: ${url}`,
    demo: (url) => `Demo page for the starter skill: ${url}`,
    taken: (host, port) => `Port ${port} on ${host} is in use by another program: stop it, or start Tandem on another port with PORT=3100 npm start (or NITRO_PORT).`,
  },
  zh: {
    llm: (model, base) => `LLM：${model}（${base}）`,
    noLlm: '未配置 LLM：带脚本的技能（试试“填写演示联系表单”）仍可运行。',
    setLlm: '如需用模型规划，请设置 TANDEM_LLM_BASE_URL、TANDEM_LLM_MODEL（服务商需要时再设 TANDEM_LLM_API_KEY），然后重新启动。',
    next: '下一步：',
    load: (dir) => `1. 打开 chrome://extensions，开启“开发者模式”，点击“加载已解压的扩展程序”，选择 ${dir}`,
    build: '扩展尚未构建：请先运行 npm run build',
    panel: '2. 点击工具栏中的 Tandem 图标，打开侧边栏。',
    paste: (url) => `3. 在侧边栏的设置中粘贴服务器地址 ${url} 和令牌`,
    tokenFile: (file) => `   （令牌保存在 ${file}）`,
    tokenEnv: '   （令牌即您在 TANDEM_TOKEN 中设置的值）',
    console: (url) => `控制台：${url}`,
    demo: (url) => `入门技能的演示页面：${url}`,
    taken: (host, port) => `${host} 的端口 ${port} 已被其他程序占用：请先关闭它，或换一个端口启动，例如 PORT=3100 npm start（或设置 NITRO_PORT）。`,
  },
}
const w = zh ? WORDS.zh : WORDS.en

/** The model's address without anything secret in it: no user, password, query or fragment. */
function safeBase(raw) {
  try {
    const url = new URL(raw)
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return '(not a URL)'
  }
}

function nextSteps(serverUrl) {
  const base = process.env.TANDEM_LLM_BASE_URL
  const model = process.env.TANDEM_LLM_MODEL
  const extension = join(root, 'dist', 'chrome-mv3')
  const dataDir = resolve(process.env.TANDEM_DATA_DIR || '.data')
  const lines = [
    '',
    ...(base && model ? [w.llm(model, safeBase(base))] : [w.noLlm, w.setLlm]),
    '',
    w.next,
    existsSync(join(extension, 'manifest.json')) ? w.load(extension) : `${w.load(extension)} (${w.build})`,
    w.panel,
    w.paste(serverUrl),
    process.env.TANDEM_TOKEN ? w.tokenEnv : w.tokenFile(join(dataDir, 'token')),
    '',
    w.console(`${serverUrl}/console/`),
    w.demo(`${serverUrl}/demo/`),
    '',
  ]
  for (const line of lines) console.log(line ? `[tandem] ${line}` : '')
}

// Nitro says where it listens (with the port it was given, 0 included); the next steps come once the start-up lines
// are out, the skills library's last among them, so they are what the terminal ends with.
const log = console.log
let serverUrl = null
let printed = false
let indexed = false
const finish = () => {
  if (printed || !serverUrl) return
  printed = true
  console.log = log
  nextSteps(serverUrl)
}
console.log = (...args) => {
  log(...args)
  const line = typeof args[0] === 'string' ? args[0] : ''
  const match = /^Listening on (https?:\/\/\S+?)\/?$/.exec(line)
  if (match) {
    const url = new URL(match[1])
    // A server listening on every address is reached on loopback from this machine.
    if (['[::]', '0.0.0.0'].includes(url.hostname)) url.hostname = '127.0.0.1'
    serverUrl = url.origin
    setTimeout(finish, indexed ? 0 : 3000).unref()
  }
  if (/^\[tandem\] \d+ skills indexed/.test(line)) {
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
  console.error(`[tandem] ${w.taken(process.env.NITRO_HOST, process.env.NITRO_PORT)}`)
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
