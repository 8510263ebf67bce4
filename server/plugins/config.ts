import { defineNitroPlugin } from 'nitropack/runtime'
import { useConfig } from '../lib/app/use-config'
import { ConfigError } from '../lib/config'

// A wrong setting stops the server before it listens, with one line that says what to set (no stack to dig through).
export default defineNitroPlugin(() => {
  try {
    useConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`[tandem] ${error.message}`)
    process.exit(1)
  }
})
