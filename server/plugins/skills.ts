import { defineNitroPlugin } from 'nitropack/runtime'
import { useSkills } from '../lib/app/use-skills'
import { say } from '../lib/terminal/words'

// Index the library at start, so the first search does not pay for it.
export default defineNitroPlugin(() => {
  useSkills().catch((error) => console.error(say('skillsFailed'), error))
})
