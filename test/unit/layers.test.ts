import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The server's rooms (the folders of server/lib), top to bottom. A room imports only rooms on lower lines; rooms on
 * one line import none of each other. So an import never runs back up, and no two rooms import each other.
 *
 *   app                    the composition root: every use-* singleton, which reads the config and wires factories
 *   mcp, api-reference     the MCP endpoint: tools over the engine, the skills and the audit, for outside agents;
 *                          the API reference, generated from the route table and protocol/
 *   agent, skills          the planners (they implement the engine's Planner) and the skills library
 *   audit, policy, state   what the engine is wired to: the audit log, the risk policy, task storage and wake-ups
 *   tasks                  the engine, with the interfaces it is built over (deps.ts, planner.ts)
 *   privacy                what never leaves the server: redaction, secrets, the redacting gateway
 *   llm                    the model gateway
 *   auth, http, config,    leaves: the access token, request helpers and errors, the settings, the words the
 *   terminal               server prints at start in the terminal's language
 *
 * Above them all, Nitro's own folders: api/ (thin routes) imports only app and http; middleware/, plugins/,
 * routes/ and error.ts import app and the leaves; node-server.ts (the process's entry) only the leaves.
 */
const TIERS = [['app'], ['mcp', 'api-reference'], ['agent', 'skills'], ['audit', 'policy', 'state'], ['tasks'], ['privacy'], ['llm'], ['auth', 'http', 'config', 'terminal']]
const LEAVES = TIERS.at(-1)!
const SHELL: Record<string, string[]> = {
  api: ['app', 'http'],
  middleware: ['app', ...LEAVES],
  plugins: ['app', ...LEAVES],
  routes: ['app', ...LEAVES],
  error: ['app', ...LEAVES],
  'node-server': LEAVES,
}

const SERVER = join(import.meta.dirname, '../../server')

interface Edge {
  file: string
  specifier: string
  from: string
  to: string
}

/** server/lib/<room>/… or server/lib/<room>.ts; server/<folder>/… or server/<file>.ts for Nitro's own. */
function roomOf(path: string): string {
  const parts = path.split('/')
  const [top, name] = parts[0] === 'lib' ? [parts[1]!, parts.length === 2] : [parts[0]!, parts.length === 1]
  return name ? top.replace(/\.tsx?$/, '') : top
}

const tierOf = (room: string) => TIERS.findIndex((tier) => tier.includes(room))

function serverFiles(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return serverFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(SERVER, path).split(sep).join('/')] : []
  })
}

/** Every relative import (static, type-only, re-export or dynamic) of every server file that crosses rooms. */
function crossingImports(files: string[]): Edge[] {
  return files.flatMap((file) =>
    ts
      .preProcessFile(readFileSync(join(SERVER, file), 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .flatMap((specifier) => {
        const target = posix.normalize(posix.join(posix.dirname(file), specifier))
        if (target.startsWith('../')) return [] // outside server/: the protocol, the built replay assets
        const edge = { file, specifier, from: roomOf(file), to: roomOf(target) }
        return edge.from === edge.to ? [] : [edge]
      }),
  )
}

/** Whether a file in room `from` may import from room `to`. */
function allowed(from: string, to: string): boolean {
  if (from in SHELL) return SHELL[from]!.includes(to)
  return tierOf(to) > tierOf(from)
}

describe('the layers of the server', () => {
  const files = serverFiles()
  const edges = crossingImports(files)

  it('places every file of the server in a room the order knows', () => {
    const unplaced = files.filter((file) => !(roomOf(file) in SHELL) && tierOf(roomOf(file)) < 0).map((file) => `server/${file}`)
    expect(unplaced, 'add the new room to TIERS in test/unit/layers.test.ts').toEqual([])
  })

  it('sees the imports it checks', () => {
    expect(edges.some((e) => e.from === 'app' && e.to === 'tasks')).toBe(true)
    expect(edges.some((e) => e.from === 'api' && e.to === 'app')).toBe(true)
  })

  it('has no import that runs back up', () => {
    const upward = edges.filter((e) => !allowed(e.from, e.to)).map((e) => `server/${e.file} imports '${e.specifier}' (${e.from} → ${e.to})`)
    expect(upward).toEqual([])
  })

  it('has no two rooms that import each other', () => {
    const pairs = new Set(edges.map((e) => `${e.from} → ${e.to}`))
    const both = [...pairs].filter((pair) => pairs.has(pair.split(' → ').reverse().join(' → ')))
    expect(both).toEqual([])
  })
})
