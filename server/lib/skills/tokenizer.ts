import type { Tokenizer } from '@orama/orama'
import { stopwords as english } from '@orama/stopwords/english'
import { stopwords as mandarin } from '@orama/stopwords/mandarin'
import { createTokenizer } from '@orama/tokenizers/mandarin'

// Orama's English list lacks "a", and requests to an agent are full of "please".
const STOP = new Set([...english, ...mandarin, 'a', 'please'].map((w) => w.toLowerCase()))
const HAN = /^\p{Script=Han}$/u
/** Scripts written without spaces between words: only these need the segmenter's dictionary. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
/**
 * A word as Intl.Segmenter (Unicode word breaks) cuts spaced text: letters, digits and _, joined by . : '
 * between letters ("mail.google.com", "it's") and by . , ; ' between digits ("3.5", "1,000").
 */
const WORD = /[\p{L}\p{M}\p{N}_]+(?:(?:(?<=\p{L}\p{M}*)[.:'’·](?=\p{L})|(?<=\p{N})[.,;'’](?=\p{N}))[\p{L}\p{M}\p{N}_]+)*/gu

// Orama's mandarin tokenizer segments with Intl.Segmenter, which splits Chinese into words and keeps
// English words whole, so one tokenizer serves both languages and mixed text. It neither lowercases
// nor applies stopWords, so "GitHub" would never meet "github": this wrapper does both.
const base = createTokenizer() as Tokenizer

/** English plurals folded to the singular ("issues" → "issue"), so a query need not guess the number. */
function fold(token: string): string {
  if (!/^[a-z]{4,}$/.test(token)) return token
  if (token.endsWith('ies')) return `${token.slice(0, -3)}y`
  if (token.endsWith('s') && !/(ss|us|is)$/.test(token)) return token.slice(0, -1)
  return token
}

/**
 * The segmenter's words, one list per line. It costs ~1 ms a KB, so lines in spaced scripts only (most of
 * an English SOP) are cut by a regular expression that gives the same words ~10× faster.
 */
function runs(text: string): string[][] {
  return text.split('\n').map((line) => (UNSPACED.test(line) ? (base.tokenize(line) as string[]) : (line.match(WORD) ?? [])))
}

/** The words of `text` before lowercasing, stopwords and folding (exported for tests). */
export const words = (text: string): string[] => runs(text).flat()

/**
 * Words of Chinese, English or mixed text: lowercased, without stopwords, plurals folded. The segmenter
 * splits words missing from its dictionary into single characters (账号 → 账, 号, 电商 → 电, 商); such a
 * run is kept as its character pairs instead, so the word matches itself and a lone character does not
 * match every word that starts with it.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = []
  let run: string[] = []
  const flush = () => {
    if (run.length === 1) tokens.push(run[0])
    for (let i = 1; i < run.length; i++) tokens.push(run[i - 1] + run[i])
    run = []
  }
  for (const words of runs(text)) {
    for (const raw of words) {
      const token = raw.toLowerCase()
      if (STOP.has(token)) {
        flush()
        continue
      }
      if (token.length === 1 && HAN.test(token)) {
        run.push(token)
        continue
      }
      flush()
      tokens.push(fold(token))
    }
    flush()
  }
  return [...new Set(tokens)]
}

/** The tokenizer in the shape Orama's `components.tokenizer` takes, for documents and queries alike. */
export const skillTokenizer: Tokenizer = { ...base, tokenize: (raw: string) => tokenize(String(raw)) }
