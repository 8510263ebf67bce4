import { describe, expect, it } from 'vitest'
import { ActionErrorCode, ApiErrorCode, TASK_END_CODES, describeError, describeResult, isKnownErrorCode, stepNumbers, countSteps, EVIDENCE_GOAL } from '#protocol'
import { PANEL_DICTIONARIES } from '../../extension/lib/panel/i18n'
import { CONSOLE_DICTIONARIES } from '../../ui/console/i18n'
import { REPLAY_DICTIONARIES } from '../../ui/replay/i18n'
import { DEMO_TEXT } from '../../scripts/demo/messages'
import { STATUS_WORDS, personEnd, statusOf } from '../../ui/status-words'

// A half-width colon, comma or semicolon right after Chinese: Chinese text takes the full-width forms (：，；).
const HALF_WIDTH_AFTER_CJK = /[\u4e00-\u9fff\u3001-\u303f\uff01-\uff5e“”][:,;]/

const everyCode = [...ApiErrorCode.options, ...ActionErrorCode.options, ...TASK_END_CODES]

describe('describeError', () => {
  it('says every code a person can meet as a plain sentence in English and in Chinese, never the code itself', () => {
    for (const code of everyCode) {
      expect(isKnownErrorCode(code)).toBe(true)
      for (const lang of ['en', 'zh-CN'] as const) {
        const words = describeError({ code, message: 'raw message' }, lang)
        expect(words, `${code} ${lang}`).not.toContain(code)
        expect(words, `${code} ${lang}`).not.toMatch(/\{\w+\}/)
        expect(words, `${code} ${lang}`).not.toContain('raw message')
        if (lang === 'zh-CN') {
          expect(words, code).toMatch(/[\u4e00-\u9fff]/)
          expect(words, code).not.toMatch(HALF_WIDTH_AFTER_CJK)
        }
      }
    }
  })

  it('names the step an action failed on by the number the person sees, and the rejected step in its own sentence', () => {
    expect(describeError({ code: 'TARGET_NOT_FOUND', message: 'x', details: { step: 5 } }, 'en')).toMatch(/^Step 5: The element to act on was not on the page/)
    expect(describeError({ code: 'TARGET_NOT_FOUND', message: 'x', details: { step: 5 } }, 'zh-CN')).toMatch(/^第 5 步：页面上找不到/)
    expect(describeError({ code: 'REJECTED', message: 'x', details: { step: 4 } }, 'en')).toBe('You rejected step 4, so the task stopped there. Nothing of that step was done.')
    expect(describeError({ code: 'REJECTED', message: 'x' }, 'zh-CN')).toBe('你拒绝了一步，任务就此停止。那一步什么都没有执行。')
  })

  it('says why a navigation failed and which site was refused, from the details the step carries', () => {
    const notFound = { code: 'NAVIGATION_FAILED', message: 'x', details: { reason: 'http-status', status: 404, url: 'http://shop.test/gone' } }
    expect(describeError(notFound, 'en')).toContain('404')
    expect(describeError(notFound, 'zh-CN')).toContain('404')
    expect(describeError(notFound, 'zh-CN')).toMatch(/[\u4e00-\u9fff]/)
    // A task's error keeps the failure's fields beside the step's number.
    const dns = { code: 'NAVIGATION_FAILED', message: 'x', details: { reason: 'dns', url: 'http://nowhere.invalid/', step: 2, type: 'navigate' } }
    expect(describeError(dns, 'en')).toMatch(/^Step 2: The site nowhere\.invalid could not be found/)
    expect(describeError(dns, 'zh-CN')).toMatch(/^第 2 步：找不到网站 nowhere\.invalid/)
    expect(describeError({ code: 'SITE_REFUSED', message: 'x', origin: 'https://ads.example' }, 'zh-CN')).toBe('你在这个任务里没有允许 https://ads.example，Tandem 不会去那里。')
    expect(describeError({ code: 'NAVIGATION_FAILED', message: 'x' }, 'en')).toBe('The page did not come up. Check the address, or whether the site is running.')
  })

  it('keeps the message of a code this version does not know, in the reader’s frame', () => {
    expect(describeError({ code: 'SOMETHING_NEW', message: 'the disk is full' }, 'zh-CN')).toBe('出错了：the disk is full')
  })
})

describe('describeResult', () => {
  it('words a result with a code in the reader’s language and keeps the planner’s own text otherwise', () => {
    expect(describeResult({ text: 'Ran all 9 steps of the script.', code: 'SCRIPT_DONE', params: { n: 9 } }, 'zh-CN')).toBe('脚本的 9 步全部执行完毕。')
    expect(describeResult({ text: 'The cheapest cable costs ¥9.' }, 'zh-CN')).toBe('The cheapest cable costs ¥9.')
  })
})

describe('stepNumbers', () => {
  it('counts the actions and leaves the picture taken before asking unnumbered', () => {
    const steps = [{ type: 'navigate' }, { type: 'click' }, { type: 'screenshot', goal: EVIDENCE_GOAL }, { type: 'click' }, { type: 'screenshot' }]
    expect(stepNumbers(steps)).toEqual([1, 2, undefined, 3, 4])
    expect(countSteps(steps)).toBe(4)
  })
})

describe('the person’s own choices', () => {
  it('are their own words and tone, not a failure', () => {
    expect(personEnd('FAILED', { code: 'REJECTED' })).toBe('rejected')
    expect(personEnd('CANCELED', { code: 'CANCELED' })).toBe('canceled')
    expect(personEnd('FAILED', { code: 'TIMEOUT' })).toBeUndefined()
    expect(statusOf('en', 'FAILED', { code: 'REJECTED' })).toEqual({ words: 'Stopped: you said no', tone: 'by-you' })
    expect(statusOf('zh-CN', 'CANCELED')).toEqual({ words: '已由你取消', tone: 'by-you' })
    expect(statusOf('en', 'FAILED', { code: 'TIMEOUT' })).toEqual({ words: 'Failed', tone: 'FAILED' })
  })

  it('never say "you" for what an agent did: its cancel is named, in the status and the sentence', () => {
    const claude = { kind: 'agent' as const, tokenId: 't1', name: 'Claude Code', client: 'claude-code' }
    expect(statusOf('en', 'CANCELED', { code: 'CANCELED' }, claude)).toEqual({ words: 'Canceled by Claude Code (claude-code)', tone: 'CANCELED' })
    expect(statusOf('zh-CN', 'CANCELED', { code: 'CANCELED' }, { ...claude, client: 'Claude Code' })).toEqual({ words: '已由 Claude Code 取消', tone: 'CANCELED' })
    expect(statusOf('en', 'CANCELED', { code: 'CANCELED' }, { kind: 'owner', via: 'console' })).toEqual({ words: 'Canceled by you', tone: 'by-you' })
    const error = { code: 'CANCELED', message: 'Canceled by Claude Code.', details: { canceledBy: 'Claude Code' } }
    expect(describeError(error, 'en')).toBe('Claude Code canceled the task.')
    expect(describeError(error, 'zh-CN')).toBe('Claude Code 取消了这个任务。')
  })
})

describe('Chinese punctuation', () => {
  it('uses full-width colons and commas after Chinese in every surface', () => {
    const surfaces = { panel: PANEL_DICTIONARIES, console: CONSOLE_DICTIONARIES, replay: REPLAY_DICTIONARIES, demo: DEMO_TEXT }
    const bad = Object.entries(surfaces).flatMap(([name, d]) =>
      Object.entries(d['zh-CN'] as Record<string, string>).filter(([, text]) => HALF_WIDTH_AFTER_CJK.test(text)).map(([key, text]) => `${name} ${key}: ${text}`),
    )
    bad.push(...Object.values(STATUS_WORDS['zh-CN']).filter((text) => HALF_WIDTH_AFTER_CJK.test(text)))
    expect(bad).toEqual([])
  })
})

describe('a step without effect', () => {
  const error = { code: 'ACTION_NO_EFFECT', message: 'nothing changed: expected "B-200", found "A-100" (unchanged)', effect: { expected: '"B-200"', found: '"A-100" (unchanged)' } }
  it('says what it expected and what it found, in the reader’s language', () => {
    expect(describeError(error, 'en')).toBe('The step ran, but the page did not change: expected "B-200", found "A-100" (unchanged).')
    expect(describeError(error, 'zh-CN')).toBe('这一步执行了，但页面没有变化：应为 "B-200"，实际为 "A-100" (unchanged)。')
  })
  it('falls back to its general words without them', () => {
    expect(describeError({ code: 'ACTION_NO_EFFECT', message: 'x' }, 'en')).toContain('did not change the way it should have')
  })
})
