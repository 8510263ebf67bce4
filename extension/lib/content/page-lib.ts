import { firesHandlers } from '../../../protocol/action-registry'
import { createPageMemory, createRedactor, locateTarget, maskSensitiveFields, observePage, runPageAction, SETTLE_STILL, settleOptionsFor, watchSettle, type PageMemory } from '../page'
import { deepQueryAll } from '../page/dom'
import { isSecretField } from '../page/sensitive'
import type { TrustedInput } from '../page/input'
import type { PageLib } from './handler'

/** Whether `text` now sits in a password, card or one-time-code field: then it is a secret from here on. */
function typedIntoSecretField(win: Window, text: string): boolean {
  if (!text) return false
  return deepQueryAll(win.document, 'input, textarea').some((el) => isSecretField(el) && String((el as HTMLInputElement).value ?? '').includes(text))
}

/**
 * The in-page library (extension/lib/page) as the content script uses it. Values typed into secret fields
 * are remembered for the life of the document, so no later observation, extract or screenshot shows them.
 */
export function createPageLib(deps: { input?: (actionId: string) => TrustedInput } = {}): PageLib<PageMemory> {
  const secrets: string[] = []
  return {
    observe(win, previous) {
      const { stats: _stats, ...snapshot } = observePage(win, { ...(previous ? { previous } : {}), redactValues: secrets })
      return snapshot
    },
    async act(win, action, memory, sites, barrier) {
      const text = action.type === 'type' ? String(action.params.text ?? '') : ''
      const result = await runPageAction(win, action, memory ?? createPageMemory(win.location.href), {
        redactValues: secrets,
        ...(sites ? { sites } : {}),
        ...(barrier ? { barrier } : {}),
        ...(deps.input ? { input: deps.input(action.actionId) } : {}),
      })
      if (text && !secrets.includes(text) && typedIntoSecretField(win, text)) secrets.push(text)
      return result
    },
    mask: (win, redact) => maskSensitiveFields(win, { secretValues: secrets, ...(redact ? { redact } : {}) }),
    locate: (win, target, memory) => locateTarget(win, target, memory ?? createPageMemory(win.location.href), createRedactor(secrets)),
    watchSettle(win, action) {
      // A page just loaded is read like a step that changed nothing: once it has stayed still for a few frames.
      if (!action) {
        const loaded = watchSettle(win)
        return { settled: () => loaded.settled(SETTLE_STILL) }
      }
      // Actions that fire the page's handlers, and scrolls (lazy lists load as they come into view), may change the page.
      if (!firesHandlers(action.type) && action.type !== 'scroll') return undefined
      const watch = watchSettle(win)
      return { settled: () => watch.settled(settleOptionsFor(action.type, win.document)) }
    },
  }
}
