import { fileURLToPath } from 'node:url'
import { defineNitroConfig } from 'nitropack/config'

export default defineNitroConfig({
  compatibilityDate: '2025-11-01',
  srcDir: 'server',
  preset: 'node-server',
  // Nitro's node-server entry with bounds on slow connections and loopback by default (see server/node-server.ts).
  entry: './node-server',
  // Explicit imports everywhere: what a file uses is visible in the file.
  imports: false,
  errorHandler: '~/error',
  // Nitro's build ends with "You can preview this build using …": the way Tandem is started is npm run serve.
  commands: { preview: 'npm run serve' },
  // The console's static shell (built by vite.console.config.ts): HTML, JS and CSS only; its data comes from /api.
  publicAssets: [
    { dir: fileURLToPath(new URL('./dist/console', import.meta.url)), baseURL: '/console', maxAge: 0 },
    // A static page on loopback for the starter skill to run on with no LLM and no other site: no data, no API.
    { dir: fileURLToPath(new URL('./server/demo', import.meta.url)), baseURL: '/demo', maxAge: 0 },
  ],
  routeRules: {
    // The address people type leads to the console, which asks for the token, instead of a 401 in JSON.
    '/': { redirect: { to: '/console/', statusCode: 302 } },
    '/demo/**': {
      headers: {
        'content-security-policy': "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
    },
    // The shell talks only to its own server and may not be framed by another page.
    '/console/**': {
      headers: {
        'content-security-policy': "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
    },
  },
  alias: {
    '#protocol': fileURLToPath(new URL('./protocol/index.ts', import.meta.url)),
  },
})
