import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const ENTRIES = ['antd', 'element', 'vant', 'arco', 'tdesign', 'mui', 'radix', 'headless', 'rselect', 'editors', 'dnd', 'plain']

/** The zoo pages' scripts, one entry per library, shared chunks split out; the zoo site serves dist/zoo. */
export default defineConfig({
  root: here('.'),
  publicDir: false,
  logLevel: 'error',
  define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  build: {
    outDir: here('../../dist/zoo'),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 8000,
    rollupOptions: { input: Object.fromEntries(ENTRIES.map((name) => [name, here(`app/${name}.ts`)])) },
  },
})
