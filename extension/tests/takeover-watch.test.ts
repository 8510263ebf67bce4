import { describe, expect, it, vi } from 'vitest'
import { watchForTakeover } from '../lib/indicator/takeover-watch'

/** A window whose listeners the test calls with events it shapes (a real one cannot fake `isTrusted`). */
function fakeWindow() {
  const listeners = new Map<string, (event: Event) => void>()
  const win = {
    addEventListener: vi.fn((type: string, listener: (event: Event) => void) => void listeners.set(type, listener)),
    removeEventListener: vi.fn((type: string) => void listeners.delete(type)),
  }
  const fire = (type: string, init: { isTrusted: boolean; own?: boolean }) =>
    listeners.get(type)?.({ type, isTrusted: init.isTrusted, own: !!init.own } as unknown as Event)
  return { win, listeners, fire }
}

function setup(armed = true) {
  const { win, listeners, fire } = fakeWindow()
  const state = { armed }
  const onTakeover = vi.fn()
  const watch = watchForTakeover({
    win: win as unknown as Window,
    armed: () => state.armed,
    owns: (event) => (event as unknown as { own: boolean }).own,
    onTakeover,
  })
  return { watch, fire, onTakeover, state, listeners, win }
}

describe('takeover watch', () => {
  it('listens in the capture phase, passively, to pointer, key, wheel and touch input', () => {
    const { listeners, win } = setup()
    expect([...listeners.keys()].sort()).toEqual(['keydown', 'mousedown', 'pointerdown', 'touchstart', 'wheel'])
    expect(win.addEventListener).toHaveBeenCalledWith('keydown', expect.any(Function), { capture: true, passive: true })
  })

  it('never counts synthetic events, which is how every Tandem action reaches the page', () => {
    const { fire, onTakeover } = setup()
    for (const type of ['pointerdown', 'mousedown', 'keydown', 'wheel', 'touchstart']) fire(type, { isTrusted: false })
    expect(onTakeover).not.toHaveBeenCalled()
  })

  it('reports the person’s first input while the agent is in control, once per takeover', () => {
    const { fire, onTakeover, watch } = setup()
    fire('keydown', { isTrusted: true })
    fire('pointerdown', { isTrusted: true })
    fire('wheel', { isTrusted: true })
    expect(onTakeover.mock.calls).toEqual([['key']])
    watch.rearm()
    fire('wheel', { isTrusted: true })
    expect(onTakeover.mock.calls).toEqual([['key'], ['wheel']])
  })

  it('ignores input while the agent is not in control, and presses on the indicator itself', () => {
    const { fire, onTakeover, state } = setup(false)
    fire('pointerdown', { isTrusted: true })
    state.armed = true
    fire('pointerdown', { isTrusted: true, own: true })
    expect(onTakeover).not.toHaveBeenCalled()
    fire('touchstart', { isTrusted: true })
    expect(onTakeover).toHaveBeenCalledWith('touch')
  })

  it('stops listening when stopped', () => {
    const { watch, listeners } = setup()
    watch.stop()
    expect(listeners.size).toBe(0)
  })
})
