import { fileURLToPath } from 'node:url'
import { defineNitroConfig } from 'nitropack/config'

export default defineNitroConfig({
  compatibilityDate: '2025-11-01',
  srcDir: 'server',
  preset: 'node-server',
  // Explicit imports everywhere: what a file uses is visible in the file.
  imports: false,
  errorHandler: '~/error',
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
