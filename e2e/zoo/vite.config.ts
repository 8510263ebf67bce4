// With its extension (.js, as TypeScript names a .ts file): Vite warns of a config import without one.
import { libraryViteConfig } from '../support/library-vite-config.js'

/** The zoo pages' scripts, one entry per library; the zoo site serves dist/zoo. */
export default libraryViteConfig(import.meta.url, {
  outDir: 'zoo',
  entries: ['antd', 'element', 'vant', 'arco', 'tdesign', 'mui', 'radix', 'headless', 'rselect', 'editors', 'dnd', 'plain'],
  chunkSizeWarningLimit: 8000,
})
