import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyRisk, describeRiskReason, findKeyword, RiskReason, RiskRules, type ElementLike, type Risk } from '#protocol'
import { loadRiskRules } from '../../server/lib/policy/load-rules'
import { createRiskPolicy } from '../../server/lib/policy/risk-policy'

const button = (text: string, extra: Partial<ElementLike> = {}): ElementLike => ({ tag: 'button', text, attributes: { type: 'button' }, ...extra })
const input = (attributes: Record<string, string>, extra: Partial<ElementLike> = {}): ElementLike => ({ tag: 'input', attributes, ...extra })
const inForm = (el: ElementLike, isSearch = false): ElementLike => ({ ...el, form: { isSearch } })

type Row = [string, Parameters<typeof classifyRisk>[0], Risk]
const click = (element: ElementLike, url?: string) => ({ actionType: 'click' as const, params: {}, element, url })
const clickText = (targetText: string) => ({ actionType: 'click' as const, params: {}, targetText })

const rows: Row[] = [
  // English labels
  ['Place order', click(button('Place order')), 'high'],
  ['Buy now', click(button('Buy now')), 'high'],
  ['Pay £12.00', click(button('Pay £12.00')), 'high'],
  ['Proceed to checkout', click(button('Proceed to checkout')), 'high'],
  ['Send', click(button('Send')), 'high'],
  ['Send feedback form', click(button('Send feedback form')), 'high'],
  ['Delete repository', click(button('Delete repository')), 'high'],
  ['Remove item', click(button('Remove item')), 'high'],
  ['Publish post', click(button('Publish')), 'high'],
  ['Post (word)', click(button('Post')), 'high'],
  ['Postcode lookup is not "post"', click(button('Postcode lookup')), 'low'],
  ['Posted by is not "post"', click({ tag: 'a', text: 'Posted by alice', attributes: { href: '/u/alice' } }), 'low'],
  ['Authorize app', click(button('Authorize app')), 'high'],
  ['Grant access', click(button('Grant access')), 'high'],
  ['Confirm transfer', click(button('Confirm transfer')), 'high'],
  ['Withdraw funds', click(button('Withdraw funds')), 'high'],
  ['Unsubscribe', click(button('Unsubscribe')), 'high'],
  ['Save settings', click(button('Save settings')), 'high'],
  ['aria-label only', click({ tag: 'button', attributes: { 'aria-label': 'Delete message' } }), 'high'],
  ['input value', click(input({ type: 'button', value: 'Submit payment' })), 'high'],
  ['title only', click({ tag: 'div', role: 'button', attributes: { title: 'Send now' } }), 'high'],
  ['uppercase SUBMIT', click(button('SUBMIT')), 'high'],
  ['Add to cart is medium', click(button('Add to cart')), 'medium'],
  ['Sign in is medium', click(button('Sign in')), 'medium'],
  ['Next is medium', click(button('Next')), 'medium'],
  // Applying sends an application, which the write barrier holds; the word alone no longer asks before the click.
  ['Apply (an application) is medium', click(button('Apply')), 'medium'],
  ['Apply now is medium', click(button('Apply now')), 'medium'],
  ['Apply coupon is only medium', click(button('Apply coupon')), 'medium'],
  ['Apply filters is only medium', click(button('Apply filters')), 'medium'],
  ['Reset password is high', click(button('Reset password')), 'high'],
  ['Reset filters is low', click(button('Reset filters')), 'low'],
  ['Sign (a document) is high', click(button('Sign')), 'high'],
  ['Sign contract is high', click(button('Sign contract')), 'high'],
  ['Sign in is not signing', click(button('Sign in with Google')), 'medium'],
  ['Sign in and delete is still high', click(button('Sign in and delete account')), 'high'],
  ['Designer is not "sign"', click(button('Designer shoes')), 'low'],
  ['Check out (two words)', click(button('Check out')), 'high'],
  ['Search is low', click(button('Search')), 'low'],
  ['Home link is low', click({ tag: 'a', text: 'Home', attributes: { href: '/' } }), 'low'],
  ['Show more is low', click(button('Show more')), 'low'],
  ['Sort by price is low', click(button('Sort by price')), 'low'],
  // Chinese labels
  ['提交', click(button('提交')), 'high'],
  ['提交订单', click(button('提交订单')), 'high'],
  ['立即购买', click(button('立即购买')), 'high'],
  ['去结算', click(button('去结算')), 'high'],
  ['确认付款', click(button('确认付款')), 'high'],
  ['支付', click(button('支付')), 'high'],
  ['下单', click(button('下单')), 'high'],
  ['发送邮件', click(button('发送邮件')), 'high'],
  ['删除商品', click(button('删除商品')), 'high'],
  ['发布微博', click(button('发布微博')), 'high'],
  ['授权登录', click(button('授权登录')), 'high'],
  ['转账', click(button('转账')), 'high'],
  ['立即签约', click(button('立即签约')), 'high'],
  ['移除收藏', click(button('移除收藏')), 'high'],
  ['确认收货', click(button('确认收货')), 'high'],
  ['保存设置', click(button('保存设置')), 'high'],
  ['注销账号', click(button('注销账号')), 'high'],
  ['加入购物车 is medium', click(button('加入购物车')), 'medium'],
  ['登录 is medium', click(button('登录')), 'medium'],
  ['搜索 is low', click(button('搜索')), 'low'],
  ['首页 is low', click({ tag: 'a', text: '首页', attributes: { href: '/' } }), 'low'],
  ['查看详情 is low', click(button('查看详情')), 'low'],
  // Form structure
  ['submit button of a form', click(inForm({ tag: 'button', text: 'Go', attributes: { type: 'submit' } })), 'high'],
  ['button without type in a form', click(inForm({ tag: 'button', text: 'Go' })), 'high'],
  ['input type=submit', click(inForm(input({ type: 'submit', value: 'OK' }))), 'high'],
  ['submit of a search form', click(inForm({ tag: 'button', text: 'Go', attributes: { type: 'submit' } }, true)), 'low'],
  ['type=button in a form', click(inForm(button('Add row'))), 'low'],
  ['submit of a form whose action is /search', click({ tag: 'button', text: 'Go', attributes: { type: 'submit' }, form: { action: '/search' } }), 'low'],
  ['a "Search" label does not make a non-search form a search', click({ tag: 'button', attributes: { type: 'submit', 'aria-label': 'Search' }, form: { isSearch: false } }), 'high'],
  ['搜索 submit of a search form', click({ tag: 'button', text: '搜索', attributes: { type: 'submit' }, form: { role: 'search' } }), 'low'],
  // Links and downloads
  ['download attribute', click({ tag: 'a', text: 'Report', attributes: { href: '/r.pdf', download: '' } }), 'high'],
  ['link to an installer', click({ tag: 'a', text: 'Get it', attributes: { href: 'https://x.example/setup.exe' } }), 'high'],
  // The page's own script, as behind any button: the write barrier holds what it sends (issue 12).
  ['javascript: link is judged by its label', click({ tag: 'a', text: 'Go', attributes: { href: 'javascript:alert(1)' } }), 'low'],
  ['javascript: link labelled Delete', click({ tag: 'a', text: 'Delete', attributes: { href: 'javascript:void(0)' } }), 'high'],
  // Settings toggles
  ['toggle on a settings page', click({ tag: 'input', attributes: { type: 'checkbox' }, text: 'Public profile' }, 'https://x.example/settings/privacy'), 'high'],
  ['switch labelled permission', click({ tag: 'button', role: 'switch', text: 'Allow location permission' }), 'high'],
  ['checkbox elsewhere is medium', click({ tag: 'input', attributes: { type: 'checkbox' }, text: 'Remember me' }, 'https://x.example/login'), 'medium'],
  // Targets by text or selector
  ['text target Place order', clickText('Place order'), 'high'],
  ['text target 提交', clickText('提交'), 'high'],
  ['text target Add to cart', clickText('Add to cart'), 'medium'],
  ['selector with submit type', { actionType: 'click', params: {}, selector: 'form#checkout button[type=submit]' }, 'high'],
  ['selector naming delete', { actionType: 'click', params: {}, selector: '#delete-account' }, 'high'],
  ['harmless selector', { actionType: 'click', params: {}, selector: '.product-card:nth-child(2) a' }, 'low'],
  // Typing
  ['type in a text field', { actionType: 'type', params: { text: 'hello' }, element: input({ type: 'text', name: 'title' }) }, 'low'],
  ['type and submit a search', { actionType: 'type', params: { text: 'iPhone 15', submit: true }, element: input({ type: 'text', name: 'q' }) }, 'medium'],
  ['type and submit 搜索', { actionType: 'type', params: { text: '手机', submit: true }, element: input({ type: 'text', placeholder: '搜索商品' }) }, 'medium'],
  ['type into a form field is medium', { actionType: 'type', params: { text: 'Alice' }, element: inForm(input({ type: 'text', name: 'name' })) }, 'medium'],
  ['type into a search form is low', { actionType: 'type', params: { text: 'shoes' }, element: inForm(input({ type: 'text', name: 'q' }), true) }, 'low'],
  ['type and submit a field named q in a non-search form', { actionType: 'type', params: { text: 'x', submit: true }, element: inForm(input({ type: 'text', name: 'q' })) }, 'high'],
  ['type and submit a field labelled Search in a non-search form', { actionType: 'type', params: { text: 'x', submit: true }, element: inForm(input({ type: 'text', 'aria-label': 'Search' })) }, 'high'],
  ['type and submit a form', { actionType: 'type', params: { text: 'x', submit: true }, element: inForm(input({ type: 'text', name: 'comment' })) }, 'high'],
  ['type a password', { actionType: 'type', params: { text: 'pw' }, element: input({ type: 'password' }) }, 'high'],
  ['type a secret', { actionType: 'type', params: { text: '{{secret:SHOP_PASSWORD}}' }, element: input({ type: 'text' }) }, 'high'],
  ['type into a password selector', { actionType: 'type', params: { text: 'pw' }, selector: 'input[type=password]' }, 'high'],
  ['type a card number', { actionType: 'type', params: { text: '4111' }, element: input({ autocomplete: 'cc-number' }) }, 'high'],
  // Keys, navigation and the rest
  ['press Enter', { actionType: 'press', params: { keys: 'Enter' } }, 'medium'],
  ['press Control+Enter sends', { actionType: 'press', params: { keys: 'Control+Enter' } }, 'high'],
  ['press Escape', { actionType: 'press', params: { keys: 'Escape' } }, 'low'],
  ['navigate https', { actionType: 'navigate', params: { url: 'https://shop.example/' } }, 'low'],
  ['navigate javascript:', { actionType: 'navigate', params: { url: 'javascript:fetch("//evil")' } }, 'high'],
  ['navigate file:', { actionType: 'navigate', params: { url: 'file:///etc/passwd' } }, 'high'],
  ['navigate a .dmg', { actionType: 'navigate', params: { url: 'https://x.example/app.dmg?v=2' } }, 'high'],
  ['scroll', { actionType: 'scroll', params: { direction: 'down' } }, 'low'],
  ['extract', { actionType: 'extract', params: { instruction: 'prices' } }, 'low'],
  ['observe', { actionType: 'observe', params: {} }, 'low'],
  ['back', { actionType: 'back', params: {} }, 'low'],
  ['waitFor', { actionType: 'waitFor', params: { text: 'Delete' } }, 'low'],
  // A plain button submits its form from script as easily: the form's address counts
  ['plain OK button in a form that deletes', click({ ...button('OK'), form: { isSearch: false, action: '/account/delete' } }), 'high'],
  ['plain 确定 button in a form that pays', click({ ...button('好的'), form: { isSearch: false, action: '/orders/pay?id=7' } }), 'high'],
  ['plain button in a form with a harmless address', click({ ...button('+1'), form: { isSearch: false, action: '/cart/update' } }), 'low'],
  ['the host of a form address is not read', click({ ...button('OK'), form: { isSearch: false, action: 'https://delete.example/profile' } }), 'low'],
  ['plain button in a search form', click({ ...button('Clear'), form: { isSearch: true, action: '/search/remove-filters' } }), 'low'],
  // Declared risk only raises
  ['declared high raises a scroll', { actionType: 'scroll', params: {}, declared: 'high' }, 'high'],
  ['declared low cannot lower Place order', { ...click(button('Place order')), declared: 'low' }, 'high'],
  ['risk in params raises', { actionType: 'click', params: { risk: 'high' }, element: button('Show more') }, 'high'],
  ['risk in params cannot lower', { actionType: 'click', params: { risk: 'low' }, element: button('删除') }, 'high'],
  ['declared medium raises a low click', { ...click(button('Show more')), declared: 'medium' }, 'medium'],
  ['declared medium cannot lower a submit', { ...click(inForm(button('Go', { attributes: {} }))), declared: 'medium' }, 'high'],
]

describe('risk policy table', () => {
  it.each(rows)('%s → %s', (_name, subject, expected) => {
    const { risk, reasons, details } = classifyRisk(subject)
    expect(risk).toBe(expected)
    if (risk !== 'low') expect(reasons.length).toBeGreaterThan(0)
    expect(reasons).toEqual(details.map((d) => describeRiskReason(RiskReason.parse(d), 'en')))
  })

  it('has a large table', () => expect(rows.length).toBeGreaterThanOrEqual(60))

  it('matches ASCII keywords as whole words and others anywhere', () => {
    expect(findKeyword('Postcode', ['post'])).toBeUndefined()
    expect(findKeyword('Re-post this', ['post'])).toBe('post')
    expect(findKeyword('请删除这个', ['删除'])).toBe('删除')
  })

  it('gives reasons a person can read', () => {
    const { reasons } = classifyRisk(click(button('Place order')))
    expect(reasons.join(' ')).toMatch(/clicks "Place order", which looks like a purchase/)
    expect(classifyRisk(click(button('删除商品'))).reasons.join(' ')).toMatch(/删除商品.*deleting/)
    expect(classifyRisk({ actionType: 'navigate', params: { url: 'javascript:alert(1)' } }).reasons.join(' ')).toMatch(/javascript: URL/)
    expect(classifyRisk({ ...click(button('Show more')), declared: 'high' }).reasons.join(' ')).toMatch(/marked high-risk/)
  })

  it('lets a rules keyword say where its risk comes from', () => {
    const rules = RiskRules.parse({ high: { keywords: ['Archive'] } })
    const { risk, reasons } = classifyRisk(click(button('Archive all')), rules)
    expect(risk).toBe('high')
    expect(reasons.join(' ')).toMatch(/your rules/)
  })
})

describe('rules file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-rules-'))
  const write = (name: string, body: string) => {
    const file = join(dir, name)
    writeFileSync(file, body)
    return file
  }

  it('adds keywords, selectors and URL patterns to the defaults', () => {
    const rules = loadRiskRules(write('extra.json', JSON.stringify({ high: { keywords: ['Archive', '归档'], selectors: ['.danger'], urlPatterns: ['/admin/'] } })))
    const policy = createRiskPolicy(rules)
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'text', value: 'Archive' } }).risk).toBe('high')
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'text', value: '归档邮件' } }).risk).toBe('high')
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'selector', value: 'div.danger > a' } }).risk).toBe('high')
    expect(policy.assess({ type: 'navigate', params: { url: 'https://x.example/admin/users' } }).risk).toBe('high')
    // Defaults still hold.
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'text', value: 'Delete' } }).risk).toBe('high')
  })

  it('exempts exact labels from keywords, never from structure', () => {
    const policy = createRiskPolicy(loadRiskRules(write('exempt.json', JSON.stringify({ exempt: ['Save search'] }))))
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'text', value: 'Save search' } }).risk).toBe('low')
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'text', value: 'Save settings' } }).risk).toBe('high')
    const submit = { index: 1, tag: 'button', text: 'Save search', attributes: { type: 'submit' }, form: { isSearch: false } }
    expect(policy.assess({ type: 'click', params: {}, target: { by: 'index', value: 1 }, element: submit }).risk).toBe('high')
  })

  it('uses the defaults without a file', () => {
    expect(loadRiskRules(undefined).high.keywords).toEqual([])
  })

  it('names the file and the problem when it is invalid', () => {
    expect(() => loadRiskRules(write('bad.json', '{"high": {"keywords": "delete"}}'))).toThrow(/bad\.json.*high\.keywords/)
    expect(() => loadRiskRules(write('typo.json', '{"hihg": {}}'))).toThrow(/typo\.json/)
    expect(() => loadRiskRules(write('broken.json', '{'))).toThrow(/broken\.json/)
    expect(() => loadRiskRules(write('regex.json', '{"high": {"urlPatterns": ["(unclosed"]}}'))).toThrow(/regex\.json.*high\.urlPatterns\.0: is not a valid regular expression/)
    expect(() => loadRiskRules(join(dir, 'missing.json'))).toThrow(/missing\.json/)
  })
})
