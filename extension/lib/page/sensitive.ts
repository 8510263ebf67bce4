import { isTag } from './dom'

export const MASK = '••••'

export const SECRET_AUTOCOMPLETE = /\b(cc-number|cc-csc|cc-exp(-month|-year)?|one-time-code|current-password|new-password)\b/i
// Names and ids are author-chosen, so match loosely: a false positive hides a value, a false negative leaks one.
const SECRET_NAME = /passw|pwd|card|cvv|cvc|csc|ccnum|cc[-_]?num|otp|one[-_ ]?time|security[-_ ]?code|\bpin\b|secret|ssn/i

/** Fields whose value must never leave the page: passwords, card numbers, CVCs, one-time codes. */
export function isSecretField(el: Element): boolean {
  if (!isTag(el, 'input') && !isTag(el, 'textarea')) return false
  if (isTag(el, 'input') && el.type === 'password') return true
  const autocomplete = el.getAttribute('autocomplete')
  if (autocomplete && SECRET_AUTOCOMPLETE.test(autocomplete)) return true
  const name = `${el.getAttribute('name') ?? ''} ${el.id}`
  return SECRET_NAME.test(name)
}

/** Replaces every occurrence of the caller's secret values (typed from the vault) with a mask. */
export function createRedactor(values: readonly string[] | undefined): (text: string) => string {
  const secrets = (values ?? []).filter((v) => v.length > 0).sort((a, b) => b.length - a.length)
  if (secrets.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK)
    return out
  }
}
