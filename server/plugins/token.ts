import { defineNitroPlugin } from 'nitropack/runtime'
import { useToken } from '../lib/app/use-token'

/** Where the console will be, from the address the server is told to listen on (port 0: chosen at start). */
function consoleUrl(): string | null {
  const port = process.env.NITRO_PORT || process.env.PORT || '3000'
  if (port === '0') return null
  const host = process.env.NITRO_HOST || process.env.HOST || '127.0.0.1'
  const shown = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  return `http://${shown}:${port}/console/`
}

export default defineNitroPlugin(() => {
  const { token, source, file } = useToken()
  const url = consoleUrl()
  if (source === 'generated') {
    console.log(`[tandem] generated an access token (saved in ${file}):\n\n    ${token}\n\nPaste it into the extension's settings.`)
    // The token is on screen already; the fragment hands it to the console without it ever reaching the server.
    console.log(`[tandem] console: ${url ? `${url}#token=${token}` : `/console/#token=${token} on the address below`}`)
    return
  }
  if (source === 'file') console.log(`[tandem] access token: ${file}`)
  console.log(`[tandem] console: ${url ?? '/console/ on the address below'} (it asks for the token once)`)
})
