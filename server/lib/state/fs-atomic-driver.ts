import { randomBytes } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { defineDriver } from 'unstorage'

const SAFE_KEY = /^[A-Za-z0-9_-]+(:[A-Za-z0-9_.-]+)*$/

/**
 * unstorage's fs driver truncates then writes, so a process killed mid-write leaves a broken file.
 * This one writes a temporary file and renames it over the old one: a reader sees the old value or the new, never half.
 */
export const fsAtomicDriver = defineDriver((opts: { base: string }) => {
  const base = resolve(opts.base)
  // Folders already made: a mkdir per write costs more than the write.
  const made = new Set<string>()
  const pathOf = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`)
    return join(base, key.replace(/:/g, sep))
  }
  const read = async (key: string) => {
    try {
      return await fsp.readFile(pathOf(key), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])
    const nested = await Promise.all(
      entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.includes('.tmp-') ? [] : [join(dir, e.name)])),
    )
    return nested.flat()
  }
  return {
    name: 'fs-atomic',
    options: opts,
    async hasItem(key) {
      return (await read(key)) !== null
    },
    getItem: read,
    async setItem(key, value) {
      const path = pathOf(key)
      const dir = dirname(path)
      if (!made.has(dir)) {
        await fsp.mkdir(dir, { recursive: true })
        made.add(dir)
      }
      const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`
      await fsp.writeFile(tmp, value, 'utf8')
      await fsp.rename(tmp, path)
    },
    async removeItem(key) {
      await fsp.rm(pathOf(key), { force: true })
    },
    async getKeys() {
      return (await walk(base)).map((p) => relative(base, p).split(sep).join(':'))
    },
    async clear() {
      made.clear()
      await fsp.rm(base, { recursive: true, force: true })
    },
  }
})
