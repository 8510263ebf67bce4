import { browser } from 'wxt/browser'
import { defineContentScript } from 'wxt/utils/define-content-script'
import { StopRecording } from '../../lib/record/messages'
import { createRecorder } from '../../lib/record/recorder'

declare global {
  interface Window {
    __tandemRecorder?: () => void
  }
}

export default defineContentScript({
  // Injected by the side panel into the tab the person records in, while they record; never declared for every site.
  registration: 'runtime',
  matches: [],
  globalName: false,
  noScriptStartedPostMessage: true,
  main() {
    if (window.__tandemRecorder) return
    window.__tandemRecorder = createRecorder({
      win: window,
      emit: (recorded) => void browser.runtime.sendMessage({ kind: 'recorded', ...recorded }).catch(() => undefined),
    })
    browser.runtime.onMessage.addListener((message) => {
      if (!StopRecording.safeParse(message).success) return
      window.__tandemRecorder?.()
      window.__tandemRecorder = undefined
    })
  },
})
