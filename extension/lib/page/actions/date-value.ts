/**
 * Dates and times as a person types them ("24/11/2026", "Nov 24 2026", "2026年11月24日", "3:30 PM", "下午3点30分"),
 * in the form a native date/time input holds (2026-11-24, 15:30). Typing digits into such an input does nothing —
 * neither by events nor by trusted keys, whose order depends on the browser's locale — so its value is set directly.
 */

export const DATE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week'])

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function monthNamed(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '')
  if (w.length < 3) return null
  const at = MONTHS.findIndex((m) => w.startsWith(m))
  return at < 0 ? null : at + 1
}

function validDate(y: number, m: number, d: number): string | null {
  if (!(y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null
  const date = new Date(Date.UTC(2000, m - 1, d))
  // 31 February is no date; checked in a leap year so 29 February is allowed, then against the real year.
  if (date.getUTCMonth() !== m - 1) return null
  if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return null
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`
}

const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y))

/** Whether day/month order reads month first where both are 12 or less: the page's (or browser's) language. */
function monthFirst(lang: string): boolean {
  return /^en-(us|ph|ca)\b/i.test(lang) || /^en$/i.test(lang)
}

export function parseDate(text: string, lang = 'en-US'): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ')
  let m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(t)
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]))
  m = /^(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{4}|\d{2})$/.exec(t)
  if (m) {
    const a = Number(m[1])
    const b = Number(m[2])
    const y = fullYear(m[3]!)
    if (a > 12) return validDate(y, b, a)
    if (b > 12) return validDate(y, a, b)
    return monthFirst(lang) ? validDate(y, a, b) : validDate(y, b, a)
  }
  // "Nov 24 2026", "November 24th, 2026", "Tue Nov 24 2026"
  m = /^(?:[a-z]+\.? )?([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)? (\d{4})$/i.exec(t)
  if (m && monthNamed(m[1]!)) return validDate(Number(m[3]), monthNamed(m[1]!)!, Number(m[2]))
  // "24 November 2026", "24th Nov 2026", "24-Nov-2026"
  m = /^(\d{1,2})(?:st|nd|rd|th)?[ -]([a-z]+\.?)[ -](\d{4})$/i.exec(t)
  if (m && monthNamed(m[2]!)) return validDate(Number(m[3]), monthNamed(m[2]!)!, Number(m[1]))
  // "2026 Nov 24"
  m = /^(\d{4}) ([a-z]+\.?) (\d{1,2})$/i.exec(t)
  if (m && monthNamed(m[2]!)) return validDate(Number(m[1]), monthNamed(m[2]!)!, Number(m[3]))
  return null
}

export function parseTime(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ')
  // 下午3点30分, 上午9点, 15点30分, 晚上8:15
  let m = /^(上午|早上|凌晨|中午|下午|晚上)?\s*(\d{1,2})\s*[点點:：时時]\s*(?:(\d{1,2})\s*分?)?(?:\s*(\d{1,2})\s*秒)?$/.exec(t)
  if (m && (m[1] || /[点點时時]/.test(t))) {
    let h = Number(m[2])
    const afternoon = m[1] === '下午' || m[1] === '晚上' || (m[1] === '中午' && h < 11)
    if (afternoon && h < 12) h += 12
    if ((m[1] === '凌晨' || m[1] === '上午' || m[1] === '早上') && h === 12) h = 0
    return clock(h, Number(m[3] ?? 0), m[4] ? Number(m[4]) : undefined)
  }
  // 3:30 PM, 3 pm, 3:30:15 p.m., 15:30, 1530? (no: four digits read as a year elsewhere)
  m = /^(\d{1,2})(?:[:.h](\d{2}))?(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$/.exec(t)
  if (!m || (!m[2] && !m[4])) return null
  let h = Number(m[1])
  if (m[4]) {
    if (h < 1 || h > 12) return null
    if (m[4].startsWith('p') && h < 12) h += 12
    if (m[4].startsWith('a') && h === 12) h = 0
  }
  return clock(h, Number(m[2] ?? 0), m[3] ? Number(m[3]) : undefined)
}

function clock(h: number, min: number, s?: number): string | null {
  if (h > 23 || min > 59 || (s ?? 0) > 59) return null
  return `${pad(h)}:${pad(min)}${s ? `:${pad(s)}` : ''}`
}

function parseMonth(text: string, lang: string): string | null {
  const t = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ')
  let m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*月?$/.exec(t)
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12) return `${m[1]}-${pad(Number(m[2]))}`
  m = /^(\d{1,2})\s*[-/.]\s*(\d{4})$/.exec(t)
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 12) return `${m[2]}-${pad(Number(m[1]))}`
  m = /^([a-z]+\.?) (\d{4})$/i.exec(t)
  if (m && monthNamed(m[1]!)) return `${m[2]}-${pad(monthNamed(m[1]!)!)}`
  // A whole date names its month too.
  return parseDate(t, lang)?.slice(0, 7) ?? null
}

function parseWeek(text: string): string | null {
  const t = text.trim().toLowerCase()
  let m = /^(\d{4})\s*-?\s*w(?:eek)?\s*(\d{1,2})$/.exec(t)
  if (!m) {
    const n = /^(?:w|week|第)\s*(\d{1,2})\s*(?:周)?[, ]*(?:of )?(\d{4})年?$/.exec(t)
    if (n) m = [n[0], n[2]!, n[1]!] as unknown as RegExpExecArray
  }
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 53) return null
  return `${m[1]}-W${pad(Number(m[2]))}`
}

function parseDateTime(text: string, lang: string): string | null {
  const t = text.trim()
  const iso = /^(\d{4}-\d{2}-\d{2})[T ](\d{1,2}:\d{2}(?::\d{2})?)$/.exec(t)
  if (iso) return `${iso[1]}T${iso[2]!.padStart(5, '0')}`
  // The time is the tail that reads as one ("… 3:30 PM", "… 下午3点30分", "… 15:30"); the rest is the date.
  const words = t.replace(/,/g, ' ').replace(/(日)(?=\S)/, '$1 ').split(/\s+/)
  for (let cut = words.length - 1; cut >= 1; cut--) {
    const date = parseDate(words.slice(0, cut).join(' '), lang)
    const time = parseTime(words.slice(cut).join(' '))
    if (date && time) return `${date}T${time}`
  }
  const date = parseDate(t, lang)
  return date ? `${date}T00:00` : null
}

/** The value a native input of `type` holds for what a person typed, or null when it reads as none. */
export function nativeDateValue(type: string, text: string, lang?: string): string | null {
  const language = lang || 'en-US'
  switch (type) {
    case 'date':
      return parseDate(text, language)
    case 'time':
      return parseTime(text)
    case 'datetime-local':
      return parseDateTime(text, language)
    case 'month':
      return parseMonth(text, language)
    case 'week':
      return parseWeek(text)
    default:
      return null
  }
}
