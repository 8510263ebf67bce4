import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Lang } from '../i18n'
import type { ConsoleT } from './i18n'
import type { ConsoleStore } from './store'

export interface ConsoleContextValue {
  store: ConsoleStore
  t: ConsoleT
  lang: Lang
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null)

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext)
  if (!value) throw new Error('console components need a ConsoleContext')
  return value
}
