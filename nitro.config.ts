import { fileURLToPath } from 'node:url'
import { defineNitroConfig } from 'nitropack/config'

export default defineNitroConfig({
  compatibilityDate: '2025-11-01',
  srcDir: 'server',
  preset: 'node-server',
  // Explicit imports everywhere: what a file uses is visible in the file.
  imports: false,
  errorHandler: '~/error',
  // The console's static shell (built by vite.console.config.ts): HTML, JS and CSS only; its data comes from /api.
  publicAssets: [{ dir: fileURLToPath(new URL('./dist/console', import.meta.url)), baseURL: '/console', maxAge: 0 }],
  routeRules: {
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
  rollupConfig: {
    output: {
      // Bind to loopback unless the person asks otherwise: the server holds an LLM key and drives a browser.
      intro: (chunk) =>
        chunk.moduleIds.some((id) => id.includes('/presets/node/runtime/node-server'))
          ? "process.env.NITRO_HOST ??= process.env.HOST || '127.0.0.1';"
          : '',
    },
  },
})
