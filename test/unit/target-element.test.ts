import { describe, expect, it } from 'vitest'
import type { ElementInfo } from '#protocol'
import { createRiskPolicy } from '../../server/lib/policy/risk-policy'
import { elementForTarget } from '../../server/lib/tasks/tree-element'
import { DEFAULT_RISK_RULES } from '#protocol'

const elements: ElementInfo[] = [
  { index: 0, tag: 'input', attributes: { type: 'text', name: 'q', placeholder: 'Search products' }, form: { isSearch: true } },
  { index: 1, tag: 'button', text: 'Search', attributes: { type: 'submit' }, form: { isSearch: true } },
  { index: 2, tag: 'input', attributes: { type: 'text', name: 'note' }, form: { action: '/notes/save', isSearch: false } },
  { index: 3, tag: 'button', text: 'Send', attributes: { 'aria-label': 'Send message' } },
  { index: 4, tag: 'a', text: 'Help', attributes: { href: '/help' } },
  { index: 5, tag: 'a', text: 'Help', attributes: { href: '/help/more' } },
]

describe('the element a script target names, among what the extension observed', () => {
  it.each([
    ['input[name=q]', 0],
    ['[name="q"]', 0],
    ["input[placeholder='Search products']", 0],
    ['button[aria-label="Send message"]', 3],
    ['[name=note]', 2],
  ])('finds %s', (selector, index) => {
    expect(elementForTarget({ by: 'selector', value: selector }, elements)?.index).toBe(index)
  })

  it.each(['#search', '.box input', 'input', '[name^=q]', 'form > input[name=q]', 'a[href]'])('does not guess for %s', (selector) => {
    expect(elementForTarget({ by: 'selector', value: selector }, elements)).toBeUndefined()
  })

  it('finds a text target by its words, and only when they name one element', () => {
    expect(elementForTarget({ by: 'text', value: '  search ' }, elements)?.index).toBe(1)
    expect(elementForTarget({ by: 'text', value: 'Send message' }, elements)?.index).toBe(3)
    expect(elementForTarget({ by: 'text', value: 'Help' }, elements)).toBeUndefined()
    expect(elementForTarget({ by: 'index', value: 1 }, elements)).toBeUndefined()
    expect(elementForTarget({ by: 'text', value: 'Search' }, undefined)).toBeUndefined()
  })

  it('lets a replayed skill type into a search box and submit without a question, and still asks for a form that saves', () => {
    const policy = createRiskPolicy(DEFAULT_RISK_RULES)
    const judge = (selector: string) => {
      const target = { by: 'selector' as const, value: selector }
      return policy.assess({ type: 'type', params: { text: 'iPhone', submit: true }, target, element: elementForTarget(target, elements) }).risk
    }
    expect(judge('input[name=q]')).not.toBe('high')
    expect(judge('[name=note]')).toBe('high')
    // Blind, the same search step is a form submission like any other.
    expect(policy.assess({ type: 'type', params: { text: 'iPhone', submit: true }, target: { by: 'selector', value: 'input[name=q]' } }).risk).toBe('high')
  })
})
