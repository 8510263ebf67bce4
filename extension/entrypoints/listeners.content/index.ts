import { defineContentScript } from 'wxt/utils/define-content-script'
import { answerListenerCensus } from '../../lib/page/listening'

// Marks a document that answers already, without a name a page's own globals could clash with.
const ANSWERING = Symbol.for('tandem.listener-census')

export default defineContentScript({
  // In the page's own world, beside the content script and wherever it goes (registered for the granted sites,
  // injected with it): it only answers the content script's census of the listeners the page's frameworks bound.
  registration: 'runtime',
  matches: [],
  world: 'MAIN',
  globalName: false,
  main() {
    const win = window as unknown as Record<symbol, boolean>
    if (win[ANSWERING]) return
    Object.defineProperty(win, ANSWERING, { value: true })
    answerListenerCensus(window)
  },
})
