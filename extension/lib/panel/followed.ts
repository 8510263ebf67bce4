import { storage } from 'wxt/utils/storage'

/** The task the side panel follows, kept across panel reloads. */
export const followedTaskItem = storage.defineItem<string | null>('local:tandem.panel.task', { fallback: null })
