import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors, localLinks, shellLines } from '../support/markdown'

const read = (file: string) => readFileSync(file, 'utf8')
const en = read('README.md')
const zh = read('README.zh-CN.md')
const docs = readdirSync('docs')
  .filter((f) => f.endsWith('.md'))
  .map((f) => join('docs', f))

/** What one page has that the other lacks, each way: empty both ways when they are in step. */
const apart = (a: string[], b: string[]) => ({ onlyFirst: [...new Set(a)].filter((x) => !b.includes(x)), onlySecond: [...new Set(b)].filter((x) => !a.includes(x)) })
const envVars = (md: string) => [...new Set(md.match(/\bTANDEM_[A-Z0-9_]+/g) ?? [])].sort()
const docsLinks = (md: string) => [...new Set(localLinks(md).filter((l) => l.startsWith('docs/') && !/\.(png|jpe?g|svg)$/.test(l)))].sort()

/** Every file under `dir` whose name ends with one of `ends`. */
function filesUnder(dir: string, ends: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path, ends)
    return ends.some((e) => name.endsWith(e)) ? [path] : []
  })
}

describe('the README and its Chinese quick start', () => {
  it('the README is a quick start: 250 lines at most', () => {
    expect(en.split('\n').length).toBeLessThanOrEqual(250)
  })

  it('both give the same commands, line for line, with the same settings', () => {
    expect(shellLines(en)).toContain('npm ci && npm start')
    expect(shellLines(en)).toContain('npm ci && npm test')
    expect(apart(shellLines(en), shellLines(zh))).toEqual({ onlyFirst: [], onlySecond: [] })
  })

  it('a command added to one of them alone is caught', () => {
    const added = `${en}\n\`\`\`sh\nnpm run something-new\n\`\`\`\n`
    expect(apart(shellLines(added), shellLines(zh)).onlyFirst).toEqual(['npm run something-new'])
  })

  it('both name the same variables and link the same docs pages', () => {
    expect(envVars(zh)).toEqual(envVars(en))
    expect(docsLinks(zh)).toEqual(docsLinks(en))
    expect(localLinks(en)).toContain('README.zh-CN.md')
    expect(localLinks(zh)).toContain('README.md')
  })
})

describe('links', () => {
  it('every relative link of the READMEs and docs/ leads to a file that exists, and to a heading it has', () => {
    const broken: string[] = []
    for (const page of ['README.md', 'README.zh-CN.md', ...docs]) {
      for (const link of localLinks(read(page))) {
        const [path, anchor] = link.split('#') as [string, string | undefined]
        const target = path ? normalize(join(dirname(page), decodeURI(path))) : page
        if (!existsSync(target)) {
          broken.push(`${page}: ${link} (no ${target})`)
          continue
        }
        if (anchor && target.endsWith('.md') && !anchors(read(target)).has(anchor)) broken.push(`${page}: ${link} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
  })
})

describe('docs/configuration.md', () => {
  it('names every TANDEM_ variable the server reads', () => {
    const code = [...filesUnder('server', ['.ts']), 'scripts/serve.mjs'].map(read).join('\n')
    const read_ = new Set([...code.matchAll(/\benv(?:\.|\[['"])(TANDEM_[A-Z0-9_]+)/g)].map((m) => m[1]!))
    // Named secrets are any variable with this prefix: the table names the pattern.
    const secretPrefix = /\^\((TANDEM_[A-Z_]+_)\)|\^(TANDEM_[A-Z_]+_)\(/.exec(read('server/lib/privacy/secrets.ts'))
    const prefix = secretPrefix?.[1] ?? secretPrefix?.[2]
    expect(prefix).toBe('TANDEM_SECRET_')
    expect(read_.size).toBeGreaterThan(20)
    const table = read('docs/configuration.md')
    const missing = [...read_, `${prefix}<NAME>`].filter((name) => !table.includes(`\`${name}\``))
    expect(missing).toEqual([])
  })
})
