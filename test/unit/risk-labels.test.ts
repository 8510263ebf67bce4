import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalIconName, classWords, iconNamesOfClass, iconWord } from '../../protocol/icon-names'
import { hasLetters } from '../../protocol/label-text'
import { judgeShortcut, wantsContext } from '../../protocol/risk-context'
import { createRiskPolicy } from '../../server/lib/policy/risk-policy'
import { elementFromTree } from '../../server/lib/tasks/tree-element'
import { classifyRisk, DEFAULT_RISK_RULES, describeRiskReason, ElementInfo, isGenericConfirm, normalizeLabel, RiskReason, type Risk, type RiskSubject } from '#protocol'

/** Elements as the extension's describeElement sends them (ElementInfo), in the shapes the common libraries render. */
type El = Omit<ElementInfo, 'index'>
const btn = (text: string, extra: Partial<El> = {}): El => ({ tag: 'button', role: 'button', text, ...extra })
const antd = (text: string, extra: Partial<El> = {}): El => btn(text, extra)
const iconBtn = (icon: string, extra: Partial<El> = {}): El => ({ tag: 'button', role: 'button', attributes: { icon }, ...extra })
const link = (text: string, href: string): El => ({ tag: 'a', role: 'link', text, attributes: { href } })
const inDialog = (el: El, dialog: string): El => ({ ...el, context: { ...el.context, dialog } })
const within = (el: El, widget: string): El => ({ ...el, context: { ...el.context, within: widget } })
const click = (element: El, url?: string): RiskSubject => ({ actionType: 'click', params: {}, element, ...(url ? { url } : {}) })
const press = (keys: string, element?: El): RiskSubject => ({ actionType: 'press', params: { keys }, ...(element ? { element } : {}) })

type Row = [name: string, subject: RiskSubject, expected: Risk]

const rows: Row[] = [
  // 1. Normalised text: antd's spaced CJK, full-width forms, zero-width characters, case
  ['antd 删 除', click(antd('删 除')), 'high'],
  ['antd 提 交', click(antd('提 交')), 'high'],
  ['antd 发 送', click(antd('发 送')), 'high'],
  ['antd 支 付', click(antd('支 付')), 'high'],
  ['antd 发 布', click(antd('发 布')), 'high'],
  ['antd 删 除 as aria-label', click({ tag: 'button', attributes: { 'aria-label': '删 除' } }), 'high'],
  ['full-width ＤＥＬＥＴＥ', click(btn('ＤＥＬＥＴＥ')), 'high'],
  ['full-width Ｓｅｎｄ！', click(btn('Ｓｅｎｄ！')), 'high'],
  ['zero-width inside Delete', click(btn('Del\u200bete')), 'high'],
  ['zero-width inside 删除', click(btn('删\u200b除')), 'high'],
  ['ideographic space 下　单', click(btn('下　单')), 'high'],
  ['antd 取 消 is low', click(antd('取 消')), 'low'],
  ['取消订阅 ends a subscription (a link)', click({ tag: 'a', text: '取消订阅', attributes: { href: '/subscription/cancel' } }), 'high'],
  ['取消自动续费', click(btn('取消自动续费')), 'high'],
  ['Cancel my membership', click(btn('Cancel my membership')), 'high'],
  ['订阅 alone stays medium', click(btn('订阅')), 'medium'],
  ['antd 搜 索 is low', click(antd('搜 索')), 'low'],
  ['spaced Latin letters stay apart: "P o s t"', click(btn('P o s t')), 'low'],
  // 2. Icon and emoji buttons
  ['antd anticon-delete', click(iconBtn('anticon-delete delete')), 'high'],
  ['antd DeleteOutlined', click(iconBtn('DeleteOutlined')), 'high'],
  ['antd anticon-send', click(iconBtn('anticon-send')), 'high'],
  ['Element el-icon-delete', click(iconBtn('el-icon-delete')), 'high'],
  ['Font Awesome fa-trash', click(iconBtn('fa-trash')), 'high'],
  ['Font Awesome fa-trash-can', click(iconBtn('fa-trash-can')), 'high'],
  ['Font Awesome fa-paper-plane', click(iconBtn('fa-paper-plane')), 'high'],
  ['MUI DeleteIcon', click(iconBtn('DeleteIcon')), 'high'],
  ['MUI SendIcon', click(iconBtn('SendIcon')), 'high'],
  ['MUI DeleteOutlineIcon', click(iconBtn('DeleteOutlineIcon')), 'high'],
  ['Bootstrap bi-trash3', click(iconBtn('bi-trash3')), 'high'],
  ['svg title trash', click(iconBtn('trash')), 'high'],
  ['credit-card icon pays', click(iconBtn('fa-credit-card')), 'high'],
  ['download icon', click(iconBtn('anticon-download')), 'high'],
  ['Material ligature text delete', click(btn('delete')), 'high'],
  ['Material ligature text send', click(btn('send')), 'high'],
  ['emoji 🗑️', click(btn('🗑️')), 'high'],
  ['emoji 🗑', click(btn('🗑')), 'high'],
  ['emoji ✉️', click(btn('✉️')), 'high'],
  ['emoji 📤', click(btn('📤')), 'high'],
  ['emoji 💳', click(btn('💳')), 'high'],
  ['emoji 🛒 is medium (add to cart)', click(btn('🛒')), 'medium'],
  ['cart icon is medium', click(iconBtn('ShoppingCartOutlined')), 'medium'],
  ['MUI CancelIcon (a chip\'s delete) is low', click(iconBtn('CancelIcon')), 'low'],
  ['antd close icon is low', click(iconBtn('anticon-close')), 'low'],
  ['search icon is low', click(iconBtn('anticon-search')), 'low'],
  ['menu icon is low', click(iconBtn('MenuIcon')), 'low'],
  ['an emoji in a sentence is not an icon button', click(link('Summer deals 🛒', '/deals')), 'low'],
  ['words with no risk word fall back to the icon: "Move to trash" + fa-trash', click(btn('Move to trash', { attributes: { icon: 'fa-trash' } })), 'high'],
  ['a worded button\'s own words win: "Add to cart" + cart icon', click(btn('Add to cart', { attributes: { icon: 'fa-cart-plus' } })), 'medium'],
  // 3. A generic confirm button reads its dialog
  ['antd modal 确 定: 删除后无法恢复', click(inDialog(antd('确 定'), '删除草稿 删除后无法恢复，确定要删除这篇草稿吗？')), 'high'],
  ['antd popconfirm OK: Delete this draft?', click(inDialog(antd('OK'), 'Delete this draft?')), 'high'],
  ['Element message box 确定: 此操作将永久删除该文件', click(inDialog(btn('确定'), '提示 此操作将永久删除该文件, 是否继续?')), 'high'],
  ['MUI dialog Yes: Send this message to 3 people?', click(inDialog(btn('Yes'), 'Send message? It goes to 3 people.')), 'high'],
  ['dialog Confirm: This cannot be undone', click(inDialog(btn('Confirm'), 'Are you sure? This cannot be undone.')), 'high'],
  ['dialog 好的: 确认支付 ¥99', click(inDialog(btn('好的'), '确认支付 ¥99.00')), 'high'],
  ['dialog Continue: Publish to everyone?', click(inDialog(btn('Continue'), 'Publish to everyone?')), 'high'],
  ['dialog 是: 确定要退出登录吗 is not high', click(inDialog(btn('是'), '确定要退出登录吗？')), 'medium'],
  ['dialog OK: Your changes were saved? no — "Welcome back"', click(inDialog(btn('OK'), 'Welcome back! Here is what changed.')), 'medium'],
  ['dialog 知道了: 提示 已复制链接', click(inDialog(btn('知道了'), '提示 已复制链接')), 'medium'],
  ['dialog OK after the fact: "Your post was published."', click(inDialog(btn('OK'), 'Your post was published.')), 'medium'],
  ['dialog 确定 after the fact: 保存成功', click(inDialog(antd('确 定'), '提示 保存成功')), 'medium'],
  ['dialog 确定 after the fact but irreversible still high', click(inDialog(antd('确 定'), '已删除 3 个文件，无法恢复')), 'high'],
  ['a question is never a report: "… have been found. Send them now?"', click(inDialog(btn('OK'), 'Saved drafts have been found. Send them now?')), 'high'],
  ['dialog cancel button is not judged by its dialog', click(inDialog(antd('取 消'), '删除后无法恢复')), 'low'],
  ['a delete button in a dialog is high by its own word', click(inDialog(btn('Delete'), 'Delete this draft?')), 'high'],
  ['date picker 确定 outside a dialog is low', click(within(antd('确 定'), 'date-picker')), 'low'],
  ['date picker OK is low', click(within(btn('OK'), 'date-picker')), 'low'],
  ['bare 确定 with no context is medium', click(btn('确定')), 'medium'],
  ['bare OK with no context is low', click(btn('OK')), 'low'],
  ['确认收货 is still high (more than a generic word)', click(btn('确认收货')), 'high'],
  ['Confirm order is still high', click(btn('Confirm order')), 'high'],
  ['a selector naming delete still counts beside a harmless OK', { actionType: 'click', params: {}, element: inDialog(btn('OK'), 'Done?'), selector: '#delete-all-ok' }, 'high'],
  // 4. Shortcuts are what they do
  ['Control+Enter', press('Control+Enter'), 'high'],
  ['Meta+Enter', press('Meta+Enter'), 'high'],
  ['Ctrl+Enter in a contenteditable chat box', press('Ctrl+Enter', { tag: 'div', role: 'textbox' }), 'high'],
  ['Enter in a textarea', press('Enter', { tag: 'textarea', role: 'textbox' }), 'medium'],
  ['Enter in a contenteditable', press('Enter', { tag: 'div', role: 'textbox' }), 'medium'],
  ['Delete on a selected mail row', press('Delete', { tag: 'tr', role: 'row' }), 'medium'],
  ['Backspace on a list with nothing focused', press('Backspace'), 'medium'],
  ['Delete on a checkbox (a selected row)', press('Delete', { tag: 'input', role: 'checkbox', attributes: { type: 'checkbox' } }), 'medium'],
  ['Backspace in a text field is editing', press('Backspace', { tag: 'input', role: 'textbox', attributes: { type: 'text' } }), 'low'],
  ['Delete in a textarea is editing', press('Delete', { tag: 'textarea', role: 'textbox' }), 'low'],
  ['Shift+Tab is low', press('Shift+Tab'), 'low'],
  // 5. Relaxed where the barrier makes it safe
  ['accordion "Payment & delivery"', click(btn('Payment & delivery', { attributes: { expanded: 'false' } })), 'low'],
  ['antd collapse header 支付与配送', click({ tag: 'div', role: 'button', text: '支付与配送', attributes: { expanded: 'true' } }), 'low'],
  ['<summary> Delete account (a settings section)', click({ tag: 'summary', role: 'button', text: 'Delete account', attributes: { expanded: 'false' } }), 'low'],
  ['an accordion button that submits its form is still a submit', click({ tag: 'button', text: 'Shipping', attributes: { type: 'submit', expanded: 'false' }, form: { isSearch: false } }), 'high'],
  ['Remove filter chip', click(btn('Remove filter: Red')), 'low'],
  ['MUI chip aria-label "Remove Size: M filter"', click({ tag: 'div', role: 'button', text: 'Size: M', attributes: { 'aria-label': 'Remove Size: M filter' } }), 'low'],
  ['清除筛选', click(btn('清除筛选')), 'low'],
  ['重置', click(btn('重 置')), 'low'],
  ['Clear all filters', click(btn('Clear all filters')), 'low'],
  ['filter dropdown Reset', click(within(btn('Reset'), 'filter')), 'low'],
  ['filter dropdown Apply', click(within(btn('Apply'), 'filter')), 'medium'],
  ['filter 应用', click(within(btn('应 用'), 'filter')), 'medium'],
  ['filter 筛选', click(btn('筛选')), 'low'],
  ['Delete saved filter stays high', click(btn('Delete saved filter')), 'high'],
  ['Remove item from cart stays high', click(btn('Remove')), 'high'],
  // A bare Apply is a filter's as often as an application's: asked about when what it sends is held.
  ['Apply (a job, or a filter) is medium', click(btn('Apply')), 'medium'],
  ['search form without action', click({ tag: 'button', text: 'Go', attributes: { type: 'submit' }, form: { isSearch: true } }), 'low'],
  ['non-search form submit stays high', click({ tag: 'button', text: 'Go', attributes: { type: 'submit' }, form: { isSearch: false } }), 'high'],
  ['javascript: link that expands a post', click(link('展开全文', 'javascript:')), 'low'],
  ['href="#" Read more', click(link('Read more', '#')), 'low'],
  ['javascript: URL opened by navigate stays high', { actionType: 'navigate', params: { url: 'javascript:void(0)' } }, 'high'],
  ['data: link stays high', click(link('Open', 'data:text/html,hi')), 'high'],
  // Still high: the truly irreversible
  ['Place order', click(btn('Place order')), 'high'],
  ['立即支付', click(btn('立即支付')), 'high'],
  ['Publish', click(btn('Publish')), 'high'],
  ['Grant access', click(btn('Grant access')), 'high'],
  ['Download report link with download attr', click({ tag: 'a', text: 'Report', attributes: { href: '/r.csv', download: '' } }), 'high'],
  ['password typing', { actionType: 'type', params: { text: 'x' }, element: { tag: 'input', attributes: { type: 'password' } } }, 'high'],
  ['Discard draft', click(btn('Discard draft')), 'high'],
]

describe('risk labels table (issue 12)', () => {
  it.each(rows)('%s → %s', (_name, subject, expected) => {
    const { risk, reasons, details } = classifyRisk(subject)
    expect(risk).toBe(expected)
    if (risk !== 'low') expect(reasons.length).toBeGreaterThan(0)
    expect(reasons).toEqual(details.map((d) => describeRiskReason(RiskReason.parse(d), 'en')))
  })

  it('has at least 50 cases, both high and harmless', () => {
    expect(rows.length).toBeGreaterThanOrEqual(50)
    expect(rows.filter((r) => r[2] === 'high').length).toBeGreaterThanOrEqual(20)
    expect(rows.filter((r) => r[2] !== 'high').length).toBeGreaterThanOrEqual(20)
  })

  it('uses elements the protocol accepts', () => {
    for (const [name, subject] of rows) if (subject.element) expect(ElementInfo.safeParse({ index: 0, ...subject.element }).success, name).toBe(true)
  })

  it('says which dialog a confirm answered, in both languages', () => {
    const { details } = classifyRisk(click(inDialog(antd('确 定'), '删除后无法恢复')))
    expect(details[0]).toMatchObject({ code: 'dialog-high', kind: 'deletion', dialog: '删除后无法恢复' })
    expect(describeRiskReason(details[0]!, 'zh-CN')).toContain('删除后无法恢复')
  })
})

describe('normalizeLabel', () => {
  it.each([
    ['删 除', '删除'], ['确  定', '确定'], ['ＯＫ', 'ok'], ['Ｄｅｌｅｔｅ！', 'delete!'], ['del\u200bete', 'delete'], ['\ufeff提交\u200d', '提交'],
    ['  Place   ORDER ', 'place order'], ['🗑️', '🗑'], ['删 除 all', '删除 all'], ['a b', 'a b'], ['ﾃｽﾄ', 'テスト'],
  ])('%s → %s', (input, expected) => expect(normalizeLabel(input)).toBe(expected))

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => normalizeLabel(normalizeLabel(s)) === normalizeLabel(s)))
  })

  it('spaces and zero-width characters inside a Chinese label never change its risk', () => {
    const labels = ['删除', '提交订单', '立即购买', '发送', '搜索', '取消', '查看详情', '确认收货']
    const noise = fc.constantFrom(' ', '  ', '\u200b', '\u3000', '\u200d', '')
    fc.assert(
      fc.property(fc.constantFrom(...labels), fc.array(noise, { minLength: 8, maxLength: 8 }), (label, gaps) => {
        const spaced = [...label].map((c, i) => (i ? gaps[i]! : '') + c).join('')
        return classifyRisk(click(btn(spaced))).risk === classifyRisk(click(btn(label))).risk
      }),
    )
  })

  it('tells letters from icons and emoji', () => {
    expect(hasLetters('删除')).toBe(true)
    expect(hasLetters('🗑️ ×')).toBe(false)
  })
})

describe('icon names', () => {
  it.each([
    ['anticon-delete', 'delete'], ['DeleteOutlined', 'delete'], ['delete_forever', 'delete-forever'], ['fa-trash-can', 'trash'],
    ['DeleteOutlineIcon', 'delete'], ['lucide-trash-2', 'trash'], ['mdi-delete-outline', 'delete'], ['send-outlined', 'send'],
  ])('%s → %s', (raw, name) => expect(canonicalIconName(raw)).toBe(name))

  it('reads icon classes and skips modifiers', () => {
    expect(iconNamesOfClass('fa fa-trash fa-fw fa-lg')).toEqual(['fa-trash'])
    expect(iconNamesOfClass('anticon anticon-send anticon-spin')).toEqual(['anticon-send'])
    expect(iconNamesOfClass('btn btn-primary')).toEqual([])
  })

  // A wordless control's own classes as its name; utility classes (a digit, a colon) and style words are none.
  it.each([
    ['icon more', 'more'], ['ql-underline', 'underline'], ['star on', 'star'], ['btn btn-close', 'close'],
    ['ui-datepicker-prev ui-corner-all', 'datepicker-previous'], ['fav', 'favorite'], ['msg-del', 'message-delete'], ['p-2 rounded-full hover:bg-gray-100', ''], ['icon active', ''],
  ])('class %j names %j', (className, name) => expect(classWords(className)).toBe(name))

  it('maps only names that mean one thing', () => {
    expect(iconWord('anticon-close CloseIcon CancelIcon')).toBeUndefined()
    expect(iconWord('anticon-search anticon-delete')).toBe('delete')
  })
})

describe('generic words and shortcuts', () => {
  it('knows a generic confirm when it sees one', () => {
    for (const label of ['OK', 'ＯＫ', '确 定', '确认', 'Yes!', '是', '好的', 'Continue', 'OK OK', '✅']) expect(isGenericConfirm(label), label).toBe(true)
    for (const label of ['Confirm order', '确认收货', 'OK, delete it', 'Okay then send']) expect(isGenericConfirm(label), label).toBe(false)
  })

  it('asks the page for context only where the words say too little', () => {
    expect(wantsContext('确 定')).toBe(true)
    expect(wantsContext('Apply')).toBe(true)
    expect(wantsContext('Remove filter')).toBe(true)
    expect(wantsContext('Payment & delivery')).toBe(false)
    expect(wantsContext('Place order')).toBe(false)
  })

  it('reads keys in any spelling', () => {
    expect(judgeShortcut('control + enter', undefined)?.risk).toBe('high')
    expect(judgeShortcut('Cmd+Return', undefined)?.risk).toBe('high')
    expect(judgeShortcut('Escape', undefined)).toBeUndefined()
  })
})

describe('the server judges from the observation alone', () => {
  const policy = createRiskPolicy(DEFAULT_RISK_RULES)
  const assess = (element: ElementInfo | undefined) => policy.assess({ type: 'click', params: {}, target: { by: 'index', value: 0 }, element }).risk

  it('reads an icon from the element tree line the model saw', () => {
    expect(assess(elementFromTree('[0]<button icon="anticon-delete delete">', 0))).toBe('high')
    expect(assess(elementFromTree('[0]<button icon=fa-paper-plane>', 0))).toBe('high')
    expect(assess(elementFromTree('[0]<button icon=anticon-search>', 0))).toBe('low')
    expect(assess(elementFromTree('[0]<button expanded=false>Payment & delivery', 0))).toBe('low')
  })

  it('reads a confirm button\'s dialog from the observation\'s elements', () => {
    const observed = ElementInfo.parse({ index: 0, tag: 'button', role: 'button', text: '确 定', context: { dialog: '删除后无法恢复' } })
    expect(assess(observed)).toBe('high')
    expect(assess({ ...observed, context: { within: 'date-picker' } })).toBe('low')
  })

  it('keeps an observation with a widget it does not know', () => {
    const observed = ElementInfo.parse({ index: 0, tag: 'button', text: '确定', context: { within: 'colour-picker' } })
    expect(assess(observed)).toBe('medium')
  })
})
