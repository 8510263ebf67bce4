/**
 * The server's entry: Nitro's node-server one (nitropack/dist/presets/node/runtime/node-server.mjs), which makes its
 * http.Server with Node's defaults and no way to change them, with the bounds of lib/config.ts on every connection
 * (a client sending its headers a byte a second is closed, not kept for minutes) and loopback as the default host.
 * Tandem serves no WebSockets and runs no scheduled tasks, so the preset's wiring for those is left out.
 */
import '#nitro-internal-pollyfills'
import { Server as HttpServer, type ServerOptions } from 'node:http'
import { Server as HttpsServer } from 'node:https'
import { toNodeListener } from 'h3'
import { useNitroApp, useRuntimeConfig } from 'nitropack/runtime'
import { setupGracefulShutdown } from 'nitropack/runtime/internal/shutdown'
import { trapUnhandledNodeErrors } from 'nitropack/runtime/internal/utils'
import { httpTimeoutsOf } from './lib/config'
import { say } from './lib/terminal/words'

const cert = process.env.NITRO_SSL_CERT
const key = process.env.NITRO_SSL_KEY
const nitroApp = useNitroApp()
const timeouts = httpTimeoutsOf(process.env)
const options: ServerOptions = {
  headersTimeout: timeouts.headersTimeoutMs,
  requestTimeout: timeouts.requestTimeoutMs,
  keepAliveTimeout: timeouts.keepAliveTimeoutMs,
  connectionsCheckingInterval: timeouts.checkIntervalMs,
}
const listener = toNodeListener(nitroApp.h3App)
const server = cert && key ? new HttpsServer({ ...options, key, cert }, listener) : new HttpServer(options, listener)

const port = Number.parseInt(process.env.NITRO_PORT || process.env.PORT || '', 10)
// The server holds an LLM key and drives a browser: it listens on loopback unless the person asks otherwise.
const host = process.env.NITRO_HOST || process.env.HOST || '127.0.0.1'
const path = process.env.NITRO_UNIX_SOCKET

server.listen(path ? { path } : { port: Number.isInteger(port) && port >= 0 ? port : 3000, host }, () => {
  const address = server.address()
  if (typeof address === 'string') return console.log(say('listeningSocket', { path: address }))
  if (!address) return
  const baseURL = (useRuntimeConfig().app.baseURL || '').replace(/\/$/, '')
  const where = address.family === 'IPv6' ? `[${address.address}]` : address.address
  console.log(say('listening', { url: `${cert && key ? 'https' : 'http'}://${where}:${address.port}${baseURL}` }))
})

trapUnhandledNodeErrors()
setupGracefulShutdown(server, nitroApp)

export default {}
