import { readFileSync } from 'node:fs'
import { createStorage } from 'unstorage'
import { describe, expect, it } from 'vitest'
import { createAgentTokens } from '../../server/lib/auth/agent-tokens'
import { createAuthenticator } from '../../server/lib/auth/authenticate'
import { accessOf, ROUTE_ACCESS } from '../../server/lib/auth/route-access'
import { originAllowed } from '../../server/lib/http/origin'
import { serverRouteFiles } from '../support/route-files'

describe('which principals each route accepts', () => {
  it('names every route file of the server, and nothing that is not one', () => {
    const files = serverRouteFiles().map((f) => f.route)
    const listed = ROUTE_ACCESS.map((r) => `${r.method} ${r.path}`)
    expect(files.filter((r) => !listed.includes(r))).toEqual([])
    expect(listed.filter((r) => !files.includes(r))).toEqual([])
    expect(new Set(listed).size).toBe(listed.length)
  })

  it('opens /mcp to agents and nothing else; health to anyone; anything unlisted to the owner alone', () => {
    expect(accessOf('POST', '/mcp')).toEqual(['owner', 'agent'])
    expect(accessOf('GET', '/mcp?x=1')).toEqual(['owner', 'agent'])
    expect(accessOf('GET', '/api/health')).toEqual(['anyone'])
    expect(accessOf('HEAD', '/api/health?probe=1')).toEqual(['anyone'])
    for (const [method, path] of [
      ['POST', '/api/agent/confirm'],
      ['POST', '/api/agent/next'],
      ['POST', '/api/health'],
      ['GET', '/api/audit/key'],
      ['GET', '/api/audit/abc/artifacts/0001-after.png'],
      ['GET', '/API/agent/status'],
      ['POST', '/api/agent/%63onfirm'],
      ['GET', '/mcp/../api/agent/tasks'],
      ['GET', '/api/health/'],
      ['POST', '/mcp/'],
      ['GET', '/nothing/here'],
    ]) {
      expect(accessOf(method!, path!), `${method} ${path}`).toEqual(['owner'])
    }
  })
})

describe('who a token proves', () => {
  const tokens = () => createAgentTokens(createStorage())
  it('the owner by its token, on the surface its headers name; an agent by its token, whatever header it sends', async () => {
    const agents = tokens()
    const made = await agents.create({ name: 'Claude Code', scope: 'mcp' })
    const authenticate = createAuthenticator({ ownerToken: 'owner-secret', agentTokens: agents })
    expect(await authenticate('owner-secret', { clientId: 'ext1' })).toEqual({ kind: 'owner', via: 'panel' })
    expect(await authenticate('owner-secret', { surface: 'console' })).toEqual({ kind: 'owner', via: 'console' })
    expect(await authenticate('owner-secret')).toEqual({ kind: 'owner', via: 'api' })
    const agent = { kind: 'agent', tokenId: made.id, name: 'Claude Code' }
    expect(await authenticate(made.token, { clientId: 'ext1', surface: 'console' })).toEqual(agent)
    for (const wrong of [undefined, '', 'owner-secre', made.token.slice(0, -1), `${made.token}x`, 'tandem_agent_']) {
      expect(await authenticate(wrong)).toBeNull()
    }
    await agents.revoke(made.id)
    expect(await authenticate(made.token)).toBeNull()
  })

  it('stores a hash and the name, lists without the token, notes the last use', async () => {
    const storage = createStorage()
    const agents = createAgentTokens(storage)
    const made = await agents.create({ name: 'Cursor', scope: 'mcp' })
    const stored = JSON.stringify(await storage.getItems(await storage.getKeys('')))
    expect(stored).not.toContain(made.token)
    expect(stored).toContain('Cursor')
    expect((await agents.list())[0]).toEqual({ id: made.id, name: 'Cursor', scope: 'mcp', createdAt: made.createdAt })
    await agents.verify(made.token)
    expect((await agents.list())[0]!.lastUsedAt).toEqual(expect.any(String))
    expect(JSON.stringify(await agents.list())).not.toContain(made.token)
    expect(await agents.revoke('nosuch')).toBe(false)
  })
})

describe('which origins reach /mcp', () => {
  it('a program (no Origin) and pages of this machine; never another site, a null origin or another scheme', () => {
    expect(originAllowed(undefined, [])).toBe(true)
    expect(originAllowed('http://127.0.0.1:6274', [])).toBe(true)
    expect(originAllowed('http://localhost:3000', [])).toBe(true)
    expect(originAllowed('http://tandem.lan:3000', ['tandem.lan'])).toBe(true)
    for (const o of ['http://evil.example', 'null', 'chrome-extension://abc', 'http://127.0.0.1.evil.example', 'file://', '']) {
      expect(originAllowed(o, []), o).toBe(false)
    }
  })
})

describe('docs/security.md', () => {
  it('lists every route with the principals it accepts, as the guard reads them', () => {
    const rows = readFileSync('docs/security.md', 'utf8')
      .split('\n')
      .flatMap((line) => {
        const m = /^\| `(GET|POST|DELETE) ([^`]+)` \| ([^|]+) \|/.exec(line)
        return m ? [`${m[1]} ${m[2]}: ${m[3]!.trim()}`] : []
      })
    const words = { anyone: 'anyone (no token)', owner: 'owner', agent: 'agent' }
    expect(rows).toEqual(ROUTE_ACCESS.map((r) => `${r.method} ${r.path}: ${r.accepts.map((k) => words[k]).join(', ')}`))
  })
})
