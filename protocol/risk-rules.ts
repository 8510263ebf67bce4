import { z } from 'zod'
import { Risk, type ActionType } from './action'
import type { RiskJudgedType } from './action-registry'
import { emojiWord, iconWord } from './icon-names'
import { hasLetters, normalizeLabel } from './label-text'
import { compiles } from './pattern'
import { isQuietWidget, softFilterWords, judgeDialog, judgeShortcut, type ElementContext } from './risk-context'
import { describeRiskReason, type RiskReason, type UrlVia } from './risk-reasons'
import { ASKING_WORDS, findKeyword, HIGH_KEYWORDS, isGenericConfirm, kindOf, MEDIUM_KEYWORDS, SETTINGS_WORDS, withoutBenignPhrases } from './risk-words'

export { findKeyword, HIGH_KEYWORDS, isGenericConfirm, MEDIUM_KEYWORDS } from './risk-words'
export { normalizeLabel } from './label-text'
export type { ElementContext } from './risk-context'

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
  urlPatterns: z.array(z.string().min(1).max(500).refine(compiles, 'is not a valid regular expression')).max(1000).default([]),
})

export const RiskRules = z.strictObject({
  high: RuleSet.default({ keywords: [], selectors: [], urlPatterns: [] }),
  medium: RuleSet.default({ keywords: [], selectors: [], urlPatterns: [] }),
  /** Exact labels that keywords alone must not make high (e.g. "Save search"); structure still counts. */
  exempt: z.array(z.string().min(1).max(200)).max(1000).default([]),
})
export type RiskRules = z.output<typeof RiskRules>
export type RiskRulesInput = z.input<typeof RiskRules>

const SEARCH_ACTION = /search|query|\/s\b|[?&]q=/i
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
  form?: { role?: string; action?: string; isSearch?: boolean; method?: string }
  context?: ElementContext
}

export interface RiskSubject {
  actionType: ActionType
  params: Record<string, unknown>
  element?: ElementLike
  /** Where a drag drops its element (the element itself is what moves). */
  dropTarget?: ElementLike
  selector?: string
  targetText?: string
  /** The page the action happens on. */
  url?: string
  /** A risk someone declared (the model, a script step): it can only raise the result. */
  declared?: Risk
}

export interface RiskAssessment {
  risk: Risk
  /** Why, in English: each of `details` described ('en'). */
  reasons: string[]
  /** Why, as data a reader can show in their own language. */
  details: RiskReason[]
}

const ORDER: Record<Risk, number> = { low: 0, medium: 1, high: 2 }
const attr = (el: ElementLike | undefined, name: string) => el?.attributes?.[name]?.trim() ?? ''

/** What a person would read as the element's name: its text, label, value or title. */
export function labelOf(subject: Pick<RiskSubject, 'element' | 'targetText' | 'selector'>): string {
  const el = subject.element
  const parts = [
    el?.text,
    attr(el, 'aria-label'),
    // The accessible name where the text does not say it (a switch named by its form label).
    attr(el, 'label'),
    attr(el, 'value'),
    attr(el, 'title'),
    attr(el, 'alt'),
    subject.targetText,
  ]
  if (subject.selector) parts.push(subject.selector.replace(/[#.[\]=:'"()>+~*^$|-]+/g, ' ').replace(/_/g, ' '))
  return parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim().slice(0, 500)
}

/**
 * Whether submitting here runs a search. What the page said about the form wins (the extension sees the whole
 * form); the field's own name or placeholder only counts when nothing is known about its form.
 */
function isSearchField(el: ElementLike | undefined): boolean {
  if (!el) return false
  const form = el.form
  if (form?.isSearch || form?.role === 'search' || SEARCH_ACTION.test(form?.action ?? '')) return true
  if (form?.isSearch === false) return false
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

/** A button (or input button) in a form that names where it sends, so the form's address can be read. */
const isFormButton = (el: ElementLike | undefined) => {
  const tag = (el?.tag ?? '').toLowerCase()
  const type = attr(el, 'type').toLowerCase()
  return !!el?.form?.action && (tag === 'button' || (tag === 'input' && ['button', 'submit', 'image'].includes(type)) || el.role === 'button')
}

/** The words of a form's address (path and query, not the host): "/account/delete?id=1" → "account delete id 1". */
const formActionWords = (action: string) => action.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[/?&=#._-]+/g, ' ')

/** An accordion or disclosure header: clicking it opens a section, whatever its title says ("Payment & delivery"). */
const isDisclosure = (el: ElementLike | undefined) => {
  const tag = (el?.tag ?? '').toLowerCase()
  return !!el && (tag === 'summary' || ((tag === 'button' || el.role === 'button') && el.attributes?.expanded !== undefined))
}

/** A form that submits by GET asks for a page (a filter, a search): its address is judged, as a link's would be. */
const isGetForm = (el: ElementLike | undefined) => el?.form?.method?.toLowerCase() === 'get'

const isToggle = (el: ElementLike | undefined) =>
  !!el && (['switch', 'checkbox', 'radio'].includes(el.role ?? '') || ['checkbox', 'radio'].includes(attr(el, 'type').toLowerCase()))

/** Where dropping a thing throws it away, though the place says no verb. */
const DROP_DELETES = ['trash', 'recycle bin', 'bin', '回收站', '垃圾桶', '垃圾箱']

/** Decides how risky an action is, and says why in words a person can check. */
export function classifyRisk(subject: RiskSubject, rules: RiskRules = DEFAULT_RISK_RULES): RiskAssessment {
  let risk: Risk = 'low'
  const reasons: string[] = []
  const details: RiskReason[] = []
  const raise = (to: Risk, detail: RiskReason) => {
    if (ORDER[to] > ORDER[risk]) risk = to
    const reason = describeRiskReason(detail, 'en')
    if (to !== 'low' && !reasons.includes(reason)) {
      reasons.push(reason)
      details.push(detail)
    }
  }
  const { actionType: type, params, element } = subject
  const label = labelOf(subject)
  // The words the element shows, without a selector's: `#picker-ok` must not stop 确定 being a bare 确定.
  const ownLabel = subject.element || subject.targetText ? labelOf({ element: subject.element, targetText: subject.targetText }) : label
  const exempt = rules.exempt.some((e) => normalizeLabel(e) === normalizeLabel(label))
  const context = element?.context
  const patterns = (list: string[]) => list.flatMap((p) => { try { return [new RegExp(p, 'i')] } catch { return [] } })

  const checkUrl = (url: string, via: UrlVia) => {
    // A javascript: link runs the page's own script, as any button does (expanding a post, opening a menu);
    // the write barrier holds whatever it sends. Opened as a URL it is still code from elsewhere.
    if (via === 'link' && /^\s*javascript:/i.test(url)) return
    if (DANGEROUS_SCHEME.test(url)) raise('high', { code: 'dangerous-scheme', via, scheme: url.split(':')[0] })
    else if (DOWNLOAD_URL.test(url)) raise('high', { code: 'download-url', via, file: url.split(/[?#]/)[0].split('/').pop() ?? '' })
    else if (patterns(rules.high.urlPatterns).some((p) => p.test(url))) raise('high', { code: 'url-rules-high', via })
    else if (patterns(rules.medium.urlPatterns).some((p) => p.test(url))) raise('medium', { code: 'url-rules-medium', via })
  }
  const checkIcon = () => {
    const icon = attr(element, 'icon')
    const word = iconWord(icon) ?? (hasLetters(ownLabel) ? undefined : emojiWord(ownLabel))
    if (!word) return
    const shown = (icon || ownLabel).slice(0, 80)
    const kind = kindOf(word)
    if (kind) raise('high', { code: 'icon-high', label: shown, kind })
    else raise('medium', { code: 'icon-medium', label: shown, keyword: word })
  }
  const checkLabel = () => {
    if (isDisclosure(element)) return
    // Quoted as the element says it: a selector's words (`#send`) are the page's code, read only when nothing else is.
    const shown = (ownLabel || label).slice(0, 80)
    const generic = !!ownLabel && !exempt && isGenericConfirm(ownLabel)
    if (generic && context?.dialog) {
      const judged = judgeDialog(shown, context.dialog)
      raise(judged.risk, judged.detail)
      if (judged.risk === 'high') return
    } else if (generic && !isQuietWidget(context?.within) && findKeyword(ownLabel, ASKING_WORDS)) {
      // A bare 确定 / Confirm outside a dialog (once high) is worth a line in the audit, not a question: what it
      // confirms, if it writes, the barrier asks about. In a date picker or a filter it is nothing at all.
      raise('medium', { code: 'generic-confirm', label: shown })
    }
    // What is left to read is a selector's words, or a filter's own "apply" and "remove".
    const soft = softFilterWords(label, context?.within)
    const highWords = [...HIGH_KEYWORDS, ...rules.high.keywords].filter((w) => !soft.has(w) && !(generic && ASKING_WORDS.includes(w)))
    const high = exempt ? undefined : findKeyword(withoutBenignPhrases(label), highWords)
    const kind = high && kindOf(high)
    if (high) return raise('high', kind ? { code: 'label-high', label: shown, kind } : { code: 'label-rules', label: shown, keyword: high })
    const medium = findKeyword(label, [...MEDIUM_KEYWORDS, ...rules.medium.keywords])
    if (medium) raise('medium', { code: 'label-medium', label: shown, keyword: medium })
    // The words said nothing: an icon or emoji may (the page sends icon names only for such buttons).
    else checkIcon()
  }
  const checkSelector = () => {
    const selector = subject.selector ?? ''
    if (!selector) return
    const hit = rules.high.selectors.find((s) => selector.includes(s))
    if (hit) raise('high', { code: 'selector-rules-high', selector: hit })
    else if (rules.medium.selectors.some((s) => selector.includes(s))) raise('medium', { code: 'selector-rules-medium' })
    if (/type\s*=\s*["']?submit/i.test(selector)) raise('high', { code: 'submit-selector' })
  }

  switch (type) {
    case 'navigate':
      checkUrl(String(params.url ?? ''), 'open')
      break
    // The first click of a double click is a click: it follows the link, submits the form, ticks the box.
    case 'click':
    case 'double_click': {
      checkLabel()
      checkSelector()
      const href = attr(element, 'href')
      if (href) checkUrl(href, 'link')
      if (element?.attributes && 'download' in element.attributes) raise('high', { code: 'download-attr' })
      if (isSubmitControl(element) && !isSearchField(element)) {
        if (!isGetForm(element)) raise('high', { code: 'submit-form' })
        else if (findKeyword(formActionWords(element!.form!.action ?? ''), HIGH_KEYWORDS)) raise('high', { code: 'form-action' })
        else raise('medium', { code: 'submit-get-form' })
      } else if (isFormButton(element) && !isSearchField(element)) {
        // A plain button can submit its form from script: the form's own address says what that would do.
        const word = findKeyword(formActionWords(element!.form!.action!), HIGH_KEYWORDS)
        if (word) raise('high', { code: 'form-action', ...(kindOf(word) ? { kind: kindOf(word) } : {}) })
      }
      if (isToggle(element)) {
        const context = `${label} ${subject.url ?? ''}`
        if (findKeyword(context, SETTINGS_WORDS)) raise('high', { code: 'setting-toggle' })
        else raise('medium', { code: 'option-toggle' })
      }
      break
    }
    case 'right_click':
      // It opens a context menu and activates nothing (no link, no submit, no toggle): its words and the rules speak.
      checkLabel()
      checkSelector()
      break
    case 'type': {
      const text = String(params.text ?? '')
      if (isCredentialField(element) || CREDENTIAL_SELECTOR.test(subject.selector ?? '')) raise('high', { code: 'credential-field' })
      if (SECRET_PLACEHOLDER.test(text)) raise('high', { code: 'secret' })
      if (params.submit === true) {
        if (isSearchField(element) || (element?.form?.isSearch !== false && /search|搜索/i.test(label))) raise('medium', { code: 'submit-search' })
        else if (isGetForm(element) && !findKeyword(formActionWords(element!.form!.action ?? ''), HIGH_KEYWORDS)) raise('medium', { code: 'submit-get-form' })
        else raise('high', { code: 'submit-form-typed' })
      } else if (element?.form && !isSearchField(element)) raise('medium', { code: 'form-typing' })
      checkSelector()
      break
    }
    case 'select':
      if (isToggle(element) || findKeyword(`${label} ${subject.url ?? ''}`, SETTINGS_WORDS)) raise('medium', { code: 'select-settings' })
      checkSelector()
      break
    case 'upload':
      // A file leaves the person's computer for the site: always theirs to approve, whatever the button says.
      raise('high', { code: 'upload-file', file: String(params.file ?? '').slice(0, 255) })
      break
    case 'press': {
      const judged = judgeShortcut(String(params.keys ?? ''), element)
      if (judged) raise(judged.risk, judged.detail)
      break
    }
    case 'drag': {
      // Moving an item (a card, a row) is a reorder whatever the item says; where it lands is what may delete or send.
      if (!subject.dropTarget) break
      const onto = labelOf({ element: subject.dropTarget })
      const shown = onto.slice(0, 80)
      const high = findKeyword(withoutBenignPhrases(onto), [...HIGH_KEYWORDS, ...rules.high.keywords, ...DROP_DELETES])
      const kind = high && (DROP_DELETES.includes(high) ? 'deletion' : kindOf(high))
      if (high) raise('high', kind ? { code: 'drop-high', label: shown, kind } : { code: 'drop-rules', label: shown, keyword: high })
      break
    }
    default: {
      // Only its planner's word raises it; an action the table says is judged fails to compile here until it is.
      const declaredOnly: Exclude<ActionType, RiskJudgedType> = type
      void declaredOnly
      break
    }
  }
  // A script step or the model may say an action is riskier than it looks (`declared`, or `risk` in its params).
  for (const declared of [subject.declared, Risk.safeParse(params.risk).data]) {
    if (declared && ORDER[declared] > ORDER[risk]) raise(declared, { code: 'declared', level: declared })
  }
  return { risk, reasons, details }
}
