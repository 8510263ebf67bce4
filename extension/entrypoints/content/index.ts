import { browser } from 'wxt/browser'
import { defineContentScript } from 'wxt/utils/define-content-script'
import { storage } from 'wxt/utils/storage'
import { createContentHandler } from '../../lib/content/handler'
import { createPageLib } from '../../lib/content/page-lib'
import { askForTrustedInput } from '../../lib/content/trusted-input'
import { createInPageIndicator } from '../../lib/indicator/in-page'
import { watchLoad } from '../../lib/page/settle'

declare global {
  interface Window {
    __tandemContent?: boolean
  }
}

export default defineContentScript({
  // Never declared for every site: the worker registers it for the sites the person granted (see
  // createContentRegistration), and injects it into the task tab when a page does not run it yet.
  registration: 'runtime',
  matches: [],
  globalName: false,
  noScriptStartedPostMessage: true,
  main() {
    // A second injection into the same document must not answer twice.
    if (window.__tandemContent) return
    window.__tandemContent = true
    const loaded = watchLoad(window)
    // Nothing shows in the page (no indicator, no takeover watch) until the worker first asks for something: a
    // page of a granted site that no task touches stays as it was.
    let handler: ReturnType<typeof createContentHandler> | undefined
    const start = () => {
      if (handler) return handler
      const indicator = createInPageIndicator({ win: window, send: (event) => browser.runtime.sendMessage(event) })
      const input = { send: (request: unknown) => browser.runtime.sendMessage(request), own: indicator.own }
      return (handler = createContentHandler({
        win: window,
        page: createPageLib({ input: (actionId) => askForTrustedInput(input, actionId) }),
        store: { get: (key) => storage.getItem(key), set: (key, value) => storage.setItem(key, value) },
        indicator,
        loaded,
      }))
    }
    browser.runtime.onMessage.addListener((message, _sender, sendResponse) => {
      void start().handle(message).then(sendResponse)
      return true
    })
  },
})
