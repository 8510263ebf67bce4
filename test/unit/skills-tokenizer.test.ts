import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTokenizer } from '@orama/tokenizers/mandarin'
import { describe, expect, it } from 'vitest'
import { skillTokenizer, tokenize, words } from '../../server/lib/skills/tokenizer'

describe('the skills tokenizer', () => {
  it("builds on Orama's mandarin tokenizer, which segments with Intl.Segmenter on this Node", () => {
    expect(typeof Intl.Segmenter).toBe('function')
    const words = createTokenizer().tokenize('我们在电商网站搜索商品')
    expect(words).toEqual(expect.arrayContaining(['网站', '搜索', '商品']))
    // What the wrapper is for: the base keeps case and stopwords.
    expect(createTokenizer().tokenize('The GitHub')).toEqual(['The', 'GitHub'])
  })

  it('cuts lines without Chinese into the same words as the segmenter, without it', () => {
    const lines = readdirSync('skills')
      .flatMap((slug) => readFileSync(join('skills', slug, 'SKILL.md'), 'utf8').split('\n'))
      .filter((line) => line.trim() && !/\p{Script=Han}/u.test(line))
    expect(lines.length).toBeGreaterThan(200)
    const base = createTokenizer()
    for (const line of [...lines, "It's e-mail: mail.google.com, office365.com v3.5 1,000 — 10:30 naïve café foo_bar a.5 'quoted'"]) {
      // The base tokenizer returns each word once.
      expect([...new Set(words(line))], line).toEqual(base.tokenize(line))
    }
  })

  it('lowercases', () => {
    expect(tokenize('GitHub ISSUE Gmail')).toEqual(['github', 'issue', 'gmail'])
  })

  it('drops English and Chinese stopwords', () => {
    expect(tokenize('the checkout of an order, please')).toEqual(['checkout', 'order'])
    expect(tokenize('report a bug')).toEqual(['report', 'bug'])
    expect(tokenize('我 的 账单 和 发票 了')).toEqual(['账单', '发票'])
  })

  it('segments Chinese into words', () => {
    expect(tokenize('在电商网站搜索并比较商品')).toEqual(['电商', '网站', '搜索', '比较', '商品'])
    expect(tokenize('下载发票')).toEqual(['下载', '发票'])
  })

  it('keeps words the dictionary lacks as character pairs, not lone characters', () => {
    // Intl.Segmenter splits 账号 and 电商 into single characters.
    expect(createTokenizer().tokenize('账号')).toEqual(['账', '号'])
    expect(tokenize('登录账号')).toEqual(['登录', '账号'])
    expect(tokenize('写邮件')).toEqual(['写', '邮件'])
    // Pairs never span lines.
    expect(tokenize('账\n号')).toEqual(['账', '号'])
  })

  it('tokenizes mixed Chinese and English text', () => {
    expect(tokenize('在 GitHub 上提交 Issue')).toEqual(['github', '提交', 'issue'])
  })

  it('folds English plurals so queries need not guess the number', () => {
    expect(tokenize('issues invoices categories')).toEqual(['issue', 'invoice', 'category'])
    // Words that only look plural stay.
    expect(tokenize('address status analysis gas')).toEqual(['address', 'status', 'analysis', 'gas'])
  })

  it('gives Orama one token list per text, without duplicates', () => {
    expect(skillTokenizer.tokenize('Issue issue ISSUES')).toEqual(['issue'])
    expect(skillTokenizer.language).toBe('mandarin')
  })
})
