import { defineNitroPlugin } from 'nitropack/runtime'
import { useSkills } from '../lib/app/use-skills'

// Index the library at start, so the first search does not pay for it.
export default defineNitroPlugin(() => {
  useSkills().catch((error) => console.error('[tandem] could not index skills', error))
})
