import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { testEngine } from '../contracts/engine'
import { startServer } from '../support/server'

testEngine({
  start: () => startServer(),
  storedObservations: async (server) => {
    const dir = join(server.dataDir, 'state', 'observations')
    return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'))
  },
})
