/** Rich-text editors, drag and drop, plain uploads, results in a new tab, hover menus. */
import type { Page } from 'playwright-core'
import { pointerDrag as drag } from '../../support/pointer-drag'
import type { Task } from '../types'

const press = (p: Page, name: string | RegExp) => p.getByRole('button', { name, exact: true }).click()
const ITEM = { '/item/1': 'item', '/item/2': 'item', '/item/3': 'item' }

export const EDITORS: Task[] = [
  { id: 'tiptap', family: 'rich-text', entry: 'editors', lang: 'zh', title: '写公告', goal: '在正文里写“周五下午三点开会”，然后发布', needs: ['trusted-input'],
    plan: [{ type: 'type', find: '正文', text: '周五下午三点开会' }, { type: 'click', find: '发布' }],
    baseline: async (p) => { await p.getByLabel('正文').fill('周五下午三点开会'); await press(p, '发布') },
    expect: { request: 'POST /submit', contains: ['<p>周五下午三点开会</p>'] } },
  { id: 'tiptap-bold', page: 'tiptap', family: 'rich-text', entry: 'editors', lang: 'zh', title: '写公告', goal: '正文写“重要通知”并加粗，然后发布', needs: ['trusted-input'],
    plan: [{ type: 'click', find: '加粗' }, { type: 'type', find: '正文', text: '重要通知' }, { type: 'click', find: '发布' }],
    baseline: async (p) => { await press(p, '加粗'); await p.getByLabel('正文').pressSequentially('重要通知'); await press(p, '发布') },
    expect: { request: 'POST /submit', contains: ['<strong>重要通知</strong>'] } },
  { id: 'quill', family: 'rich-text', entry: 'editors', lang: 'en', title: 'Reply', goal: 'Reply "Thanks, see you Monday" and post it', needs: ['names', 'trusted-input'],
    plan: [{ type: 'type', find: ['Write your reply', 'textbox'], text: 'Thanks, see you Monday' }, { type: 'click', find: 'Post reply' }],
    baseline: async (p) => { await p.locator('.ql-editor').fill('Thanks, see you Monday'); await press(p, 'Post reply') },
    expect: { request: 'POST /submit', contains: ['Thanks, see you Monday'] } },
  // Selecting by keys: Shift+Arrow marks the last two characters, which the toolbar then makes bold.
  { id: 'tiptap-shift-select', page: 'tiptap', family: 'rich-text', entry: 'editors', lang: 'zh', title: '写公告', goal: '正文写“周五下午三点开会”，只把“开会”加粗，然后发布', needs: ['trusted-input'],
    plan: [{ type: 'type', find: '正文', text: '周五下午三点开会' }, { type: 'press', keys: 'Shift+ArrowLeft' }, { type: 'press', keys: 'Shift+ArrowLeft' }, { type: 'click', find: '加粗' }, { type: 'click', find: '发布' }],
    baseline: async (p) => { await p.getByLabel('正文').fill('周五下午三点开会'); await p.keyboard.press('Shift+ArrowLeft'); await p.keyboard.press('Shift+ArrowLeft'); await press(p, '加粗'); await press(p, '发布') },
    expect: { request: 'POST /submit', contains: ['<p>周五下午三点<strong>开会</strong></p>'] } },
  // Select all, copy, go to the end and paste: the reply says it twice.
  { id: 'quill-copy-paste', page: 'quill', family: 'rich-text', entry: 'editors', lang: 'en', title: 'Reply', goal: 'Reply "Thanks!", then copy it and paste it after itself, and post it', needs: ['names', 'trusted-input'],
    plan: [{ type: 'type', find: ['Write your reply', 'textbox'], text: 'Thanks!' }, { type: 'press', keys: 'Control+A' }, { type: 'press', keys: 'Control+C' }, { type: 'press', keys: 'End' }, { type: 'press', keys: 'Control+V' }, { type: 'click', find: 'Post reply' }],
    baseline: async (p) => { await p.locator('.ql-editor').fill('Thanks!'); for (const k of ['Control+A', 'Control+C', 'End', 'Control+V']) await p.keyboard.press(k); await press(p, 'Post reply') },
    expect: { request: 'POST /submit', contains: ['Thanks!Thanks!'] } },
]

export const DND: Task[] = [
  { id: 'dnd-kit', family: 'drag-and-drop', entry: 'dnd', lang: 'zh', title: '待办', goal: '把“整理发票”拖到最前面，保存顺序', needs: ['drag', 'trusted-input'],
    plan: [{ type: 'drag', find: '整理发票', to: '写周报' }, { type: 'click', find: '保存顺序' }],
    baseline: async (p) => { await drag(p, '整理发票', '写周报'); await press(p, '保存顺序') },
    expect: { request: 'POST /submit', body: { order: ['整理发票', '写周报', '回复客户邮件', '预订会议室'] } } },
  { id: 'html5-drag', family: 'drag-and-drop', entry: 'dnd', lang: 'zh', title: '审批看板', goal: '把“报销单”拖到已完成，保存看板', needs: ['drag'],
    plan: [{ type: 'drag', find: '报销单', to: '已完成' }, { type: 'click', find: '保存看板' }],
    baseline: async (p) => { await p.getByText('报销单').dragTo(p.getByRole('region', { name: '已完成' })); await press(p, '保存看板') },
    expect: { request: 'POST /submit', body: { 待处理: ['合同审批', '请假申请'], 已完成: ['报销单'] } } },
]

export const UPLOADS: Task[] = [
  { id: 'plain-upload', family: 'upload', entry: 'plain', lang: 'zh', title: '在线应聘', goal: '上传简历 resume.pdf 并提交申请', needs: ['upload'],
    plan: [{ type: 'upload', find: ['简历', '简历（PDF）'], file: 'resume.pdf' }, { type: 'click', find: '提交申请' }],
    baseline: async (p, files) => { await p.getByLabel('简历').setInputFiles(`${files}/resume.pdf`); await press(p, '提交申请') },
    expect: { request: 'POST /upload', contains: ['filename="resume.pdf"', '前端工程师'] } },
]

/** A result that opens in a new tab: the rest of the task happens there. */
const inNewTab = async (p: Page, open: () => Promise<void>) => {
  const next = p.context().waitForEvent('page')
  await open()
  const tab = await next
  await tab.waitForLoadState()
  return tab
}

export const NEW_TAB: Task[] = [
  { id: 'newtab-link', family: 'new-tab', entry: 'plain', lang: 'zh', title: '搜索结果', goal: '打开“机械键盘 K8”，把它加入购物车', needs: ['new-tab'], pages: ITEM,
    plan: [{ type: 'click', find: '机械键盘 K8' }, { type: 'click', find: '加入购物车' }],
    baseline: async (p) => { const tab = await inNewTab(p, () => p.getByRole('link', { name: '机械键盘 K8' }).click()); await tab.getByRole('button', { name: '加入购物车' }).click() },
    expect: { request: 'POST /cart', body: { item: 2 } } },
  { id: 'newtab-open', family: 'new-tab', entry: 'plain', lang: 'zh', title: '热销', goal: '打开“便携显示器 15.6 英寸”，把它加入购物车', needs: ['new-tab'], pages: ITEM,
    plan: [{ type: 'click', find: '便携显示器 15.6 英寸' }, { type: 'click', find: '加入购物车' }],
    baseline: async (p) => { const tab = await inNewTab(p, () => p.getByText('便携显示器 15.6 英寸').click()); await tab.getByRole('button', { name: '加入购物车' }).click() },
    expect: { request: 'POST /cart', body: { item: 3 } } },
  { id: 'switch-tab', family: 'new-tab', entry: 'plain', lang: 'zh', title: '确认订单', goal: '先看一下配送说明，再回到订单页提交订单', needs: ['new-tab', 'switch_tab'], pages: { '/help': 'help' },
    plan: [{ type: 'click', find: '查看配送说明' }, { type: 'switch_tab', path: '/' }, { type: 'click', find: '提交订单' }],
    baseline: async (p) => { const tab = await inNewTab(p, () => p.getByRole('link', { name: '查看配送说明' }).click()); await tab.getByText('配送说明').first().waitFor(); await p.bringToFront(); await press(p, '提交订单') },
    expect: { request: 'POST /order', body: { item: 2 }, also: ['GET /help'] } },
  { id: 'close-tab', family: 'new-tab', entry: 'plain', lang: 'zh', title: '开通服务', goal: '看过服务条款后关掉它，勾选我已阅读并确认开通', needs: ['new-tab', 'close_tab'], pages: { '/terms': 'terms' },
    plan: [{ type: 'click', find: '服务条款' }, { type: 'close_tab' }, { type: 'click', find: '我已阅读' }, { type: 'click', find: '确认开通' }],
    baseline: async (p) => {
      const tab = await inNewTab(p, () => p.getByRole('link', { name: '服务条款' }).click()); await tab.close(); await p.getByLabel('我已阅读').check(); await press(p, '确认开通')
    },
    expect: { request: 'POST /submit', body: { agreed: true }, also: ['POST /terms/closed'] } },
]

export const HOVER: Task[] = [
  { id: 'hover-nav', family: 'hover', entry: 'plain', lang: 'zh', title: '官网', goal: '打开产品菜单里的企业版页面', needs: ['hover'],
    plan: [{ type: 'hover', find: '产品' }, { type: 'click', find: '企业版' }],
    baseline: async (p) => { await p.getByRole('listitem').filter({ hasText: '企业版' }).first().hover(); await p.getByRole('link', { name: '企业版' }).click(); await p.waitForURL(/enterprise/) },
    expect: { request: 'GET /enterprise' } },
  { id: 'hover-card', family: 'hover', entry: 'plain', lang: 'zh', title: '文章', goal: '关注这篇文章的作者', needs: ['hover'],
    plan: [{ type: 'hover', find: '林小雨' }, { type: 'click', find: '关注' }],
    baseline: async (p) => { await p.getByText('林小雨', { exact: true }).hover(); await press(p, '关注') },
    expect: { request: 'POST /follow', body: { author: '林小雨' } } },
]
