import { defineEventHandler, getRequestHeader } from 'h3'
import { defineNitroPlugin } from 'nitropack/runtime'
import { useConfig } from '../lib/app/use-config'
import { forbidden } from '../lib/http/errors'
import { hostAllowed } from '../lib/http/host'

/**
 * Refuses a Host that is not loopback (nor in TANDEM_ALLOWED_HOSTS) before anything answers: Nitro serves the
 * console's static files from a layer it puts ahead of every middleware, and a page that rebinds its own name to
 * 127.0.0.1 must not get even those.
 */
export default defineNitroPlugin((nitroApp) => {
  const checkHost = defineEventHandler((event) => {
    if (!hostAllowed(getRequestHeader(event, 'host'), useConfig().allowedHosts)) {
      throw forbidden('This Host is not allowed; add it to TANDEM_ALLOWED_HOSTS to serve it.')
    }
  })
  nitroApp.h3App.stack.unshift({ route: '', handler: checkHost })
})
