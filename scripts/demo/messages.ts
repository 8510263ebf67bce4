import { terminalLang } from '../../server/lib/terminal/words'
import { createTranslator, type Lang, type Translate } from '../../ui/i18n'

const en = {
  title: 'Tandem demo: a scripted purchase through the real server, extension and side panel',
  build: 'Building the server and the extension (npm run build)…',
  built: 'Built in {s}s.',
  server: 'Server listening on {url}, with its data and audit in a temporary folder',
  shop: 'Demo shop at {url}',
  browser: 'Headless Chromium ({chromium}) with the extension {id}',
  settings: 'Extension connected to {url}',
  started: 'Task {id} started: {goal}',
  timeline: 'Timeline (seq · action · target · risk · outcome · screenshots):',
  status: 'status {status}',
  waiting: 'Waiting for approval: {action} (risk {risk}) because {reasons}',
  clicking: 'Clicking Approve on the confirmation card in the side panel ({url})',
  approved: 'Approved in the side panel: the audit names you, in browser {client}',
  exported: 'Audit export saved to {path}',
  summary: 'Summary',
  'summary.status': 'task status',
  'summary.order': 'order placed',
  'summary.noOrder': 'none',
  'summary.approval': 'approval',
  'summary.approvalValue': '{count} by you, in the side panel (browser {client})',
  'summary.chain': 'audit chain',
  'summary.chainValue': 'intact: {events} events, every file’s hash and the server’s signature check out',
  'summary.export': 'audit export',
  'summary.exportValue': '{path} ({events}, {artifacts} screenshots)',
  'summary.time': 'time',
  seconds: '{s}s',
  ok: 'Demo finished: the whole loop works.',
  failed: 'Demo failed at {stage}: {message}',
  interrupted: 'Interrupted: stopping the server and the browser and removing temporary folders…',
  'stage.build': 'the build',
  'stage.server': 'starting the server',
  'stage.shop': 'starting the demo shop',
  'stage.browser': 'starting Chromium with the extension',
  'stage.task': 'running the task',
  'stage.approval': 'approving in the side panel',
  'stage.export': 'downloading the audit export',
  'stage.verify': 'checking the result',
  'error.chromium': 'no Chromium at {path}: install it (apt-get install -y chromium) or set TANDEM_CHROMIUM',
  'error.notBuilt': '{path} is missing: run npm run build first',
  'error.noCard':
    'the side panel showed no confirmation card (data-testid="confirmation") within {s}s while the task waited for approval',
  'error.noButton': 'the confirmation card has no button named Approve or 批准',
  'error.notApproved': 'the click on Approve did not reach the server: the task is still waiting for confirmation',
  'error.taskEnded': 'the task ended {status}: {detail}',
  'error.taskStuck': 'the task is still {status} after {s}s',
  'error.orders': 'the shop holds {count} orders, expected exactly one {product} for {buyer}',
  'error.approvedBy': 'the approval was recorded as coming from {by}, not from the side panel of client {client}',
  'error.export': 'the export answered HTTP {status}',
  'error.zip': 'the zip lacks {what}',
  'error.chain': 'the audit does not verify: {verdict}',
  'risk.low': 'low',
  'risk.medium': 'medium',
  'risk.high': 'high',
  'outcome.done': 'done',
  'outcome.failed': 'failed',
  'outcome.rejected': 'you said no',
  'outcome.taken_over': 'stopped: you took over',
  'outcome.pending': 'in progress',
  reasonSeparator: '; ',
  evidence: 'picture of the page before asking you',
}

const zh: Partial<typeof en> = {
  title: 'Tandem 演示：一次脚本化购物，走真实的服务器、扩展和侧边栏',
  build: '正在构建服务器和扩展（npm run build）…',
  built: '构建完成，用时 {s} 秒。',
  server: '服务器监听 {url}，数据和审计保存在临时文件夹',
  shop: '演示商店：{url}',
  browser: '无头 Chromium（{chromium}）已加载扩展 {id}',
  settings: '扩展已连接到 {url}',
  started: '任务 {id} 已开始：{goal}',
  timeline: '时间线（序号 · 动作 · 目标 · 风险 · 结果 · 截图）：',
  status: '状态 {status}',
  waiting: '等待批准：{action}（风险 {risk}），原因：{reasons}',
  clicking: '在侧边栏（{url}）的确认卡片上点击“批准”',
  approved: '已在侧边栏批准：审计记录为你在浏览器 {client} 中批准',
  exported: '审计导出已保存到 {path}',
  summary: '总结',
  'summary.status': '任务状态',
  'summary.order': '已下订单',
  'summary.noOrder': '无',
  'summary.approval': '批准',
  'summary.approvalValue': '{count} 次，由你在侧边栏批准（浏览器 {client}）',
  'summary.chain': '审计哈希链',
  'summary.chainValue': '完好：{events} 个事件，每个文件的哈希和服务器的签名都核对无误',
  'summary.export': '审计导出',
  'summary.exportValue': '{path}（{events}，{artifacts} 张截图）',
  'summary.time': '用时',
  seconds: '{s} 秒',
  ok: '演示完成：整个流程可以正常工作。',
  failed: '演示在“{stage}”失败：{message}',
  interrupted: '已中断：正在停止服务器和浏览器并删除临时文件夹…',
  'stage.build': '构建',
  'stage.server': '启动服务器',
  'stage.shop': '启动演示商店',
  'stage.browser': '启动带扩展的 Chromium',
  'stage.task': '运行任务',
  'stage.approval': '在侧边栏批准',
  'stage.export': '下载审计导出',
  'stage.verify': '检查结果',
  'error.chromium': '在 {path} 找不到 Chromium：请安装（apt-get install -y chromium）或设置 TANDEM_CHROMIUM',
  'error.notBuilt': '缺少 {path}：请先运行 npm run build',
  'error.noCard': '任务等待批准时，侧边栏在 {s} 秒内没有显示确认卡片（data-testid="confirmation"）',
  'error.noButton': '确认卡片上没有名为 Approve 或“批准”的按钮',
  'error.notApproved': '点击“批准”没有到达服务器：任务仍在等待确认',
  'error.taskEnded': '任务以 {status} 结束：{detail}',
  'error.taskStuck': '{s} 秒后任务仍为 {status}',
  'error.orders': '商店有 {count} 个订单，应当恰好有一个 {buyer} 的 {product} 订单',
  'error.approvedBy': '批准记录来自 {by}，而不是客户端 {client} 的侧边栏',
  'error.export': '导出接口返回 HTTP {status}',
  'error.zip': '压缩包缺少 {what}',
  'error.chain': '审计校验失败：{verdict}',
  'risk.low': '低',
  'risk.medium': '中',
  'risk.high': '高',
  'outcome.done': '完成',
  'outcome.failed': '失败',
  'outcome.rejected': '你拒绝了',
  'outcome.taken_over': '已停止：你接管了',
  'outcome.pending': '进行中',
  reasonSeparator: '；',
  evidence: '征求你批准前拍下的页面',
}

/** The demo's words in both languages; the test keeps the Chinese complete. */
export const DEMO_TEXT = { en, 'zh-CN': zh }

export type DemoText = Translate<typeof en>
export type DemoStage = 'build' | 'server' | 'shop' | 'browser' | 'task' | 'approval' | 'export' | 'verify'

/** The terminal's language: the same choice `npm start` makes. */
export { terminalLang }

export const demoText = (lang: Lang = terminalLang()): DemoText => createTranslator(DEMO_TEXT, lang)

/** A failure that names the part of the demo it happened in, so the person knows where to look. */
export class DemoFailure extends Error {
  constructor(
    readonly stage: DemoStage,
    message: string,
  ) {
    super(message)
    this.name = 'DemoFailure'
  }
}
