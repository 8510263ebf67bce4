// With its extension (.js, as TypeScript names a .ts file): Vite warns of a config import without one.
import { libraryViteConfig } from '../support/library-vite-config.js'

/** The corpus pages' scripts, one entry per stack; the fixture site serves dist/corpus. */
export default libraryViteConfig(import.meta.url, {
  outDir: 'corpus',
  entries: ['plain', 'react', 'antd', 'mui', 'vue', 'element'],
  chunkSizeWarningLimit: 5000,
})
