import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

export interface RouteFile {
  /** `METHOD /path`, its `[param]`s as `:param` (Nitro's file routing). */
  route: string
  file: string
}

function routeFilesUnder(dir: string, base: string, prefix: string): RouteFile[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return routeFilesUnder(path, base, prefix)
    const match = /^(.*)\.(get|post|delete)\.ts$/.exec(relative(base, path).replace(/\\/g, '/'))
    if (!match) return []
    const route = `${prefix}/${match[1]}`.replace(/\/index$/, '').replace(/\[(\w+)\]/g, ':$1')
    return [{ route: `${match[2]!.toUpperCase()} ${route}`, file: path }]
  })
}

/** Every route file of the server: server/api/** under /api, server/routes/** at the root. */
export const serverRouteFiles = (): RouteFile[] => [
  ...routeFilesUnder('server/api', 'server/api', '/api'),
  ...routeFilesUnder('server/routes', 'server/routes', ''),
]
