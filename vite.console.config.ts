import preact from '@preact/preset-vite'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/** The console's static shell, served by Nitro at /console/ (nitro.config.ts publicAssets). */
export default defineConfig({
  root: fileURLToPath(new URL('./ui/console', import.meta.url)),
  base: '/console/',
  plugins: [preact()],
  resolve: { alias: { '#protocol': fileURLToPath(new URL('./protocol/index.ts', import.meta.url)) } },
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
  },
})
