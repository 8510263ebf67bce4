import fc from 'fast-check'

/**
 * Text made of what breaks naive writers and readers: line and paragraph separators, NEL, C0 and C1 controls, lone
 * surrogates, bidi controls, a BOM, zero-width joins, emoji, CJK, and the characters YAML and Markdown give meaning.
 */
const PIECES = [
  '\u2028', '\u2029', '\u0085', '\n', '\r', '\r\n', '\t', '\u0000', '\u0007', '\u000b', '\u000c', '\u001b', '\u007f', '\u0080', '\u009f',
  '\ud800', '\udbff', '\udc00', '\udfff', '\u202a', '\u202b', '\u202d', '\u202e', '\u202c', '\u2066', '\u2067', '\u2068', '\u2069',
  '\u200e', '\u200f', '\u061c', '\ufeff', '\u200b', '\u200d', '\ufffd', '\ufffe', '\uffff', '😀', '👩‍👩‍👧', '🇨🇳', '𠀀', '中文', '技能', 'ｱ',
  'é', 'e\u0301', '"', "'", '\\', '\\u2028', '---', '# ', ': ', '- ', '[', ']', '{', '}', '>', '|', '{{x}}', '<script>', ' ', '  ',
]

export const hardText = (maxParts = 10): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
        { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
        { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
      ),
      { maxLength: maxParts },
    )
    .map((parts) => parts.join(''))

/** Mostly hard text, sometimes a plain one, so a request with several fields is also often taken. */
export const someText = (plain: string) => fc.oneof({ weight: 3, arbitrary: hardText() }, { weight: 1, arbitrary: fc.constant(plain) })

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** What the server is expected to make of a text field: keep it (as it will read back) or refuse it. */
export type Verdict = { kept: true; as: string } | { kept: false }

const refused: Verdict = { kept: false }
const wellFormed = (t: string) => !LONE_SURROGATE.test(t)

/** Free text that may be empty (a reason): kept exactly, unless it is not well-formed. */
export const asReason = (t: string): Verdict => (wellFormed(t) ? { kept: true, as: t } : refused)

/** Text that must say something (a goal, an answer, an SOP, a plan's step): trimmed, kept, unless empty or broken. */
export const asFilled = (t: string): Verdict => (t.trim() && wellFormed(t) ? { kept: true, as: t.trim() } : refused)

/** A name: what asFilled keeps, and one line. */
export const asName = (t: string): Verdict => {
  const filled = asFilled(t)
  return filled.kept && !/[\p{Cc}\u2028\u2029]/u.test(filled.as) ? filled : refused
}

/** Text the page or the model may give too (a parameter's label, a step's reason): anything, as long as it is there. */
export const asAny = (min: number) => (t: string): Verdict => (t.length >= min ? { kept: true, as: t } : refused)
