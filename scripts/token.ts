/**
 * Agent tokens from the command line, in the same state the server reads (the data dir, or TANDEM_STORE=redis):
 *   npm run token -- add "Claude Code"   makes a token for an MCP agent and prints it (once)
 *   npm run token -- list                name, id, made, last used; never a token
 *   npm run token -- revoke <id>         the token's next call is refused
 * Works whether the server runs or not. Exits 0 done, 1 refused (no such id, a bad name), 2 cannot start.
 */
import { CreateTokenBody } from '#protocol'
import { createAgentTokens } from '../server/lib/auth/agent-tokens'
import { ConfigError, loadConfig } from '../server/lib/config'
import { openStateStorage } from '../server/lib/state/open-state'

const USAGE = 'usage: npm run token -- add <name> | list | revoke <id>'
const [command, ...rest] = process.argv.slice(2)

async function run(): Promise<number> {
  const config = loadConfig()
  const state = openStateStorage(config)
  const tokens = createAgentTokens(state.storage)
  try {
    if (command === 'add' && rest.length) {
      const body = CreateTokenBody.safeParse({ scope: 'mcp', name: rest.join(' ') })
      if (!body.success) {
        console.error(`The name is not valid: ${body.error.issues[0]?.message ?? 'give a short name such as "Claude Code"'}.`)
        return 1
      }
      const made = await tokens.create(body.data)
      console.log(`Made the agent token "${made.name}" (id ${made.id}). It opens /mcp only, and is shown this once:\n\n    ${made.token}\n`)
      console.log(`Revoke it with: npm run token -- revoke ${made.id}`)
      return 0
    }
    if (command === 'list' && !rest.length) {
      const all = await tokens.list()
      if (!all.length) console.log('No agent tokens. Make one with: npm run token -- add "Claude Code"')
      for (const t of all) console.log(`${t.id}  ${t.name}  (${t.scope}) made ${t.createdAt}${t.lastUsedAt ? `, last used ${t.lastUsedAt}` : ', never used'}`)
      return 0
    }
    if (command === 'revoke' && rest.length === 1) {
      if (await tokens.revoke(rest[0]!)) {
        console.log(`Revoked the agent token ${rest[0]}.`)
        return 0
      }
      console.error(`No agent token ${rest[0]}: npm run token -- list shows them.`)
      return 1
    }
    console.error(USAGE)
    return 2
  } finally {
    await state.close()
  }
}

try {
  process.exit(await run())
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Could not reach Tandem's state: ${(error as Error).message}`)
  process.exit(2)
}
