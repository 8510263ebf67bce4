/** A cheap token estimate: CJK characters count one each, other text about four characters a token. */
export function estimateTokens(text: string): number {
  let cjk = 0
  for (const ch of text) if (/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch)) cjk++
  return cjk + Math.ceil((text.length - cjk) / 4)
}

export const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`)
