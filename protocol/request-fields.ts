import type { RequestField } from './held-request'
import type { BodyEntry } from './request-body'
import { looksLikeToken, MASK, wordsOf } from './request-url'
import { redactSensitiveText, type RedactSettings } from './sensitive-text'

/**
 * How a request's fields are shown to the person: every name, and a short value only when the name does not say
 * it is a credential and the sensitive-text rules have masked what they mask.
 */

const SHOWN = 80
const MAX_FIELDS = 50

// Words a credential's name is made of ("user[password]", "pin", "otp_code", "cardNumber", Hacker News' "pw",
// pinyin "mima"). "code" and "key"
// hide a country code or a sort key too: a one-time code or an OAuth code shown by mistake costs more.
const SECRET_WORDS = new Set([
  'password', 'passwd', 'pwd', 'pw', 'psw', 'pswd', 'pword', 'mima', 'pass', 'passcode', 'passphrase', 'pin', 'otp', 'totp', 'mfa', 'token', 'secret', 'card',
  'cvv', 'cvc', 'cvn', 'csc', 'ssn', 'iban', 'auth', 'authorization', 'credential', 'credentials', 'cookie', 'session',
  'sessionid', 'sid', 'signature', 'captcha', 'code', 'key', 'ticket',
])
// The same run together, as names often are ("newpassword", "apikey", "smscode", "idcard").
const SECRET_PARTS = /password|passwd|passphrase|passcode|pwd|secret|token|apikey|accesskey|privatekey|secretkey|creditcard|cardnumber|cardno|cardnum|idcard|idnumber|smscode|verifycode|verificationcode|authcode|csrf|xsrf|密码|口令|身份证|银行卡|卡号|安全码|验证码|证件号/

/** Whether a field's name says its value is a credential, whatever else it may look like. */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase()
  if (SECRET_PARTS.test(lower.replace(/[^a-z\u0080-\uffff]/g, ''))) return true
  return wordsOf(name).split(' ').some((word) => SECRET_WORDS.has(word))
}

/** One field as the person is shown it. */
export function fieldOf(name: string, value: string | undefined, redact: RedactSettings): RequestField {
  const shownName = name.slice(0, 200)
  if (value === undefined || isSecretName(name)) return { name: shownName }
  // Cut before masking only far past what is shown, so a card number that starts in view is masked whole.
  const masked = redactSensitiveText(value.slice(0, SHOWN * 4), redact, MASK)
  if (looksLikeToken(masked.trim())) return { name: shownName, value: MASK }
  return { name: shownName, value: masked.length > SHOWN ? `${masked.slice(0, SHOWN)}…` : masked }
}

/** The fields of a request, each name once, at most as many as a held request carries. */
export function fieldsOf(entries: readonly BodyEntry[], redact: RedactSettings): RequestField[] {
  const seen = new Set<string>()
  const fields: RequestField[] = []
  for (const [name, value] of entries) {
    if (seen.has(name)) continue
    seen.add(name)
    fields.push(fieldOf(name, value, redact))
    if (fields.length >= MAX_FIELDS) break
  }
  return fields
}
