import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: [
      { find: '#protocol', replacement: fileURLToPath(new URL('./protocol/index.ts', import.meta.url)) },
      // Nitro's raw: imports (the built replay renderer), as Vite spells them.
      { find: /^raw:(.*)$/, replacement: '$1?raw' },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration files each start their own server processes; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
})
