import { normalizeLabel } from './label-text'
import type { RiskKind } from './risk-reasons'

/** High-risk words by what they do, so the confirmation card can say what the click looks like. */
export const HIGH_KINDS: ReadonlyArray<readonly [kind: RiskKind, words: readonly string[]]> = [
  ['payment', ['pay', 'pay now', 'payment', 'place order', 'order now', 'purchase', 'buy', 'buy now', 'checkout', 'check out', 'donate',
    '支付', '付款', '下单', '购买', '立即购买', '结算', '捐赠']],
  ['sending', ['submit', 'send', 'reply', 'invite', 'upload', '提交', '发送', '回复', '邀请', '上传']],
  // Cancelling something that runs on (a subscription, a membership, an order) ends it; "取消" alone is a dialog's Cancel.
  ['deletion', ['delete', 'remove', 'destroy', 'erase', 'wipe', 'discard', 'deactivate', 'close account', 'cancel subscription',
    'cancel membership', 'cancel my membership', 'end membership', 'cancel order', 'cancel plan', 'unsubscribe', 'reset',
    '删除', '移除', '清空', '丢弃', '注销', '退订', '取消订阅', '取消订单', '取消会员', '取消自动续费', '关闭自动续费', '解绑']],
  ['publishing', ['publish', 'post', 'tweet', 'share', '发布', '发表', '分享']],
  ['permission', ['authorize', 'authorise', 'grant', 'allow', 'approve', 'confirm', '授权', '允许', '同意', '确认', '确定']],
  ['money', ['transfer', 'withdraw', '转账', '提现']],
  ['signing', ['sign', 'sign here', 'e-sign', '签署', '签约']],
  // "Apply" is a filter's as often as a setting's; the barrier holds what a setting sends, so it is only medium.
  ['saving', ['save', '保存']],
  ['download', ['download', 'install', '下载', '安装']],
  ['code', ['merge', 'deploy', '合并', '部署']],
]
export const HIGH_KEYWORDS: readonly string[] = HIGH_KINDS.flatMap(([, words]) => words)
/**
 * Everyday phrases that contain a high-risk word but are not one: "Sign in" is not signing a contract, applying a
 * coupon or a filter changes nothing that matters. They are cut out before high-risk words are looked for, so
 * "Sign in and delete" is still high; medium words still see the whole label.
 */
const BENIGN_PHRASES = [
  'sign in', 'sign-in', 'sign up', 'sign-up', 'sign out', 'sign-out', 'sign on', 'sign off',
  'apply coupon', 'apply promo code', 'apply code', 'apply discount', 'apply filter', 'apply filters', 'reset filter', 'reset filters',
]
export const MEDIUM_KEYWORDS = [
  'add to cart', 'add to bag', 'sign in', 'log in', 'login', 'sign up', 'register', 'apply', 'subscribe', 'follow',
  'like', 'vote', 'next', 'continue', 'accept',
  '加入购物车', '登录', '注册', '申请', '应用', '关注', '点赞', '订阅', '下一步', '继续',
]
export const SETTINGS_WORDS = ['settings', 'setting', 'preferences', 'permission', 'permissions', 'privacy', 'security', 'account', 'admin', '设置', '权限', '隐私', '安全', '账户', '账号', '管理']

/**
 * Words that only say "yes" to whatever is on screen. Alone they are judged by the dialog they answer (see
 * risk-context.ts); outside a dialog they are a date picker's or a filter's OK, which the write barrier covers.
 */
const GENERIC_CONFIRM = new Set(['ok', 'okay', 'yes', 'y', 'sure', 'confirm', 'continue', 'got it', '确定', '确认', '是', '是的', '好', '好的', '继续', '知道了', '✓', '✔', '✅', '☑'])
/** A dialog's text is read for what confirming does: its own "confirm" words say nothing about that. */
export const ASKING_WORDS: readonly string[] = ['confirm', '确认', '确定']
export const DIALOG_HIGH_KEYWORDS: readonly string[] = HIGH_KEYWORDS.filter((w) => !ASKING_WORDS.includes(w))

/** Whether a label is only a generic "yes" (OK, 确 定, Yes!, ✅). */
export function isGenericConfirm(label: string): boolean {
  return isGenericNormalized(normalizeLabel(label))
}

/** isGenericConfirm on a label that has been through normalizeLabel already. */
export function isGenericNormalized(normal: string): boolean {
  const words = normal.replace(/[\s!.?。！？,，:：]+/g, ' ').trim()
  // labelOf joins text, aria-label and title, so "OK" often arrives as "OK OK".
  return !!words && (GENERIC_CONFIRM.has(words) || words.split(' ').every((w) => GENERIC_CONFIRM.has(w)))
}

const isAscii = (s: string) => /^[\x20-\x7e]+$/.test(s)
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Finds the first keyword in `text`: ASCII keywords as whole words (so "Postcode" is not "post"), others anywhere.
 * Both sides are normalised first (normalizeLabel), so `删 除` finds 删除 and ＳＥＮＤ finds send.
 */
export function findKeyword(text: string, keywords: readonly string[]): string | undefined {
  return findInNormalized(normalizeLabel(text), keywords)
}

/** findKeyword on text that has been through normalizeLabel already. */
export function findInNormalized(normal: string, keywords: readonly string[]): string | undefined {
  return keywords.find((keyword) => matcherOf(keyword)(normal))
}

/** The label with everyday phrases cut out (see BENIGN_PHRASES), for looking up high-risk words. */
export function withoutBenignPhrases(label: string): string {
  return BENIGN_PHRASES.reduce((text, phrase) => text.replace(benignPattern(phrase), '$1 '), normalizeLabel(label))
}
const benignPatterns = new Map<string, RegExp>()
function benignPattern(phrase: string): RegExp {
  let pattern = benignPatterns.get(phrase)
  if (!pattern) benignPatterns.set(phrase, (pattern = new RegExp(`(^|[^a-z0-9])${escape(phrase)}(?=$|[^a-z0-9])`, 'g')))
  return pattern
}

export const kindOf = (keyword: string): RiskKind | undefined => HIGH_KINDS.find(([, words]) => words.includes(keyword))?.[0]

const matchers = new Map<string, (normal: string) => boolean>()
function matcherOf(keyword: string): (normal: string) => boolean {
  let matcher = matchers.get(keyword)
  if (!matcher) {
    const k = normalizeLabel(keyword)
    const word = new RegExp(`(^|[^a-z0-9])${escape(k)}($|[^a-z0-9])`)
    matcher = !k ? () => false : isAscii(k) ? (normal) => word.test(normal) : (normal) => normal.includes(k)
    if (matchers.size < 5000) matchers.set(keyword, matcher)
  }
  return matcher
}
