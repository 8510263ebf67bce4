import preact from '@preact/preset-vite'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/**
 * The offline replay renderer as one script and one stylesheet, which the server inlines into every
 * export's replay.html (server/lib/audit/replay-assets.ts), so the page needs no server and no network.
 */
export default defineConfig({
  plugins: [preact()],
  resolve: { alias: { '#protocol': fileURLToPath(new URL('./protocol/index.ts', import.meta.url)) } },
  publicDir: false,
  build: {
    outDir: 'dist/replay',
    emptyOutDir: true,
    target: 'es2020',
    lib: {
      entry: fileURLToPath(new URL('./ui/replay/offline.tsx', import.meta.url)),
      formats: ['iife'],
      name: 'TandemReplay',
      fileName: () => 'replay.js',
      cssFileName: 'replay',
    },
  },
})
