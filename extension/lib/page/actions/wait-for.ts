import { collapseWhitespace, deepQueryAll, truncate } from '../dom'
import { fail } from '../errors'
import { readableText, textSources } from '../visible-text'
import { visibleProxy } from '../visibility'

/**
 * Resolves with the first truthy result of `check`, re-run after DOM mutations (throttled) and on a slow
 * interval for what mutations do not show (URL changes, styles); resolves null after `timeoutMs`.
 */
export function waitUntil<T>(win: Window, check: () => T | null | undefined | false, timeoutMs: number, throttleMs = 50): Promise<T | null> {
  const first = check()
  if (first) return Promise.resolve(first)
  return new Promise((resolve) => {
    let scheduled = false
    let finished = false
    const finish = (value: T | null) => {
      if (finished) return
      finished = true
      observer.disconnect()
      win.clearInterval(interval)
      win.clearTimeout(timer)
      resolve(value)
    }
    const run = () => {
      scheduled = false
      if (finished) return
      try {
        const value = check()
        if (value) finish(value)
      } catch {
        // a half-built page can throw mid-check; the next mutation tries again
      }
    }
    const observer = new (win as Window & typeof globalThis).MutationObserver(() => {
      if (scheduled) return
      scheduled = true
      win.setTimeout(run, throttleMs)
    })
    observer.observe(win.document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true })
    const interval = win.setInterval(run, 250)
    const timer = win.setTimeout(() => finish(null), timeoutMs)
  })
}

/** Resolves once the DOM has had no mutation for `quietMs` (or after `timeoutMs`). */
function waitForQuiet(win: Window, quietMs: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    let quiet = win.setTimeout(done, quietMs)
    const observer = new (win as Window & typeof globalThis).MutationObserver(() => {
      win.clearTimeout(quiet)
      quiet = win.setTimeout(done, quietMs)
    })
    const cap = win.setTimeout(done, timeoutMs)
    observer.observe(win.document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true })
    function done() {
      observer.disconnect()
      win.clearTimeout(quiet)
      win.clearTimeout(cap)
      resolve()
    }
  })
}

export interface WaitForParams {
  text?: string
  urlIncludes?: string
  selector?: string
  timeoutMs?: number
}

/** Waits until every given condition holds: visible text, URL part, visible element. No condition: DOM quiet. */
export async function waitForCondition(win: Window, params: WaitForParams, defaultTimeoutMs = 5000): Promise<void> {
  const timeoutMs = params.timeoutMs ?? defaultTimeoutMs
  if (!params.text && !params.urlIncludes && !params.selector) return waitForQuiet(win, 500, timeoutMs)
  if (params.selector) {
    try {
      win.document.querySelector(params.selector)
    } catch {
      fail('ACTION_FAILED', 'the waitFor selector is not valid CSS')
    }
  }
  const wantedText = params.text ? collapseWhitespace(params.text).toLowerCase() : ''
  const met = await waitUntil(
    win,
    () =>
      (!params.urlIncludes || win.location.href.includes(params.urlIncludes)) &&
      (!params.selector || deepQueryAll(win.document, params.selector).some((el) => visibleProxy(el))) &&
      (!wantedText || readableText(textSources(win.document)).toLowerCase().includes(wantedText)),
    timeoutMs,
    100,
  )
  if (!met) {
    const what = [
      params.text && `text "${truncate(params.text, 80)}"`,
      params.urlIncludes && `URL containing "${truncate(params.urlIncludes, 80)}"`,
      params.selector && `element "${truncate(params.selector, 80)}"`,
    ].filter(Boolean)
    fail('TIMEOUT', `waited ${timeoutMs} ms for ${what.join(' and ')}`)
  }
}
