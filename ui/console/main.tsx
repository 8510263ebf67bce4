import { render } from 'preact'
import '../theme.css'
import '../replay/replay.css'
import './console.css'
import { pickLang } from '../i18n'
import { createApi } from './api'
import { App } from './components/App'
import { ConsoleContext } from './context'
import { consoleTranslator } from './i18n'
import { createConsoleStore } from './store'

const lang = pickLang(navigator.language)
document.documentElement.lang = lang
const t = consoleTranslator(lang)
document.title = t('title')

let store: ReturnType<typeof createConsoleStore>
const api = createApi({ token: () => store.token.value, fetch: (input, init) => fetch(input, init) })
store = createConsoleStore({
  api,
  t,
  lang,
  place: { storage: localStorage, location, history },
  objectUrl: { create: (blob) => URL.createObjectURL(blob), revoke: (url) => URL.revokeObjectURL(url) },
  save(blob, filename) {
    const url = URL.createObjectURL(blob)
    const link = Object.assign(document.createElement('a'), { href: url, download: filename })
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  },
})

addEventListener('hashchange', () => store.navigate(location.hash))
// Tasks move on while the console is open: refresh what can still change, and only while it is visible.
setInterval(() => {
  if (document.visibilityState === 'visible' && store.token.value && store.live()) store.refresh()
}, 4000)
store.start()

render(
  <ConsoleContext.Provider value={{ store, t, lang }}>
    <App />
  </ConsoleContext.Provider>,
  document.getElementById('app')!,
)
