import { computed, signal } from '@preact/signals'
import type { ServerClient, ServerInfo } from '../server/client'
import { isServerError } from '../server/errors'
import { Settings } from '../settings'
import { explain } from './explain'
import type { PanelT } from './i18n'
import type { NoticeSink } from './notices'

// Exactly the hosts wxt.config.ts grants in the manifest: any other address, even [::1], needs the person's grant.
const GRANTED_HOSTS = /^(localhost|127\.0\.0\.1)$/i

/** The match pattern a host permission for the server takes. */
export const serverOriginPattern = (serverUrl: string) => {
  const url = new URL(serverUrl)
  return `${url.protocol}//${url.hostname}/*`
}

/** The production build holds loopback host permissions only: any other server needs the person's grant. */
export const needsGrant = (serverUrl: string) => URL.canParse(serverUrl) && !GRANTED_HOSTS.test(new URL(serverUrl).hostname)

export type ConnectionCheck = 'ok' | 'down' | 'not_answering' | 'unauthorized' | 'not_configured' | 'no_permission' | 'other'

export interface ConnectionDeps {
  client: Pick<ServerClient, 'health' | 'info'>
  settings: { get(): Promise<Settings>; set(value: Settings): Promise<void> }
  /** chrome.permissions.contains for one origin pattern. */
  hasPermission: (pattern: string) => Promise<boolean>
  wake: () => Promise<void>
  t: PanelT
  notices: NoticeSink
}

const checkOf = (error: unknown): ConnectionCheck => {
  if (isServerError(error, 'UNREACHABLE')) return 'down'
  if (isServerError(error, 'NOT_ANSWERING')) return 'not_answering'
  if (isServerError(error, 'UNAUTHORIZED')) return 'unauthorized'
  if (isServerError(error, 'NOT_CONFIGURED')) return 'not_configured'
  return 'other'
}

/** The server settings form and the connection test that says exactly what is wrong. */
export function createConnection(deps: ConnectionDeps) {
  const { t, notices } = deps
  const settings = signal<Settings | null>(null)
  const serverUrl = signal('')
  const token = signal('')
  /** What the last test found; null until the person tests. */
  const check = signal<ConnectionCheck | null>(null)
  const info = signal<ServerInfo | null>(null)
  /** Whether the settings section is unfolded: it opens by itself when a test finds a problem. */
  const open = signal(false)

  /** The form, saved when it changed; null (with the reason said) when it is not a valid setting. */
  async function commit(): Promise<Settings | null> {
    const parsed = Settings.safeParse({ serverUrl: serverUrl.value, token: token.value })
    if (!parsed.success) {
      notices.fail(t('conn.badUrl'))
      return null
    }
    const current = settings.value
    if (!current || current.serverUrl !== parsed.data.serverUrl || current.token !== parsed.data.token) {
      await deps.settings.set(parsed.data)
      settings.value = parsed.data
      check.value = null
      info.value = null
    }
    serverUrl.value = parsed.data.serverUrl
    token.value = parsed.data.token
    return parsed.data
  }

  const missingPermission = async (url: string) => needsGrant(url) && !(await deps.hasPermission(serverOriginPattern(url)).catch(() => false))

  function noPermission(url: string) {
    check.value = 'no_permission'
    open.value = true
    notices.fail(t('conn.noPermission', { origin: new URL(url).origin }))
  }

  return {
    settings,
    serverUrl,
    token,
    check,
    info,
    open,
    setOpen: (value: boolean) => void (open.value = value),
    /** First run: no token yet, so the form is what the person needs to see. */
    needsSetup: computed(() => !!settings.value && !settings.value.token),

    async load() {
      settings.value = await deps.settings.get()
      serverUrl.value = settings.value.serverUrl
      token.value = settings.value.token
    },

    save: () =>
      notices.run(async () => {
        const saved = await commit()
        if (!saved) return
        if (await missingPermission(saved.serverUrl)) return noPermission(saved.serverUrl)
        notices.say(t('settings.saved'))
        await deps.wake()
      }),

    /**
     * Saves what is typed and checks it: reachable, token accepted, and allowed to reach that origin.
     * `granted` is the browser's answer to the permission prompt the click opened before anything else.
     */
    test: (granted?: Promise<boolean>) =>
      notices.run(async () => {
        await granted?.catch(() => false)
        const saved = await commit()
        if (!saved) return
        if (await missingPermission(saved.serverUrl)) return noPermission(saved.serverUrl)
        try {
          await deps.client.health()
          info.value = await deps.client.info()
        } catch (error) {
          check.value = checkOf(error)
          open.value = true
          notices.fail(explain(error, saved.serverUrl, t))
          return
        }
        check.value = 'ok'
        const found = t('conn.ok', { name: info.value.name, version: info.value.version })
        notices.say(info.value.llm.configured ? found : `${found} ${t('conn.noLlm')}`)
        await deps.wake()
      }),
  }
}
export type Connection = ReturnType<typeof createConnection>
