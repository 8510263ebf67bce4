import { fileURLToPath } from 'node:url'
import { defineConfig, type PluginOption, type UserConfig } from 'vite'

export interface LibraryPages {
  /** The folder under dist/ the site serves. */
  outDir: string
  /** One entry per library or stack: app/<name>.ts beside the config. */
  entries: string[]
  /** Some libraries' bundles are megabytes; above this Vite warns. */
  chunkSizeWarningLimit: number
  /** Compilers a stack needs (Svelte's). */
  plugins?: PluginOption[]
}

/**
 * A Vite build of pages made with real component libraries: one entry per library, shared chunks split out, a
 * manifest the fixture site reads to find each page's scripts. Paths are read from the calling config's folder.
 */
export function libraryViteConfig(configUrl: string, pages: LibraryPages): UserConfig {
  const here = (path: string) => fileURLToPath(new URL(path, configUrl))
  return defineConfig({
    root: here('.'),
    publicDir: false,
    logLevel: 'error',
    plugins: pages.plugins ?? [],
    define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
    build: {
      outDir: here(`../../dist/${pages.outDir}`),
      emptyOutDir: true,
      manifest: true,
      target: 'es2022',
      chunkSizeWarningLimit: pages.chunkSizeWarningLimit,
      rollupOptions: { input: Object.fromEntries(pages.entries.map((name) => [name, here(`app/${name}.ts`)])) },
    },
  })
}
