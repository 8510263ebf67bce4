/**
 * The sensitive values the suite plants, so that the scan of every output it leaves (scripts/scan-outputs.ts)
 * can prove none of them got through. Each is unlikely anywhere by chance. Tests that type a credential, a card
 * or personal data use these, never a value of their own.
 *
 * The scan looks for every canary, so emails and phone numbers are planted only where the server is told to
 * hide them (TANDEM_REDACT_EMAILS, TANDEM_REDACT_PHONES): with those off, keeping them is the configured behaviour.
 * The access token is no canary: it belongs in the data dir and the server prints it on first start.
 */
export const CANARIES = {
  /** Typed into password fields; `&` and `"` make every escaped form differ from the raw one. */
  password: 'Tandem-Canary-Pw&"9931',
  /** A TANDEM_SECRET_<NAME> value, typed through {{secret:NAME}}. */
  secret: 'vault-canary-7f3e1c9a42',
  /** TANDEM_LLM_API_KEY of every test server: it may only ever travel in an Authorization header. */
  apiKey: 'sk-tandem-canary-0a9b8c7d6e5f4a3b',
  /** Luhn-valid card numbers: a Visa and a UnionPay. */
  cardVisa: '4539172604589134',
  cardUnionPay: '6222021508371940',
  email: 'ada.canary@example.org',
  emailCn: 'zhang.wei.canary@example.cn',
  phoneCn: '+86 138 0013 8000',
  phoneEn: '+1 (415) 555-0134',
} as const

export type CanaryName = keyof typeof CANARIES

/** A card number as people write it: groups of four. */
export const spaced = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ')

/**
 * The digit strings a card or phone canary is found by once separators are gone: the whole number, and for a
 * phone also the number without its country code, as pages write it at home.
 */
export function digitForms(name: CanaryName): string[] {
  const value = CANARIES[name]
  if (name === 'cardVisa' || name === 'cardUnionPay') return [value]
  if (name === 'phoneCn') return ['8613800138000', '13800138000']
  if (name === 'phoneEn') return ['14155550134', '4155550134']
  return []
}
