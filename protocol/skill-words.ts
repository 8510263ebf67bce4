import type { SkillParameter } from './skills'

type WordLang = 'en' | 'zh-CN'

const ASKED = { en: '{label} (asked each run)', 'zh-CN': '{label}（每次运行时询问）' }
const SECRET = { en: 'the secret {name} (set on the server)', 'zh-CN': '机密 {name}（在服务器上设置）' }

/** `{{name}}` and `{{secret:NAME}}`, with the backticks an SOP may wrap them in. */
const PLACEHOLDER = /`?\{\{\s*(secret:)?([A-Za-z][A-Za-z0-9_]*)\s*\}\}`?/g

/**
 * A label as it reads inside a sentence: "Your name" → "your name", while "Email" → "email" and an acronym such as
 * "URL" or a Chinese label is left as it is.
 */
const inSentence = (label: string) => (/^\p{Lu}\p{Ll}/u.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label)

/** What a person reads for one parameter: its label in a sentence and that it is asked at each run. */
export function askedEachRun(label: string, lang: WordLang): string {
  return ASKED[lang].replace('{label}', inSentence(label.trim()))
}

/**
 * A skill's text (name, description, SOP, step words) as a person reads it: each `{{name}}` a skill asks for
 * becomes its label and "(asked each run)", each `{{secret:NAME}}` names the secret set on the server. The stored
 * skill keeps the placeholders, which the replay fills in; a parameter the skill does not declare is named by its
 * words (`full_name` → "full name").
 */
export function skillWords(text: string, parameters: readonly SkillParameter[] | undefined, lang: WordLang): string {
  if (!text.includes('{{')) return text
  const labels = new Map((parameters ?? []).map((p) => [p.name, p.label]))
  return text.replace(PLACEHOLDER, (_whole, secret: string | undefined, name: string) =>
    secret ? SECRET[lang].replace('{name}', name) : askedEachRun(labels.get(name) ?? name.replace(/_/g, ' '), lang),
  )
}
