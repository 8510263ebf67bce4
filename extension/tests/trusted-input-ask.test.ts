import { describe, expect, it, vi } from 'vitest'
import { askForTrustedInput } from '../lib/content/trusted-input'
import { PageActionError } from '../lib/page/errors'

const click = { kind: 'click', at: { x: 1, y: 2 } } as const

describe('the page asking the worker for trusted input', () => {
  it('asks for its own step, inside `own` (the takeover watch looks away meanwhile), and is told it was sent', async () => {
    const send = vi.fn(async () => ({ sent: true }))
    const inside: boolean[] = []
    let owning = false
    const own = async <T>(run: () => Promise<T>) => {
      owning = true
      try {
        return await run()
      } finally {
        owning = false
      }
    }
    send.mockImplementation(async () => (inside.push(owning), { sent: true }))
    expect(await askForTrustedInput({ send, own }, 'a7')(click)).toBe(true)
    expect(send).toHaveBeenCalledWith({ kind: 'input', actionId: 'a7', gesture: click })
    expect(inside).toEqual([true])
  })

  it('uses DOM events when the worker cannot send it, does not answer, or answers nonsense', async () => {
    expect(await askForTrustedInput({ send: async () => ({ sent: false }) }, 'a1')(click)).toBe(false)
    expect(await askForTrustedInput({ send: async () => Promise.reject(new Error('Receiving end does not exist')) }, 'a1')(click)).toBe(false)
    expect(await askForTrustedInput({ send: async () => undefined }, 'a1')(click)).toBe(false)
  })

  it('fails the step when the input broke off halfway: the DOM events would do it a second time', async () => {
    const ask = askForTrustedInput({ send: async () => ({ error: 'The click was cut short after it started.' }) }, 'a1')
    await expect(ask(click)).rejects.toBeInstanceOf(PageActionError)
  })
})
