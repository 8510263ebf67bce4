/**
 * What Tandem prints to the terminal, in the terminal's language. The words themselves live in words.json so that
 * scripts/serve.mjs, which plain node runs before anything is compiled, reads the very same tables.
 */
import WORDS from './words.json'

export type TerminalLang = 'en' | 'zh-CN'
export type TerminalKey = keyof (typeof WORDS)['en']
export type TerminalParams = Record<string, string | number>

/** The two tables, English complete and Chinese for every key (a unit test keeps them in step). */
export const TERMINAL_WORDS: { en: Record<TerminalKey, string>; 'zh-CN': Partial<Record<TerminalKey, string>> } = WORDS

/** The terminal's language as the locale variables name it, in POSIX order: LC_ALL, then LC_MESSAGES, then LANG. */
export const terminalLang = (env: NodeJS.ProcessEnv = process.env): TerminalLang =>
  /^zh/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || '') ? 'zh-CN' : 'en'

/** `say('listening', {url})` → "Listening on http://…" (or its Chinese), placeholders filled. */
export function say(key: TerminalKey, params: TerminalParams = {}, lang: TerminalLang = terminalLang()): string {
  const template = TERMINAL_WORDS[lang][key] ?? TERMINAL_WORDS.en[key]
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
}
