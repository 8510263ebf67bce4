/**
 * The UI speaks the browser's language: Chinese for any zh locale, English otherwise. Each surface (panel,
 * console, replay) keeps its own dictionary; a key missing in Chinese falls back to English.
 */
export type Lang = 'en' | 'zh-CN'

export const pickLang = (locale: string | undefined | null): Lang => (locale?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en')

export type Dictionary = Record<string, string>

/** `t('steps', {n: 3})` with "{n} steps" → "3 steps". */
export function createTranslator<D extends Dictionary>(dictionaries: { en: D; 'zh-CN': Partial<D> }, lang: Lang) {
  const dict = dictionaries[lang]
  return (key: keyof D & string, params: Record<string, string | number> = {}): string => {
    const template = dict[key] ?? dictionaries.en[key] ?? key
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
  }
}
export type Translate<D extends Dictionary> = ReturnType<typeof createTranslator<D>>
