import { svelte } from '@sveltejs/vite-plugin-svelte'
import { mergeConfig } from 'vite'
// With its extension (.js, as TypeScript names a .ts file): Vite warns of a config import without one.
import { libraryViteConfig } from '../support/library-vite-config.js'

/** The apps' scripts: one entry per TodoMVC framework, one for the jQuery-era pages; the apps site serves dist/apps. */
export default mergeConfig(
  libraryViteConfig(import.meta.url, {
    outDir: 'apps',
    entries: ['react', 'redux', 'vue', 'preact', 'svelte', 'lit', 'backbone', 'jquery', 'vanilla', 'wc', 'legacy'],
    chunkSizeWarningLimit: 2000,
    plugins: [svelte()],
  }),
  // The jQuery-era stylesheets keep old IE hacks (`*font: …`): served as they ship, not minified.
  { build: { cssMinify: false } },
)
