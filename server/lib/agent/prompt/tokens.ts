const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/

/** A cheap token estimate: CJK characters count one each, other text about four characters a token. */
export function estimateTokens(text: string): number {
  let cjk = 0
  let other = 0
  for (const ch of text) {
    if (CJK.test(ch)) cjk++
    else other++
  }
  return cjk + Math.ceil(other / 4)
}

/** `text` cut to `max` characters, saying how much was left out. */
export const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`)

/** `text` cut at a line break at or before `max` characters, so no line is left half-written. */
export function cutLines(text: string, max: number): { text: string; omittedLines: number } {
  if (text.length <= max) return { text, omittedLines: 0 }
  const end = text.lastIndexOf('\n', max)
  const kept = text.slice(0, end > 0 ? end : max)
  return { text: kept, omittedLines: text.slice(kept.length).split('\n').filter(Boolean).length }
}
