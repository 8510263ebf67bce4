import { describe, expect, it } from 'vitest'
import {
  classifyRisk,
  describeRiskKind,
  describeRiskReason,
  riskReasonsIn,
  RiskKind,
  RiskReason,
  RiskReasonCode,
  RiskRules,
  type ElementLike,
  type RiskReasonCode as Code,
  type RiskRulesInput,
  type RiskSubject,
} from '#protocol'

const button = (text: string): ElementLike => ({ tag: 'button', text, attributes: { type: 'button' } })
const link = (text: string, href: string, extra: Record<string, string> = {}): ElementLike => ({ tag: 'a', text, attributes: { href, ...extra } })
const field = (attributes: Record<string, string>, form?: ElementLike['form']): ElementLike => ({ tag: 'input', attributes, ...(form ? { form } : {}) })
const click = (element: ElementLike, url?: string): RiskSubject => ({ actionType: 'click', params: {}, element, url })

/** [subject, rules, the detail classifyRisk raises, its English sentence (as it always was), its Chinese one] */
type Row = [RiskSubject, RiskRulesInput, RiskReason, string, string]

/** Every code classifyRisk raises; held-write comes from the write barrier, not from the rules (tested below). */
const rows: Record<Exclude<Code, 'held-write' | 'off-plan-site' | 'off-plan-send'>, Row[]> = {
  'label-high': [
    [click(button('Place order')), {}, { code: 'label-high', label: 'Place order', kind: 'payment' },
      'clicks "Place order", which looks like a purchase or payment', '点击“Place order”，看起来像购买或付款'],
    [click(button('删除商品')), {}, { code: 'label-high', label: '删除商品', kind: 'deletion' },
      'clicks "删除商品", which looks like deleting or cancelling something', '点击“删除商品”，看起来像删除或取消某些内容'],
  ],
  'label-rules': [
    [click(button('Archive all')), { high: { keywords: ['Archive'] } }, { code: 'label-rules', label: 'Archive all', keyword: 'Archive' },
      'clicks "Archive all", which your rules mark as high-risk ("Archive")', '点击“Archive all”，你的规则将其标为高风险（“Archive”）'],
  ],
  'label-medium': [
    [click(button('Add to cart')), {}, { code: 'label-medium', label: 'Add to cart', keyword: 'add to cart' },
      'clicks "Add to cart" ("add to cart")', '点击“Add to cart”（“add to cart”）'],
    [click(button('Star it')), { medium: { keywords: ['star'] } }, { code: 'label-medium', label: 'Star it', keyword: 'star' },
      'clicks "Star it" ("star")', '点击“Star it”（“star”）'],
  ],
  'dangerous-scheme': [
    [{ actionType: 'navigate', params: { url: 'javascript:alert(1)' } }, {}, { code: 'dangerous-scheme', via: 'open', scheme: 'javascript' },
      'opens a javascript: URL, which can run code or read local files', '打开 javascript: 网址，它可能运行代码或读取本地文件'],
    [click(link('Go', 'file:///etc/passwd')), {}, { code: 'dangerous-scheme', via: 'link', scheme: 'file' },
      'follows a link to a file: URL, which can run code or read local files', '通过链接打开 file: 网址，它可能运行代码或读取本地文件'],
  ],
  'upload-file': [
    [{ actionType: 'upload', params: { file: 'cv.pdf' }, element: button('Upload') }, {}, { code: 'upload-file', file: 'cv.pdf' },
      'uploads the file "cv.pdf" from your upload folder to the site', '把上传文件夹中的文件“cv.pdf”上传到网站'],
  ],
  'download-url': [
    [{ actionType: 'navigate', params: { url: 'https://x.example/app.dmg?v=2' } }, {}, { code: 'download-url', via: 'open', file: 'app.dmg' },
      'opens a file download (app.dmg)', '打开并下载文件（app.dmg）'],
    [click(link('Get it', 'https://x.example/setup.exe')), {}, { code: 'download-url', via: 'link', file: 'setup.exe' },
      'follows a link to a file download (setup.exe)', '通过链接下载文件（setup.exe）'],
  ],
  'url-rules-high': [
    [{ actionType: 'navigate', params: { url: 'https://x.example/admin/users' } }, { high: { urlPatterns: ['/admin/'] } }, { code: 'url-rules-high', via: 'open' },
      'opens a URL your rules mark as high-risk', '打开你的规则标为高风险的网址'],
  ],
  'url-rules-medium': [
    [click(link('Beta', 'https://x.example/beta/new')), { medium: { urlPatterns: ['/beta/'] } }, { code: 'url-rules-medium', via: 'link' },
      'follows a link to a URL your rules mark as risky', '通过链接打开你的规则标为有风险的网址'],
  ],
  'selector-rules-high': [
    [{ actionType: 'click', params: {}, selector: 'div.danger > a' }, { high: { selectors: ['.danger'] } }, { code: 'selector-rules-high', selector: '.danger' },
      'targets .danger, which your rules mark as high-risk', '操作 .danger，你的规则将其标为高风险'],
  ],
  'selector-rules-medium': [
    [{ actionType: 'click', params: {}, selector: 'span.warn' }, { medium: { selectors: ['.warn'] } }, { code: 'selector-rules-medium' },
      'targets an element your rules mark as risky', '操作你的规则标为有风险的元素'],
  ],
  'submit-selector': [
    [{ actionType: 'click', params: {}, selector: 'form#checkout button[type=submit]' }, {}, { code: 'submit-selector' },
      'clicks a submit button, which sends a form', '点击提交按钮，会发送表单'],
  ],
  'download-attr': [
    [click(link('Report', '/r.pdf', { download: '' })), {}, { code: 'download-attr' }, 'starts a download', '开始下载'],
  ],
  'submit-form': [
    [click({ tag: 'button', text: 'Go', attributes: { type: 'submit' }, form: { isSearch: false } }), {}, { code: 'submit-form' },
      'submits a form, which sends what was entered', '提交表单，会发送已填写的内容'],
  ],
  'submit-get-form': [
    [click({ tag: 'button', text: 'Go', attributes: { type: 'submit' }, form: { isSearch: false, method: 'get', action: '/products' } }), {}, { code: 'submit-get-form' },
      'submits a form that asks for a page with what was entered (GET)', '提交一个用所填内容获取页面的表单（GET）'],
  ],
  'form-action': [
    [click({ tag: 'button', text: 'OK', attributes: { type: 'button' }, form: { isSearch: false, action: '/account/delete' } }), {}, { code: 'form-action', kind: 'deletion' },
      'presses a button in a form whose address looks like deleting or cancelling something', '点击表单中的按钮，该表单的地址看起来像删除或取消某些内容'],
    [click({ tag: 'button', text: '好的', attributes: { type: 'button' }, form: { isSearch: false, action: 'https://pay.example/checkout?order=1' } }), {}, { code: 'form-action', kind: 'payment' },
      'presses a button in a form whose address looks like a purchase or payment', '点击表单中的按钮，该表单的地址看起来像购买或付款'],
  ],
  'setting-toggle': [
    [click({ tag: 'input', attributes: { type: 'checkbox' }, text: 'Public profile' }, 'https://x.example/settings/privacy'), {}, { code: 'setting-toggle' },
      'changes a setting or permission', '更改设置或权限'],
  ],
  'option-toggle': [
    [click({ tag: 'input', attributes: { type: 'checkbox' }, text: 'Remember me' }, 'https://x.example/login'), {}, { code: 'option-toggle' },
      'changes an option', '更改选项'],
  ],
  'credential-field': [
    [{ actionType: 'type', params: { text: 'pw' }, element: field({ type: 'password' }) }, {}, { code: 'credential-field' },
      'enters a password or payment detail', '输入密码或支付信息'],
  ],
  secret: [
    [{ actionType: 'type', params: { text: '{{secret:SHOP_PASSWORD}}' }, element: field({ type: 'text' }) }, {}, { code: 'secret' },
      'enters a secret (a credential)', '输入机密信息（凭据）'],
  ],
  'submit-search': [
    [{ actionType: 'type', params: { text: 'iPhone 15', submit: true }, element: field({ type: 'text', name: 'q' }) }, {}, { code: 'submit-search' },
      'types and submits a search', '输入并提交搜索'],
  ],
  'submit-form-typed': [
    [{ actionType: 'type', params: { text: 'x', submit: true }, element: field({ type: 'text', name: 'comment' }, { isSearch: false }) }, {}, { code: 'submit-form-typed' },
      'types and submits a form, which sends what was entered', '输入并提交表单，会发送已填写的内容'],
  ],
  'form-typing': [
    [{ actionType: 'type', params: { text: 'Alice' }, element: field({ type: 'text', name: 'name' }, { isSearch: false }) }, {}, { code: 'form-typing' },
      'types into a form', '在表单中输入'],
  ],
  'select-settings': [
    [{ actionType: 'select', params: { option: 'en' }, element: { tag: 'select', text: 'Language' }, url: 'https://x.example/settings' }, {}, { code: 'select-settings' },
      'changes an option on a settings page', '在设置页面上更改选项'],
  ],
  'press-enter': [
    [{ actionType: 'press', params: { keys: 'Enter' } }, {}, { code: 'press-enter' }, 'presses Enter, which may submit a form', '按回车键，可能会提交表单'],
  ],
  'press-send': [
    [{ actionType: 'press', params: { keys: 'Meta+Enter' } }, {}, { code: 'press-send', kind: 'sending' },
      'presses Ctrl/Cmd+Enter, which sends a message in most chat and mail apps', '按 Ctrl/Cmd+回车键，在多数聊天和邮件应用中会发送消息'],
  ],
  'press-enter-message': [
    [{ actionType: 'press', params: { keys: 'Enter' }, element: { tag: 'textarea' } }, {}, { code: 'press-enter-message' },
      'presses Enter in a message box, which may send it', '在消息输入框中按回车键，可能会发送消息'],
  ],
  'drop-high': [
    [{ actionType: 'drag', params: { to: 2 }, element: { tag: 'li', text: 'Delete old invoices' }, dropTarget: { tag: 'div', text: 'Trash' } }, {},
      { code: 'drop-high', label: 'Trash', kind: 'deletion' },
      'drops onto "Trash", which looks like deleting or cancelling something', '拖放到“Trash”上，看起来像删除或取消某些内容'],
  ],
  'drop-rules': [
    [{ actionType: 'drag', params: { to: 2 }, element: { tag: 'li', text: 'Card' }, dropTarget: { tag: 'div', text: 'Archive' } }, { high: { keywords: ['Archive'] } },
      { code: 'drop-rules', label: 'Archive', keyword: 'Archive' },
      'drops onto "Archive", which your rules mark as high-risk ("Archive")', '拖放到“Archive”上，你的规则将其标为高风险（“Archive”）'],
  ],
  'press-delete': [
    [{ actionType: 'press', params: { keys: 'Delete' }, element: { tag: 'tr', role: 'row' } }, {}, { code: 'press-delete', kind: 'deletion' },
      'presses Delete outside a text field, which may delete what is selected', '在文本框外按删除键，可能会删除选中的内容'],
  ],
  'icon-high': [
    [click({ tag: 'button', attributes: { type: 'button', icon: 'anticon-delete' } }), {}, { code: 'icon-high', label: 'anticon-delete', kind: 'deletion' },
      'clicks an icon button ("anticon-delete"), which looks like deleting or cancelling something', '点击图标按钮（“anticon-delete”），看起来像删除或取消某些内容'],
    [click(button('📤')), {}, { code: 'icon-high', label: '📤', kind: 'sending' },
      'clicks an icon button ("📤"), which looks like sending something', '点击图标按钮（“📤”），看起来像发送内容'],
  ],
  'icon-medium': [
    [click({ tag: 'button', attributes: { type: 'button', icon: 'ShoppingCartIcon' } }), {}, { code: 'icon-medium', label: 'ShoppingCartIcon', keyword: 'add to cart' },
      'clicks an icon button ("ShoppingCartIcon")', '点击图标按钮（“ShoppingCartIcon”）'],
  ],
  'dialog-high': [
    [click({ ...button('确 定'), context: { dialog: '删除后无法恢复，确定删除吗？' } }), {}, { code: 'dialog-high', label: '确 定', dialog: '删除后无法恢复，确定删除吗？', kind: 'deletion' },
      'clicks "确 定" in a dialog that says "删除后无法恢复，确定删除吗？", which looks like deleting or cancelling something',
      '在内容为“删除后无法恢复，确定删除吗？”的对话框中点击“确 定”，看起来像删除或取消某些内容'],
  ],
  'dialog-confirm': [
    [click({ ...button('OK'), context: { dialog: 'Leave this page?' } }), {}, { code: 'dialog-confirm', label: 'OK', dialog: 'Leave this page?' },
      'clicks "OK" in a dialog that says "Leave this page?"', '在内容为“Leave this page?”的对话框中点击“OK”'],
  ],
  'generic-confirm': [
    [click(button('确定')), {}, { code: 'generic-confirm', label: '确定' }, 'clicks "确定", which confirms whatever is on screen', '点击“确定”，会确认当前屏幕上的内容'],
  ],
  declared: [
    [{ actionType: 'scroll', params: {}, declared: 'high' }, {}, { code: 'declared', level: 'high' },
      'marked high-risk by the planner or the script', '被规划器或脚本标为高风险'],
    [{ actionType: 'click', params: { risk: 'medium' }, element: button('Show more') }, {}, { code: 'declared', level: 'medium' },
      'marked medium-risk by the planner or the script', '被规划器或脚本标为中风险'],
  ],
}

const table = Object.entries(rows).flatMap(([code, list]) => list.map((row, i) => [`${code} #${i + 1}`, ...row] as const))

describe('risk reasons in both languages', () => {
  it('has a row for every reason classifyRisk raises', () => {
    expect(Object.keys(rows).sort()).toEqual(RiskReasonCode.options.filter((c) => !['held-write', 'off-plan-site', 'off-plan-send'].includes(c)).sort())
  })

  it('says what a held write tried to send, in both languages', () => {
    const detail = RiskReason.parse({ code: 'held-write', method: 'POST', site: 'https://shop.test', path: '/api/drafts/7' })
    expect(describeRiskReason(detail, 'en')).toBe(
      'the page tried to send POST to https://shop.test/api/drafts/7 while the step ran; it was held before it left the browser',
    )
    expect(describeRiskReason(detail, 'zh-CN')).toBe('执行这一步时，页面试图向 https://shop.test/api/drafts/7 发送 POST 请求；请求在离开浏览器前被拦下')
  })

  it('says how a step leaves an approved plan, in both languages', () => {
    const site = RiskReason.parse({ code: 'off-plan-site', site: 'localhost:3000' })
    expect(describeRiskReason(site, 'en')).toBe('works on localhost:3000, a site the plan you approved does not name')
    expect(describeRiskReason(site, 'zh-CN')).toBe('在 localhost:3000 上操作，你批准的计划中没有这个网站')
    const send = RiskReason.parse({ code: 'off-plan-send', kind: 'deletion' })
    expect(describeRiskReason(send, 'en')).toBe('looks like deleting or cancelling something, which the plan you approved does not say it will do')
    expect(describeRiskReason(send, 'zh-CN')).toBe('看起来像删除或取消某些内容，你批准的计划中没有说会这样做')
  })

  it.each(table)('%s', (_name, subject, rules, detail, english, chinese) => {
    const assessed = classifyRisk(subject, RiskRules.parse(rules))
    const at = assessed.details.findIndex((d) => d.code === detail.code)
    expect(assessed.details[at]).toEqual(detail)
    // The English sentence is the one the policy always wrote, in `reasons` at the same place.
    expect(assessed.reasons[at]).toBe(english)
    expect(describeRiskReason(detail, 'en')).toBe(english)
    expect(describeRiskReason(detail, 'zh-CN')).toBe(chinese)
    expect(RiskReason.parse(JSON.parse(JSON.stringify(detail)))).toEqual(detail)
  })

  it.each(RiskKind.options)('says what a %s label looks like in both languages', (kind) => {
    const en = describeRiskKind(kind, 'en')
    const zh = describeRiskKind(kind, 'zh-CN')
    expect(en).toMatch(/^[a-z -]+$/)
    expect(zh).toMatch(/^[\u4e00-\u9fff]+$/)
    expect(describeRiskReason({ code: 'label-high', label: 'X', kind }, 'zh-CN')).toBe(`点击“X”，看起来像${zh}`)
  })

  it('gives every built-in high-risk word a kind', () => {
    for (const word of ['Send', 'Delete', 'Publish', 'Authorize', 'Transfer', 'Sign', 'Save', 'Download', 'Deploy', 'Pay', '上传', '签约']) {
      const { details } = classifyRisk(click(button(word)))
      expect(details[0]).toMatchObject({ code: 'label-high', label: word })
      expect(details[0].kind).toBeDefined()
    }
  })

  it('keeps one detail per distinct sentence, in the order of the reasons', () => {
    const { reasons, details } = classifyRisk(
      { actionType: 'click', params: { risk: 'high' }, selector: 'form#checkout button[type=submit]', element: { tag: 'button', text: 'Pay now', attributes: { type: 'submit' }, form: {} } },
    )
    expect(details.map((d) => d.code)).toEqual(['label-high', 'submit-selector', 'submit-form'])
    expect(reasons).toEqual(details.map((d) => describeRiskReason(d, 'en')))
  })

  it('shows the details in the reader\'s language, else the English sentences', () => {
    const { reasons, details } = classifyRisk(click(button('Place order')))
    expect(riskReasonsIn('zh-CN', reasons, details)).toEqual(['点击“Place order”，看起来像购买或付款'])
    expect(riskReasonsIn('en', reasons, details)).toEqual(reasons)
    expect(riskReasonsIn('zh-CN', ['an older reason'], undefined)).toEqual(['an older reason'])
    expect(riskReasonsIn('zh-CN', ['an older reason'], [])).toEqual(['an older reason'])
  })
})
