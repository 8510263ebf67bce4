import { parseHTML } from 'linkedom'
import { h, render } from 'preact'
import { signal } from '@preact/signals'
import { afterEach, describe, expect, it } from 'vitest'
import { Question } from '../../extension/components/Question'
import { panelTranslator } from '../../extension/lib/panel/i18n'
import { sopFor, wordsFor, type ReviewStep } from '../../extension/lib/panel/recording'
import type { PanelStore } from '../../extension/lib/panel/store'

const savedDocument = globalThis.document
afterEach(() => {
  globalThis.document = savedDocument
})

const STEPS: ReviewStep[] = [
  { id: 1, step: { type: 'type', selector: '#n', text: '{{fullname}}' }, words: '', parameter: { name: 'fullname', label: 'Full name', secret: false } },
  { id: 2, step: { type: 'type', selector: '#c', text: '{{code}}' }, words: '', parameter: { name: 'code', label: 'Access code', secret: true } },
  { id: 3, step: { type: 'select', selector: '#r', option: 'Blue room' }, words: '' },
  { id: 4, step: { type: 'click', target: { by: 'role', value: 'button:Send' }, selector: 'button' }, words: '' },
]
const labels = ['Full name', 'Access code', 'Room', 'Send']

describe('a recording in the person’s words', () => {
  it('describes each step and writes the SOP in English and in Chinese', () => {
    for (const [lang, expected] of [
      ['en', ['Fill in “Full name” with full name (asked each run)', 'Fill in “Access code” with access code (asked each run), a secret never saved', 'Choose “Blue room” in “Room”', 'Click “Send”']],
      ['zh-CN', ['在“Full name”中填写 full name（每次运行时询问）', '在“Access code”中填写 access code（每次运行时询问），机密，不会保存', '在“Room”中选择“Blue room”', '点击“Send”']],
    ] as const) {
      const t = panelTranslator(lang)
      const steps = STEPS.map((s, i) => ({ ...s, words: wordsFor(t, lang, { step: s.step, label: labels[i], parameter: s.parameter }) }))
      expect(steps.map((s) => s.words)).toEqual(expected)
      const sop = sopFor(t, 'http://shop.test/book', steps)
      expect(sop.split('\n')[0]).toBe(lang === 'en' ? 'Start at http://shop.test/book.' : '从 http://shop.test/book 开始。')
      expect(sop.split('\n')[1]).toBe(lang === 'en' ? 'You fill in each time: Full name, Access code.' : '每次需要填写：Full name、Access code。')
      expect(sop).not.toContain('{{')
      expect(sop).toContain(`4. ${expected[3]}`)
    }
  })

  it('asks the person, in their language, to do a recorded step whose element is gone', () => {
    globalThis.document = parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document
    const root = document.createElement('div')
    document.body.appendChild(root)
    const view = { task: { questionWords: { code: 'RECORDED_STEP_GONE', params: { step: 5, intent: '点击“Send”' } } } }
    const store = {
      t: panelTranslator('zh-CN'),
      needsSite: signal(null),
      busy: signal(false),
      task: { question: signal('Step 5 could not find its element on the page: 点击“Send”. Please do …'), view: signal(view), answerText: signal('') },
    } as unknown as PanelStore
    render(h(Question, { store }), root)
    expect(root.querySelector('.question')?.textContent).toBe('第 5 步在页面上找不到要操作的元素：点击“Send”。请在标签页中亲自完成这一步，然后在这里回答以继续。')
  })
})
