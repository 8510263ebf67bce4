import { describeError, isKnownErrorCode } from '#protocol'
import { isServerError } from '../server/errors'
import type { PanelT } from './i18n'

/** Why a call failed, in the person's language and in words that say what to do. */
export function explain(error: unknown, serverUrl: string, t: PanelT): string {
  if (!isServerError(error)) return t('error.generic', { message: String((error as Error)?.message ?? error) })
  switch (error.code) {
    case 'UNREACHABLE':
      return t('conn.down', { url: serverUrl })
    case 'NOT_ANSWERING':
      return t('conn.notAnswering', { url: serverUrl })
    case 'UNAUTHORIZED':
      return t('conn.token', { url: serverUrl })
    case 'NOT_CONFIGURED':
      return t('conn.noToken')
    case 'BAD_RESPONSE':
      return t('conn.notTandem', { url: serverUrl })
    case 'LLM_NOT_CONFIGURED':
      return t('error.llm')
    case 'UNAVAILABLE':
      return t('error.busy')
    default: {
      // The server's own message says what to do, in English; another reader gets the code's plain sentence.
      const lang = t('words.lang') === 'zh-CN' ? 'zh-CN' : 'en'
      return lang === 'en' || !isKnownErrorCode(error.code) ? error.message : describeError(error, lang)
    }
  }
}
