import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface ResolvedToken {
  token: string
  source: 'env' | 'file' | 'generated'
  file?: string
}

/** TANDEM_TOKEN if set; otherwise the token kept in the data dir, made on first start. */
export function resolveToken(dataDir: string, envToken?: string): ResolvedToken {
  if (envToken) return { token: envToken, source: 'env' }
  const file = join(dataDir, 'token')
  try {
    const token = readFileSync(file, 'utf8').trim()
    if (token) return { token, source: 'file', file }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  mkdirSync(dataDir, { recursive: true })
  const token = randomBytes(32).toString('base64url')
  // wx: two servers starting at once must not each write a different token.
  try {
    writeFileSync(file, token + '\n', { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolveToken(dataDir)
    throw error
  }
  return { token, source: 'generated', file }
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Compares in constant time: equal-length digests, so neither length nor prefix leaks. */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false
  return timingSafeEqual(digest(expected), digest(given))
}

export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  return match?.[1]
}
