import { describe, expect, it } from 'vitest'
import { asksFirst, classifyRisk, type RiskSubject } from '#protocol'

const judged = (subject: Partial<RiskSubject> & Pick<RiskSubject, 'actionType'>) => classifyRisk({ params: {}, ...subject })
const button = (text: string, extra: Record<string, unknown> = {}) => ({ tag: 'button', role: 'button', text, attributes: {}, ...extra })

describe('asking first: effects decide where the barrier holds them', () => {
  const byWords = [
    judged({ actionType: 'click', element: button('Place order') }),
    judged({ actionType: 'click', element: button('Delete account') }),
    judged({ actionType: 'click', element: button('发送') }),
    judged({ actionType: 'type', params: { text: 'Buy milk', submit: true }, element: { tag: 'input', attributes: { class: 'new-todo' } } }),
    judged({ actionType: 'press', params: { keys: 'Control+Enter' }, element: { tag: 'textarea', attributes: {} } }),
  ]

  it('runs a step only its words made risky, where the barrier holds what it sends', () => {
    for (const assessed of byWords) {
      expect(assessed.risk).toBe('high')
      expect(asksFirst(assessed, 'held')).toBe(false)
    }
  })

  it('asks by the words where the barrier cannot hold: the fallback, the barrier off, or not known yet', () => {
    for (const barrier of ['blocked', 'off', undefined] as const) for (const assessed of byWords) expect(asksFirst(assessed, barrier)).toBe(true)
  })

  it('counts Enter in a message box as sending only where nothing can hold a socket’s frame', () => {
    for (const element of [{ tag: 'textarea', attributes: {} as Record<string, string> }, { tag: 'div', role: 'textbox', attributes: { contenteditable: 'true' } }]) {
      const enter = judged({ actionType: 'press', params: { keys: 'Enter' }, element })
      expect(enter.risk).toBe('medium')
      expect(asksFirst(enter, 'blocked')).toBe(true)
      expect(asksFirst(enter, 'held')).toBe(false)
    }
    // Enter in a one-line field is a form's business: the fallback blocks what a form posts.
    expect(asksFirst(judged({ actionType: 'press', params: { keys: 'Enter' }, element: { tag: 'input', attributes: {} } }), 'blocked')).toBe(false)
  })

  it('asks first, barrier or not, for what never goes out as a request it holds', () => {
    const blind = [
      judged({ actionType: 'upload', params: { file: 'cv.pdf' } }),
      judged({ actionType: 'click', element: { tag: 'a', text: 'Get the installer', attributes: { href: '/setup.exe' } } }),
      judged({ actionType: 'click', element: { tag: 'a', text: 'Invoice', attributes: { href: '/invoice/7', download: '' } } }),
      judged({ actionType: 'type', params: { text: 'hunter2' }, element: { tag: 'input', attributes: { type: 'password' } } }),
      judged({ actionType: 'type', params: { text: '{{secret:PIN}}' }, element: { tag: 'input', attributes: {} } }),
      judged({ actionType: 'navigate', params: { url: 'javascript:alert(1)' } }),
      judged({ actionType: 'click', element: button('Add a note'), declared: 'high' }),
    ]
    for (const assessed of blind) expect(asksFirst(assessed, 'held'), assessed.reasons.join('; ')).toBe(true)
  })

  it('asks first for a step its author called high risk, though its words said as much already', () => {
    const placeOrder = judged({ actionType: 'click', element: button('Place order'), declared: 'high' })
    expect(placeOrder.details.map((d) => d.code)).not.toContain('declared')
    expect(asksFirst(placeOrder, 'held')).toBe(false)
    expect(asksFirst(placeOrder, 'held', 'high')).toBe(true)
    expect(asksFirst(placeOrder, 'held', 'medium')).toBe(false)
  })

  it('keeps the person’s own rules speaking first', () => {
    const rules = { high: { keywords: ['archive'], selectors: ['#wipe'], urlPatterns: ['/admin/'] }, medium: { keywords: [], selectors: [], urlPatterns: [] }, exempt: [] }
    expect(asksFirst(classifyRisk({ actionType: 'click', params: {}, element: button('Archive') }, rules), 'held')).toBe(true)
    expect(asksFirst(classifyRisk({ actionType: 'click', params: {}, selector: '#wipe' }, rules), 'held')).toBe(true)
    expect(asksFirst(classifyRisk({ actionType: 'navigate', params: { url: 'https://x.test/admin/users' } }, rules), 'held')).toBe(true)
  })

  it('never asks a step nothing made risky', () => {
    for (const barrier of ['held', 'blocked', 'off', undefined] as const) {
      expect(asksFirst(judged({ actionType: 'click', element: button('Show more') }), barrier)).toBe(false)
      expect(asksFirst(judged({ actionType: 'click', element: button('Add a note'), declared: 'medium' }), barrier)).toBe(false)
    }
  })
})

describe('a double click and a right click', () => {
  const link = (attributes: Record<string, string>) => ({ tag: 'a', text: 'Invoice', attributes })
  const submit = { tag: 'button', text: 'Next', attributes: { type: 'submit' }, form: { method: 'post', action: '/profile' } }

  it('judges a double click as a click: its first click follows the link, sends the form, downloads the file', () => {
    for (const element of [button('Place order'), button('Delete account'), link({ href: '/setup.exe' }), link({ href: '/invoice/7', download: '' }), submit]) {
      const click = judged({ actionType: 'click', element })
      const double = judged({ actionType: 'double_click', element })
      expect(double.risk, element.text).toBe(click.risk)
      expect(double.details, element.text).toEqual(click.details)
      for (const barrier of ['held', 'blocked', 'off', undefined] as const) expect(asksFirst(double, barrier)).toBe(asksFirst(click, barrier))
    }
    // Effects decide where the barrier holds: a double click on Place order runs, and what it sends is the question.
    expect(asksFirst(judged({ actionType: 'double_click', element: button('Place order') }), 'held')).toBe(false)
    expect(asksFirst(judged({ actionType: 'double_click', element: link({ href: '/setup.exe' }) }), 'held')).toBe(true)
    expect(judged({ actionType: 'double_click', element: { tag: 'label', text: 'Walk the dog', attributes: {} } }).risk).toBe('low')
  })

  it('judges a right click by its words and the person’s rules only: it follows no link, sends no form, downloads nothing', () => {
    expect(judged({ actionType: 'right_click', element: button('Delete account') }).risk).toBe('high')
    const codes = (type: 'click' | 'right_click', element: RiskSubject['element']) => judged({ actionType: type, element }).details.map((d) => d.code)
    for (const [element, code] of [[submit, 'submit-form'], [link({ href: '/invoice/7', download: '' }), 'download-attr'], [link({ href: '/setup.exe' }), 'download-url']] as const) {
      expect(codes('click', element)).toContain(code)
      expect(codes('right_click', element)).not.toContain(code)
    }
    expect(judged({ actionType: 'right_click', element: link({ href: '/setup.exe' }) }).risk).toBe('low')
    const rules = { high: { keywords: [], selectors: ['.vault'], urlPatterns: [] }, medium: { keywords: [], selectors: [], urlPatterns: [] }, exempt: [] }
    expect(asksFirst(classifyRisk({ actionType: 'right_click', params: {}, selector: '.vault .file' }, rules), 'held')).toBe(true)
  })
})
