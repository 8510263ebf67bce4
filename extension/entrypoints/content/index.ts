import { browser } from 'wxt/browser'
import { defineContentScript } from 'wxt/utils/define-content-script'
import { storage } from 'wxt/utils/storage'
import { createContentHandler } from '../../lib/content/handler'
import { createPageLib } from '../../lib/content/page-lib'
import { askForTrustedInput } from '../../lib/content/trusted-input'
import { createInPageIndicator } from '../../lib/indicator/in-page'

declare global {
  interface Window {
    __tandemContent?: boolean
  }
}

export default defineContentScript({
  // Injected by the worker into the task tab only (scripting.executeScript), never declared for every site.
  registration: 'runtime',
  matches: [],
  globalName: false,
  noScriptStartedPostMessage: true,
  main() {
    // A second injection into the same document must not answer twice.
    if (window.__tandemContent) return
    window.__tandemContent = true
    const indicator = createInPageIndicator({ win: window, send: (event) => browser.runtime.sendMessage(event) })
    const input = { send: (request: unknown) => browser.runtime.sendMessage(request), own: indicator.own }
    const handler = createContentHandler({
      win: window,
      page: createPageLib({ input: (actionId) => askForTrustedInput(input, actionId) }),
      store: { get: (key) => storage.getItem(key), set: (key, value) => storage.setItem(key, value) },
      indicator,
    })
    browser.runtime.onMessage.addListener((message, _sender, sendResponse) => {
      void handler.handle(message).then(sendResponse)
      return true
    })
  },
})
