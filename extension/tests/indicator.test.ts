import { describe, expect, it, vi } from 'vitest'
import { parseHTML } from 'linkedom'
import { createIndicator } from '../lib/indicator/indicator'
import { indicatorStateFor, takeoverReason } from '../lib/indicator/state'
import { indicatorText } from '../lib/indicator/text'
import { deepQueryAll, walkComposed } from '../lib/page/dom'
import { textSources } from '../lib/page/visible-text'

function page() {
  const { document } = parseHTML('<!doctype html><html><head></head><body><h1>Shop</h1><button>Buy</button></body></html>')
  return document as unknown as Document
}

/** A click as the browser makes it for a person (`isTrusted`), or as a page script would. */
function click(target: Element, trusted: boolean) {
  const event = new (target.ownerDocument.defaultView as unknown as typeof globalThis).Event('click', { bubbles: true })
  Object.defineProperty(event, 'isTrusted', { value: trusted })
  target.dispatchEvent(event)
}

function setup(locale = 'en-US') {
  const doc = page()
  const onCommand = vi.fn()
  const indicator = createIndicator({ doc, text: indicatorText(locale), onCommand })
  const button = (command: string) => indicator.host.shadowRoot!.querySelector(`button[data-command=${command}]`)!
  const message = () => indicator.host.shadowRoot!.querySelector('.message')!.textContent
  return { doc, indicator, onCommand, button, message }
}

describe('indicator state', () => {
  it('follows the task: the agent in control, the person deciding, the person in control, no task', () => {
    expect(indicatorStateFor('RUNNING')).toBe('ongoing')
    expect(indicatorStateFor('WAITING_PAGE')).toBe('ongoing')
    expect(indicatorStateFor('WAITING_CONFIRMATION')).toBe('approval')
    expect(indicatorStateFor('WAITING_USER')).toBe('question')
    expect(indicatorStateFor('PAUSED')).toBe('takeover')
    for (const status of ['SUCCEEDED', 'FAILED', 'CANCELED'] as const) expect(indicatorStateFor(status)).toBe('idle')
    expect(indicatorStateFor(null)).toBe('idle')
  })

  it('names the takeover in the audit reason', () => {
    expect(takeoverReason('pointer')).toBe('takeover: the person clicked in the page')
    expect(takeoverReason('key')).toBe('takeover: the person typed in the page')
  })
})

describe('in-page indicator', () => {
  it('stays out of the page until there is something to show, then puts its state on the host', () => {
    const { doc, indicator, message } = setup()
    indicator.set('idle')
    expect(indicator.host.isConnected).toBe(false)
    indicator.set('ongoing')
    expect(doc.documentElement.lastElementChild).toBe(indicator.host)
    expect(indicator.host.getAttribute('data-state')).toBe('ongoing')
    expect(message()).toBe('Tandem is working on this page — click, type or scroll to take over')
    indicator.set('takeover')
    expect(indicator.host.getAttribute('data-state')).toBe('takeover')
    expect(message()).toBe('You are in control')
    indicator.set('hidden')
    expect(indicator.host.getAttribute('data-state')).toBe('hidden')
  })

  it('says where a decision or an answer waits while the task waits for the person', () => {
    const { indicator, message } = setup()
    indicator.set('approval')
    expect(indicator.host.getAttribute('data-state')).toBe('approval')
    expect(message()).toBe('Waiting for your approval in the Tandem side panel')
    indicator.set('question')
    expect(message()).toBe('Waiting for your answer in the Tandem side panel')
    const zh = setup('zh-CN')
    zh.indicator.set('approval')
    expect(zh.message()).toBe('正在等你在 Tandem 侧边栏中批准')
    zh.indicator.set('question')
    expect(zh.message()).toBe('正在等你在 Tandem 侧边栏中回答')
  })

  it('speaks Chinese in a Chinese browser', () => {
    const { indicator, button, message } = setup('zh-CN')
    indicator.set('takeover')
    expect(message()).toBe('你已接管')
    expect(button('resume').textContent).toBe('继续')
    expect(button('stop').textContent).toBe('停止')
  })

  it('resumes or stops only on the person’s own click, and only while they are in control', () => {
    const { indicator, button, onCommand } = setup()
    indicator.set('ongoing')
    click(button('resume'), true)
    indicator.set('takeover')
    click(button('stop'), false)
    expect(onCommand).not.toHaveBeenCalled()
    click(button('resume'), true)
    click(button('stop'), true)
    expect(onCommand.mock.calls).toEqual([['resume'], ['stop']])
  })

  it('is concealed for a screenshot and shown again after', () => {
    const { indicator } = setup()
    indicator.set('ongoing')
    const reveal = indicator.conceal()
    expect(indicator.host.hasAttribute('data-concealed')).toBe(true)
    reveal()
    expect(indicator.host.hasAttribute('data-concealed')).toBe(false)
  })

  it('is invisible to what the model and the target lookup read', () => {
    const { doc, indicator } = setup()
    indicator.set('takeover')
    const seen: string[] = []
    walkComposed(doc, { enter: (el) => (seen.push(el.localName), true) })
    expect(seen).toContain('button')
    expect(seen).not.toContain('tandem-indicator')
    expect(deepQueryAll(doc, 'button')).toHaveLength(1)
    expect(deepQueryAll(doc, '*').some((el) => el.localName === 'tandem-indicator')).toBe(false)
    expect(textSources(doc).shadowRoots).toEqual([])
  })
})
