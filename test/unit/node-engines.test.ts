import { readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>
}

/** The oldest Node of each line package.json accepts: what a person on the README's minimum actually runs. */
const floors = pkg.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version)

describe('the Node requirement and the dependencies agree', () => {
  it('every installed package accepts the oldest Node package.json allows (npm ci prints no EBADENGINE)', () => {
    const refused: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      // Platform binaries npm skips when they do not fit are not installed, so they cannot refuse anything.
      if (!path || entry.optional) continue
      const wanted = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
      if (!wanted) continue
      for (const floor of floors) {
        if (!semver.satisfies(floor, wanted)) refused.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${wanted}, not ${floor}`)
      }
    }
    expect(refused).toEqual([])
  })

  it('the README and CI ask for the same Node as package.json', () => {
    expect(floors).toEqual(['20.19.0', '22.12.0'])
    expect(readFileSync('README.md', 'utf8')).toContain('needs Node 20.19+ (or 22.12+')
    expect(readFileSync('.ci/run', 'utf8')).toContain('Tandem needs Node 20.19+ or 22.12+')
  })
})
