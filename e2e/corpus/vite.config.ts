import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The corpus pages' scripts, one entry per stack, shared chunks split out; the fixture site serves dist/corpus. */
export default defineConfig({
  root: here('.'),
  publicDir: false,
  logLevel: 'error',
  define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  build: {
    outDir: here('../../dist/corpus'),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 5000,
    rollupOptions: {
      input: Object.fromEntries(['plain', 'react', 'antd', 'mui', 'vue', 'element'].map((name) => [name, here(`app/${name}.ts`)])),
    },
  },
})
