/** Where the console keeps the server's token between visits. */
export const TOKEN_KEY = 'tandem.console.token'

export interface TokenPlace {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  location: Pick<Location, 'hash' | 'pathname' | 'search'>
  history: Pick<History, 'replaceState'>
}

/**
 * The token handed over in the URL fragment (`#token=…`, which browsers never send to the server), wiped from
 * the address bar and history at once. It is not kept here: a link from anywhere can carry a fragment, so the
 * caller keeps it only once the server accepts it.
 */
export function takeFragmentToken({ location, history }: Pick<TokenPlace, 'location' | 'history'>): string | null {
  const given = new URLSearchParams(location.hash.replace(/^#\/?/, '')).get('token')?.trim()
  if (given === undefined) return null
  history.replaceState(null, '', `${location.pathname}${location.search}#/`)
  return given || null
}

export const storedToken = (storage: TokenPlace['storage']) => storage.getItem(TOKEN_KEY)
export const saveToken = (storage: TokenPlace['storage'], token: string) => storage.setItem(TOKEN_KEY, token.trim())
export const forgetToken = (storage: TokenPlace['storage']) => storage.removeItem(TOKEN_KEY)
