import { describe, expect, it } from 'vitest'
import { findSensitive, luhnValid, redactSensitiveText } from '#protocol'
import { redactValues } from '../../server/lib/privacy/redact'

const kinds = (text: string, settings = {}) => findSensitive(text, settings).map((s) => [s.kind, text.slice(s.start, s.end)])

describe('card numbers', () => {
  it('passes the Luhn check only for real card numbers', () => {
    expect(luhnValid('4539172604589134')).toBe(true)
    expect(luhnValid('4539172604589135')).toBe(false)
  })

  it('are found with and without spaces or hyphens, and beside other numbers', () => {
    expect(kinds('Card 4539172604589134, exp 12/29')).toEqual([['card', '4539172604589134']])
    expect(kinds('卡号4539 1726 0458 9134。')).toEqual([['card', '4539 1726 0458 9134']])
    expect(kinds('pay 4539-1726-0458-9134 now')).toEqual([['card', '4539-1726-0458-9134']])
    expect(kinds('Qty 2 4539 1726 0458 9134')).toEqual([['card', '4539 1726 0458 9134']])
  })

  it('are not found in numbers that fail the check, are too short, or sit inside hashes and ids', () => {
    expect(kinds('Order 4539172604589135 and 453917260458')).toEqual([])
    expect(kinds('sha256 ab4539172604589134cd and a_4539172604589134')).toEqual([])
    expect(kinds('2025-11-02T10:00:00.000Z 1700000000000')).toEqual([])
  })
})

describe('card numbers beside calendars and tables', () => {
  it('are not read into runs of day numbers, which can pass the Luhn check', () => {
    const month = Array.from({ length: 31 }, (_, i) => i + 1).join(' ')
    const weeks = '日 一 二 三 四 五 六 29 30 31 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 1'
    expect(kinds(month)).toEqual([])
    expect(kinds(weeks)).toEqual([])
    expect(kinds('12 345 6789 1234 5 6')).toEqual([])
  })

  it('still finds cards printed in groups of four, Amex and Diners layouts, or as one run', () => {
    expect(kinds('Amex 3782 822463 10005, Visa 4539 1726 0458 9134 and 4539172604589134')).toEqual([
      ['card', '3782 822463 10005'], ['card', '4539 1726 0458 9134'], ['card', '4539172604589134'],
    ])
    expect(kinds('Diners 3056 930902 5904')).toEqual([['card', '3056 930902 5904']])
  })
})

describe('emails and phone numbers', () => {
  const text = 'Write to ada.canary@example.org or zhang%40example.cn, call +86 138 0013 8000, 13800138000, (415) 555-0134 or 010-62345678.'

  it('are found only when asked', () => {
    expect(kinds(text)).toEqual([])
    expect(kinds(text, { emails: true }).map(([k]) => k)).toEqual(['email', 'email'])
    expect(kinds(text, { phones: true })).toEqual([
      ['phone', '+86 138 0013 8000'],
      ['phone', '13800138000'],
      ['phone', '(415) 555-0134'],
      ['phone', '010-62345678'],
    ])
  })

  it('are masked in plain text and inside URL-encoded words', () => {
    const out = redactSensitiveText(`${text} https://shop.test/?tel=%2B86%20138%200013%208000&mail=ada.canary%40example.org`, { emails: true, phones: true }, '••••')
    for (const gone of ['ada.canary', 'zhang', '138', '555', '6234', '%2B86']) expect(out).not.toContain(gone)
    expect(out).toContain('Write to •••• or ••••, call ••••')
  })

  it('leave dates, prices and short numbers alone', () => {
    expect(kinds('On 2025-11-02 it cost $1,299.00 for 3 items, order #48213, version 1.2.3', { emails: true, phones: true })).toEqual([])
  })
})

describe('redactValues', () => {
  it('scrubs typed values, card numbers and the configured kinds from every string, and leaves identifiers intact', () => {
    const event = {
      actionId: 'a_12345678901234',
      hash: 'f'.repeat(10) + '4539172604589134' + 'e'.repeat(38),
      data: { text: 'pw Tr0ub4dor and 4539 1726 0458 9134', list: ['mail ada@example.org'], n: 4539172604589134 },
    }
    expect(redactValues(event, ['Tr0ub4dor'], { emails: true })).toEqual({
      ...event,
      data: { text: 'pw •••• and ••••', list: ['mail ••••'], n: 4539172604589134 },
    })
    expect(redactValues(event, [], {}).data.list).toEqual(['mail ada@example.org'])
  })
})
