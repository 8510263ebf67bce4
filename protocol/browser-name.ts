import type { ReasonLang } from './risk-reasons'

/** A browser as a person names it ("Chrome 131 on Windows"), read from the User-Agent its calls carried. */
export interface BrowserName {
  browser: string
  version?: string
  os?: string
}

// Most specific first: Edge and Opera also say "Chrome", Chrome also says "Safari".
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bYaBrowser\/(\d+)/, 'Yandex'],
  [/\bChromium\/(\d+)/, 'Chromium'],
  [/\bHeadlessChrome\/(\d+)/, 'Chrome'],
  [/\bChrome\/(\d+)/, 'Chrome'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
]
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

export function browserName(userAgent: string | undefined): BrowserName | undefined {
  if (!userAgent) return undefined
  const found = BROWSERS.map(([re, name]) => [userAgent.match(re), name] as const).find(([m]) => m)
  if (!found) return undefined
  const os = SYSTEMS.find(([re]) => re.test(userAgent))?.[1]
  return { browser: found[1], ...(found[0]![1] ? { version: found[0]![1] } : {}), ...(os ? { os } : {}) }
}

/** "Chrome 131 on Linux" / "Linux 上的 Chrome 131"; undefined when the User-Agent names no browser Tandem knows. */
export function describeBrowser(userAgent: string | undefined, lang: ReasonLang): string | undefined {
  const b = browserName(userAgent)
  if (!b) return undefined
  const name = b.version ? `${b.browser} ${b.version}` : b.browser
  if (!b.os) return name
  return lang === 'zh-CN' ? `${b.os} 上的 ${name}` : `${name} on ${b.os}`
}
