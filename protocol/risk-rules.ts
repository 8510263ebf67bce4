import { z } from 'zod'
import type { ActionType, Risk } from './action'

/**
 * The risk policy, shared by the server (which decides) and the extension (which checks again on the real
 * element before acting). Pure code, no Node or DOM APIs.
 */

const RuleSet = z.strictObject({
  /** Labels (any language) that make an action this risky. ASCII words match whole words; other text matches anywhere. */
  keywords: z.array(z.string().min(1).max(200)).max(1000).default([]),
  /** Substrings of a CSS selector target, e.g. "#delete-account". */
  selectors: z.array(z.string().min(1).max(500)).max(1000).default([]),
  /** Regular expressions over navigation URLs and link targets. */
  urlPatterns: z.array(z.string().min(1).max(500)).max(1000).default([]),
})

export const RiskRules = z.strictObject({
  high: RuleSet.default({ keywords: [], selectors: [], urlPatterns: [] }),
  medium: RuleSet.default({ keywords: [], selectors: [], urlPatterns: [] }),
  /** Exact labels that keywords alone must not make high (e.g. "Save search"); structure still counts. */
  exempt: z.array(z.string().min(1).max(200)).max(1000).default([]),
})
export type RiskRules = z.output<typeof RiskRules>
export type RiskRulesInput = z.input<typeof RiskRules>

export const HIGH_KEYWORDS = [
  // English: what cannot be taken back
  'submit', 'send', 'pay', 'pay now', 'payment', 'place order', 'order now', 'purchase', 'buy', 'buy now', 'checkout',
  'check out', 'delete', 'remove', 'destroy', 'erase', 'wipe', 'publish', 'post', 'tweet', 'reply', 'share',
  'authorize', 'authorise', 'grant', 'allow', 'approve', 'confirm', 'transfer', 'withdraw', 'sign here', 'sign contract', 'sign agreement', 'sign document', 'e-sign', 'unsubscribe',
  'save', 'reset', 'deactivate', 'close account', 'cancel subscription', 'upload', 'download', 'install', 'donate',
  'merge', 'deploy', 'invite',
  // Chinese
  '提交', '发送', '支付', '付款', '下单', '购买', '立即购买', '结算', '删除', '移除', '清空', '发布', '发表', '回复',
  '分享', '授权', '允许', '同意', '确认', '确定', '转账', '提现', '签署', '保存', '注销', '退订', '上传', '下载',
  '安装', '捐赠', '邀请', '合并', '部署',
]
export const MEDIUM_KEYWORDS = [
  'add to cart', 'add to bag', 'sign in', 'log in', 'login', 'sign up', 'register', 'apply', 'subscribe', 'follow',
  'like', 'vote', 'next', 'continue', 'accept',
  '加入购物车', '登录', '注册', '申请', '应用', '关注', '点赞', '订阅', '下一步', '继续',
]
const SETTINGS_WORDS = ['settings', 'setting', 'preferences', 'permission', 'permissions', 'privacy', 'security', 'account', 'admin', '设置', '权限', '隐私', '安全', '账户', '账号', '管理']
const SEARCH_WORDS = /^(q|query|search|keyword|keywords|kw|wd|s|term|search_query|searchterm)$|search|搜索|查找/i
const DOWNLOAD_URL = /\.(exe|msi|dmg|pkg|apk|ipa|deb|rpm|zip|rar|7z|tar|gz|tgz|bz2|xz|iso|bat|cmd|sh|ps1|jar|app|scr)(\?|#|$)/i
const DANGEROUS_SCHEME = /^\s*(javascript|data|file|vbscript|chrome|chrome-extension|about):/i
/** A CSS selector that names a credential field. */
export const CREDENTIAL_SELECTOR = /password|passwd|pwd|cc-|card-?number|cvv|cvc|otp|one-time/i
const SECRET_PLACEHOLDER = /\{\{\s*secret:[A-Za-z0-9_]+\s*\}\}/

export const DEFAULT_RISK_RULES: RiskRules = RiskRules.parse({})

/** The little the policy needs to know about an element (protocol's ElementInfo fits). */
export interface ElementLike {
  tag?: string
  role?: string
  text?: string
  attributes?: Record<string, string>
  form?: { role?: string; action?: string; isSearch?: boolean }
}

export interface RiskSubject {
  actionType: ActionType
  params: Record<string, unknown>
  element?: ElementLike
  selector?: string
  targetText?: string
  /** The page the action happens on. */
  url?: string
  /** A risk someone declared (the model, a script step): it can only raise the result. */
  declared?: Risk
}

export interface RiskAssessment {
  risk: Risk
  reasons: string[]
}

const ORDER: Record<Risk, number> = { low: 0, medium: 1, high: 2 }
const isAscii = (s: string) => /^[\x20-\x7e]+$/.test(s)
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Finds the first keyword in `text`: ASCII keywords as whole words (so "Postcode" is not "post"), others anywhere. */
export function findKeyword(text: string, keywords: readonly string[]): string | undefined {
  const lower = text.toLowerCase()
  return keywords.find((keyword) => matcherOf(keyword)(lower))
}

const matchers = new Map<string, (lower: string) => boolean>()
function matcherOf(keyword: string): (lower: string) => boolean {
  let matcher = matchers.get(keyword)
  if (!matcher) {
    const k = keyword.toLowerCase()
    const word = new RegExp(`(^|[^a-z0-9])${escape(k)}($|[^a-z0-9])`)
    matcher = isAscii(k) ? (lower) => word.test(lower) : (lower) => lower.includes(k)
    if (matchers.size < 5000) matchers.set(keyword, matcher)
  }
  return matcher
}

const attr = (el: ElementLike | undefined, name: string) => el?.attributes?.[name]?.trim() ?? ''

/** What a person would read as the element's name: its text, label, value or title. */
export function labelOf(subject: Pick<RiskSubject, 'element' | 'targetText' | 'selector'>): string {
  const el = subject.element
  const parts = [
    el?.text,
    attr(el, 'aria-label'),
    attr(el, 'value'),
    attr(el, 'title'),
    attr(el, 'alt'),
    subject.targetText,
  ]
  if (subject.selector) parts.push(subject.selector.replace(/[#.[\]=:'"()>+~*^$|-]+/g, ' ').replace(/_/g, ' '))
  return parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim().slice(0, 500)
}

function isSearchField(el: ElementLike | undefined): boolean {
  if (!el) return false
  if (el.form?.isSearch || el.form?.role === 'search') return true
  const type = attr(el, 'type').toLowerCase()
  if (type === 'search' || el.role === 'searchbox') return true
  return [attr(el, 'name'), attr(el, 'id'), attr(el, 'placeholder'), attr(el, 'aria-label')].some((v) => v && SEARCH_WORDS.test(v))
}

/** A field whose value is a credential: a password, a card number or code, a one-time code. */
export function isCredentialField(el: ElementLike | undefined): boolean {
  const type = attr(el, 'type').toLowerCase()
  const autocomplete = attr(el, 'autocomplete').toLowerCase()
  return type === 'password' || /password|cc-|one-time-code/.test(autocomplete)
}

function isSubmitControl(el: ElementLike | undefined): boolean {
  if (!el) return false
  const tag = (el.tag ?? '').toLowerCase()
  const type = attr(el, 'type').toLowerCase()
  if ((tag === 'input' || tag === 'button') && (type === 'submit' || type === 'image')) return true
  // A <button> without a type submits its form.
  return tag === 'button' && !type && !!el.form
}

const isToggle = (el: ElementLike | undefined) =>
  !!el && (['switch', 'checkbox', 'radio'].includes(el.role ?? '') || ['checkbox', 'radio'].includes(attr(el, 'type').toLowerCase()))

/** Decides how risky an action is, and says why in words a person can check. */
export function classifyRisk(subject: RiskSubject, rules: RiskRules = DEFAULT_RISK_RULES): RiskAssessment {
  let risk: Risk = 'low'
  const reasons: string[] = []
  const raise = (to: Risk, reason: string) => {
    if (ORDER[to] > ORDER[risk]) risk = to
    if (to !== 'low' && !reasons.includes(reason)) reasons.push(reason)
  }
  const { actionType: type, params, element } = subject
  const label = labelOf(subject)
  const exempt = rules.exempt.some((e) => e.trim().toLowerCase() === label.toLowerCase())
  const patterns = (list: string[]) => list.flatMap((p) => { try { return [new RegExp(p, 'i')] } catch { return [] } })

  const checkUrl = (url: string, what: string) => {
    if (DANGEROUS_SCHEME.test(url)) raise('high', `${what} a ${url.split(':')[0]}: URL, which can run code or read local files`)
    else if (DOWNLOAD_URL.test(url)) raise('high', `${what} a file download (${url.split(/[?#]/)[0].split('/').pop()})`)
    else if (patterns(rules.high.urlPatterns).some((p) => p.test(url))) raise('high', `${what} a URL your rules mark as high-risk`)
    else if (patterns(rules.medium.urlPatterns).some((p) => p.test(url))) raise('medium', `${what} a URL your rules mark as risky`)
  }
  const checkLabel = (verb: string) => {
    if (!label) return
    const high = exempt ? undefined : findKeyword(label, [...HIGH_KEYWORDS, ...rules.high.keywords])
    if (high) return raise('high', `${verb} "${label.slice(0, 80)}", which looks like "${high}" — it may not be undoable`)
    const medium = findKeyword(label, [...MEDIUM_KEYWORDS, ...rules.medium.keywords])
    if (medium) raise('medium', `${verb} "${label.slice(0, 80)}" ("${medium}")`)
  }
  const checkSelector = () => {
    const selector = subject.selector ?? ''
    if (!selector) return
    const hit = rules.high.selectors.find((s) => selector.includes(s))
    if (hit) raise('high', `targets ${hit}, which your rules mark as high-risk`)
    else if (rules.medium.selectors.some((s) => selector.includes(s))) raise('medium', 'targets an element your rules mark as risky')
    if (/type\s*=\s*["']?submit/i.test(selector)) raise('high', 'clicks a submit button, which sends a form')
  }

  switch (type) {
    case 'navigate':
      checkUrl(String(params.url ?? ''), 'opens')
      break
    case 'click': {
      checkLabel('clicks')
      checkSelector()
      const href = attr(element, 'href')
      if (href) checkUrl(href, 'follows a link to')
      if (element?.attributes && 'download' in element.attributes) raise('high', 'starts a download')
      if (isSubmitControl(element) && !isSearchField(element)) raise('high', 'submits a form, which sends what was entered')
      if (isToggle(element)) {
        const context = `${label} ${subject.url ?? ''}`
        if (findKeyword(context, SETTINGS_WORDS)) raise('high', 'changes a setting or permission')
        else raise('medium', 'changes an option')
      }
      break
    }
    case 'type': {
      const text = String(params.text ?? '')
      if (isCredentialField(element) || CREDENTIAL_SELECTOR.test(subject.selector ?? '')) raise('high', 'enters a password or payment detail')
      if (SECRET_PLACEHOLDER.test(text)) raise('high', 'enters a secret (a credential)')
      if (params.submit === true) {
        if (isSearchField(element) || /search|搜索/i.test(label)) raise('medium', 'types and submits a search')
        else raise('high', 'types and submits a form, which sends what was entered')
      }
      checkSelector()
      break
    }
    case 'select':
      if (isToggle(element) || findKeyword(`${label} ${subject.url ?? ''}`, SETTINGS_WORDS)) raise('medium', 'changes an option on a settings page')
      checkSelector()
      break
    case 'press': {
      const keys = String(params.keys ?? '')
      if (/(^|\+)\s*(enter|numpadenter|return)\s*$/i.test(keys)) raise('medium', 'presses Enter, which may submit a form')
      break
    }
    default:
      break
  }
  if (subject.declared && ORDER[subject.declared] > ORDER[risk]) raise(subject.declared, `marked ${subject.declared}-risk by the planner`)
  return { risk, reasons }
}
