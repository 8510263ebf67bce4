import { z } from 'zod'
import { storage } from 'wxt/utils/storage'

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000'

/** DESIGN contract: chrome.storage.local["tandem.settings"] = {serverUrl, token}. */
export const Settings = z.object({
  serverUrl: z
    .string()
    .trim()
    .refine((u) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol), 'an http(s) URL')
    .transform((u) => u.replace(/\/+$/, '')),
  token: z.string().trim().max(512),
})
export type Settings = z.output<typeof Settings>

export const settingsItem = storage.defineItem<Settings>('local:tandem.settings', {
  fallback: { serverUrl: DEFAULT_SERVER_URL, token: '' },
})

/**
 * Whether the write barrier holds what unapproved steps send (see createWriteBarrier). On unless set to false, which
 * nothing in the panel does: `npm run bench` turns it off to measure what it costs against the same steps with it.
 */
export const barrierItem = storage.defineItem<boolean>('local:tandem.barrier', { fallback: true })

/** Made once per profile: the server binds tasks to it and shows it in its client registry. */
export const clientIdItem = storage.defineItem<string | null>('local:tandem.clientId', { fallback: null })

let creating: Promise<string> | null = null

/**
 * The worker's way to the client id: makes it the first time. Only the worker makes it, because the panel and
 * the worker starting together would each write their own and the id would change under a bound task.
 */
export async function ensureClientId(): Promise<string> {
  const existing = await clientIdItem.getValue()
  if (existing) return existing
  creating ??= (async () => {
    const id = `ext_${crypto.randomUUID().replaceAll('-', '')}`
    await clientIdItem.setValue(id)
    return id
  })().finally(() => (creating = null))
  return creating
}

/** Everyone else's: the id the worker made (it makes it as it starts, so waiting a moment is enough). */
export async function readClientId(timeoutMs = 5000, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<string> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const id = await clientIdItem.getValue()
    if (id) return id
    if (Date.now() > until) throw new Error('The Tandem worker has not started yet; reload the extension.')
    await sleep(100)
  }
}

/**
 * The settings for the worker, which asks for them before every call to the server: read once, and again after each
 * change (the person saving them in the side panel).
 */
export function watchedSettings(): () => Promise<Settings> {
  let known: Promise<Settings> | null = null
  settingsItem.watch(() => (known = null))
  return () => (known ??= readSettings())
}

/** Settings as stored, repaired when something else wrote a malformed value. */
export async function readSettings(): Promise<Settings> {
  const parsed = Settings.safeParse(await settingsItem.getValue())
  return parsed.success ? parsed.data : settingsItem.fallback
}
