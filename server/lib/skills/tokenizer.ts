import { stopwords as english } from '@orama/stopwords/english'
import { stopwords as mandarin } from '@orama/stopwords/mandarin'

const STOP = new Set([...english, ...mandarin].map((w) => w.toLowerCase()))
const segmenter = new Intl.Segmenter('zh-CN', { granularity: 'word' })

/** Words of Chinese, English or mixed text, lowercased, without stopwords (Orama's mandarin tokenizer does neither). */
export function tokenize(text: string): string[] {
  const tokens: string[] = []
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue
    const token = segment.toLowerCase()
    if (!STOP.has(token)) tokens.push(token)
  }
  return tokens
}

/** The tokenizer in the shape Orama expects. */
export const skillTokenizer = {
  language: 'mandarin',
  normalizationCache: new Map<string, string>(),
  tokenize: (raw: string) => [...new Set(tokenize(String(raw)))],
}
