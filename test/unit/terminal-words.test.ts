import { describe, expect, it } from 'vitest'
import { TERMINAL_WORDS, say, terminalLang } from '../../server/lib/terminal/words'
import { translationGaps } from '../../ui/i18n'

describe("the terminal's words", () => {
  it('has every start-up line in Chinese, filling in the same values as the English', () => {
    expect(translationGaps(TERMINAL_WORDS)).toEqual([])
  })

  it('follows LC_ALL, then LC_MESSAGES, then LANG', () => {
    expect(terminalLang({ LANG: 'zh_CN.UTF-8' })).toBe('zh-CN')
    expect(terminalLang({ LC_MESSAGES: 'zh_TW.UTF-8', LANG: 'en_US.UTF-8' })).toBe('zh-CN')
    expect(terminalLang({ LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en')
    expect(terminalLang({})).toBe('en')
  })

  it('fills in values and keeps a placeholder it was not given', () => {
    expect(say('listening', { url: 'http://127.0.0.1:3000' }, 'zh-CN')).toBe('正在监听 http://127.0.0.1:3000')
    expect(say('openConsole', {}, 'en')).toBe('[tandem] Console: {url}')
  })
})
