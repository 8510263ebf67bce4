/**
 * Labels as the risk rules compare them. Pages spell the same word many ways: full-width forms from Chinese
 * input methods (ＯＫ, ！), zero-width characters left by editors and anti-scraping tricks, and UI libraries that
 * space out short CJK labels (antd renders a two-character button as `删 除`). Keywords go through the same
 * function, so a rules file written with either spelling still matches.
 */

// Zero-width spaces and joiners, word joiner, BOM, soft hyphen, and the variation selectors that turn a
// character into its emoji form (🗑️ is 🗑 plus U+FE0F): none changes what a label says.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\ufe00-\ufe0f]/g
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303f\\uff01-\\uff60'
const SPACE_INSIDE_CJK = new RegExp(`(?<=[${CJK}])\\s+(?=[${CJK}])`, 'gu')

/** NFKC, no invisible characters, lower case, no spaces between CJK characters, single spaces elsewhere. */
export function normalizeLabel(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').toLowerCase().replace(/\s+/g, ' ').replace(SPACE_INSIDE_CJK, '').trim()
}

/** Whether a label has a letter of any script: one without is a bare icon, emoji, symbol or number. */
export const hasLetters = (text: string): boolean => /\p{L}/u.test(text)
