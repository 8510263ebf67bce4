/** Where the console keeps the server's token between visits. */
export const TOKEN_KEY = 'tandem.console.token'

export interface TokenPlace {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  location: Pick<Location, 'hash' | 'pathname' | 'search'>
  history: Pick<History, 'replaceState'>
}

/**
 * The token handed over in the URL fragment (`#token=…`, which browsers never send to the server) is kept and
 * wiped from the address bar and history at once; otherwise the one kept from an earlier visit.
 */
export function takeToken({ storage, location, history }: TokenPlace): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#\/?/, ''))
  const given = fragment.get('token')?.trim()
  if (given) {
    storage.setItem(TOKEN_KEY, given)
    history.replaceState(null, '', `${location.pathname}${location.search}#/`)
    return given
  }
  return storage.getItem(TOKEN_KEY)
}

export const saveToken = (storage: TokenPlace['storage'], token: string) => storage.setItem(TOKEN_KEY, token.trim())
export const forgetToken = (storage: TokenPlace['storage']) => storage.removeItem(TOKEN_KEY)
