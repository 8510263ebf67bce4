/**
 * The UI speaks the browser's language: Chinese for any zh locale, English otherwise. Each surface (panel,
 * console, replay) keeps its own dictionary; a key missing in Chinese falls back to English.
 */
export type Lang = 'en' | 'zh-CN'

export const pickLang = (locale: string | undefined | null): Lang => (locale?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en')

export type Dictionary = Record<string, string>

export type Dictionaries<D extends Dictionary> = { en: D; 'zh-CN': Partial<D> }

const PLACEHOLDER = /\{(\w+)\}/g

/** `t('steps', {n: 3})` with "{n} steps" → "3 steps". */
export function createTranslator<D extends Dictionary>(dictionaries: Dictionaries<D>, lang: Lang) {
  const dict = dictionaries[lang]
  return (key: keyof D & string, params: Record<string, string | number> = {}): string => {
    const template = dict[key] ?? dictionaries.en[key] ?? key
    return template.replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole))
  }
}

/** The names a template fills in, sorted. */
export const placeholdersOf = (template: string): string[] => [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).sort()

/**
 * What keeps a surface from speaking Chinese as fully as English: keys with no Chinese, and Chinese that fills in
 * other names than the English (a text would show a raw `{name}` or drop a value). Empty when the pair is complete.
 */
export function translationGaps<D extends Dictionary>(dictionaries: Dictionaries<D>): string[] {
  return Object.entries(dictionaries.en).flatMap(([key, english]) => {
    const chinese = dictionaries['zh-CN'][key]
    if (!chinese) return [`${key}: no Chinese`]
    const [want, got] = [placeholdersOf(english), placeholdersOf(chinese)]
    return want.join() === got.join() ? [] : [`${key}: Chinese fills in {${got.join('}, {')}}, English {${want.join('}, {')}}`]
  })
}
export type Translate<D extends Dictionary> = ReturnType<typeof createTranslator<D>>
