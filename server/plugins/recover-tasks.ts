import { defineNitroPlugin } from 'nitropack/runtime'
import { useEngine } from '../lib/app/use-engine'
import { say } from '../lib/terminal/words'

// A server killed mid-task picks every unfinished task up where its saved state left it.
export default defineNitroPlugin(() => {
  useEngine()
    .recover()
    .catch((error) => console.error(say('recoverFailed'), error))
})
