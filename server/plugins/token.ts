import { defineNitroPlugin } from 'nitropack/runtime'
import { useToken } from '../lib/app/use-token'
import { say } from '../lib/terminal/words'

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
    console.log(say('tokenGenerated', { file: file ?? '', token }))
    // The token is on screen already; the fragment hands it to the console without it ever reaching the server.
    console.log(url ? say('consoleWithToken', { url, token }) : say('consoleWithTokenBelow', { token }))
    return
  }
  if (source === 'file') console.log(say('tokenFromFile', { file: file ?? '' }))
  console.log(url ? say('consoleAsks', { url }) : say('consoleAsksBelow'))
})
