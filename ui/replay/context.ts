import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Lang } from '../i18n'
import type { ReplayT } from './i18n'

/**
 * Where a screenshot's bytes come from: a file next to replay.html offline, an object URL fetched with the
 * token in the console (an <img> cannot send an Authorization header).
 */
export type ImageSource = (name: string) => string | Promise<string>

export interface LargeShot {
  src: string
  caption: string
}

export interface ReplayContextValue {
  t: ReplayT
  lang: Lang
  image: ImageSource
  showLarge(shot: LargeShot): void
  /** The task's words in the reader's language (the skill's Chinese): see inReaderLang. */
  say(text: string): string
}

export const ReplayContext = createContext<ReplayContextValue | null>(null)

export function useReplayContext(): ReplayContextValue {
  const value = useContext(ReplayContext)
  if (!value) throw new Error('replay components need a ReplayContext')
  return value
}

/** A time as the reader's locale writes it; the raw text when it does not parse. */
export function formatTime(at: string | undefined, lang: Lang): string {
  if (!at) return ''
  const date = new Date(at)
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString(lang)
}

export const seconds = (ms: number) => (ms / 1000).toFixed(1)
