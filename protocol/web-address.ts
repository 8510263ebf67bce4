/**
 * What counts as a web address where a task starts or a step navigates, the same in the panel and on the server:
 * what a person would type in the browser's address bar to open a page. `example.com/x` means https://example.com/x,
 * `localhost:3000` and `127.0.0.1:8080/x` mean plain http (local servers rarely speak https); words that only
 * became a host because a scheme was put in front of them (`不是网址`, `not a url`) are refused.
 */

export type AddressProblem = 'empty' | 'spaces' | 'scheme' | 'host'

export type WebAddress = { ok: true; url: string } | { ok: false; problem: AddressProblem }

export const MAX_ADDRESS_LENGTH = 8192

const WITH_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i
/** `javascript:`, `mailto:`, `about:`…: a scheme with no `//`. A colon followed by a digit is a port (`localhost:3000`). */
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:(?![0-9])/i
/** A top-level domain: letters (an IDN one arrives as punycode). */
const TLD = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/
const LOCAL = /^(localhost|[^.]+(\.[^.]+)*\.localhost)$/

/** The host part as typed: up to the first `/`, `?` or `#` after any scheme. */
const hostPart = (text: string) => text.replace(WITH_SCHEME, '').split(/[/?#]/, 1)[0] ?? ''

const isLocalHost = (hostname: string) => LOCAL.test(hostname) || IPV4.test(hostname) || hostname.startsWith('[')

/** Whether a parsed host names a site: localhost, an IP address, or labels ending in a real-looking top-level domain. */
function isSiteHost(hostname: string): boolean {
  if (isLocalHost(hostname)) return true
  const labels = hostname.replace(/\.$/, '').split('.')
  return labels.length >= 2 && labels.every((l) => l.length > 0) && TLD.test(labels.at(-1)!)
}

/** Reads what a person (or a planner, or a script) gave as an address: the address to open, or why it is none. */
export function parseWebAddress(input: string): WebAddress {
  const text = input.trim()
  if (!text) return { ok: false, problem: 'empty' }
  if (text.length > MAX_ADDRESS_LENGTH) return { ok: false, problem: 'host' }
  if (/\s/.test(hostPart(text))) return { ok: false, problem: 'spaces' }
  let candidate = text
  if (!WITH_SCHEME.test(text)) {
    if (OTHER_SCHEME.test(text)) return { ok: false, problem: 'scheme' }
    const host = hostPart(text).replace(/:\d*$/, '').toLowerCase()
    candidate = `${isLocalHost(host) ? 'http' : 'https'}://${text}`
  }
  if (!URL.canParse(candidate)) return { ok: false, problem: 'host' }
  const url = new URL(candidate)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'scheme' }
  if (!isSiteHost(url.hostname)) return { ok: false, problem: 'host' }
  return { ok: true, url: url.href }
}

/** The address to open, or null when `input` is not a web address. */
export const normaliseWebAddress = (input: string): string | null => {
  const parsed = parseWebAddress(input)
  return parsed.ok ? parsed.url : null
}

/** The examples every message about a bad address gives, so a person sees what would work. */
const EXAMPLES = 'example.com, localhost:3000 or https://example.com/page'
const EXAMPLES_ZH = 'example.com、localhost:3000 或 https://example.com/page'

const WORDS: Record<'en' | 'zh-CN', Record<AddressProblem, string>> = {
  en: {
    empty: `Enter the address where the task starts, such as ${EXAMPLES}.`,
    spaces: `A web address has no spaces. Enter one such as ${EXAMPLES}.`,
    scheme: `Tandem opens only web pages (http:// or https://). Enter an address such as ${EXAMPLES}.`,
    host: `That is not a web address. Enter one such as ${EXAMPLES}.`,
  },
  'zh-CN': {
    empty: `请输入任务开始的网址，例如 ${EXAMPLES_ZH}。`,
    spaces: `网址中不能有空格。请输入例如 ${EXAMPLES_ZH} 的网址。`,
    scheme: `Tandem 只能打开网页（http:// 或 https://）。请输入例如 ${EXAMPLES_ZH} 的网址。`,
    host: `这不是网址。请输入例如 ${EXAMPLES_ZH} 的网址。`,
  },
}

/** Why an address was refused, in the reader's language ('zh…' reads Chinese, anything else English). */
export function describeAddressProblem(problem: AddressProblem, lang: string): string {
  return WORDS[lang.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'][problem]
}

/** The rule in one sentence, for API error messages and the planner. */
export const WEB_ADDRESS_RULE = `a web address (http or https) with a host such as ${EXAMPLES}`
