import type { PanelT } from './i18n'

/** How the panel is linked to the server (see PanelStore.link), in the words its status line says. */
export function linkWords(link: string, url: string, t: PanelT): string {
  switch (link) {
    case 'down':
      return t('conn.down', { url })
    case 'not_answering':
      return t('conn.notAnswering', { url })
    case 'unauthorized':
      return t('conn.token', { url })
    case 'not_configured':
      return t('conn.noToken')
    case 'ok':
      return t('conn.idle')
    default:
      return t('conn.unknown')
  }
}
