import { describe, expect, it, vi } from 'vitest'
import { createScreenshots } from '../lib/panel/screenshots'
import { ServerError } from '../lib/server/errors'

describe('panel screenshots', () => {
  it('revokes every object URL it made when the panel leaves a task and comes back while a picture loads', async () => {
    const pending: Array<(blob: Blob) => void> = []
    let made = 0
    const deps = {
      load: vi.fn(() => new Promise<Blob>((resolve) => pending.push(resolve))),
      objectUrl: vi.fn(() => `blob:${++made}`),
      revoke: vi.fn(),
    }
    const shots = createScreenshots(deps)
    const first = shots.want('task1', ['a1.png'])
    shots.clear() // the panel shows another task …
    const second = shots.want('task1', ['a1.png']) // … and this one again
    for (const resolve of pending) resolve(new Blob(['png']))
    await Promise.all([first, second])
    shots.clear()
    expect(deps.objectUrl.mock.calls.length).toBeGreaterThan(0)
    expect(deps.revoke.mock.calls.map((c) => c[0]).sort()).toEqual(deps.objectUrl.mock.results.map((r) => r.value).sort())
  })

  it('asks again for a picture the server did not answer for, and never again for one it refused', async () => {
    const deps = {
      load: vi.fn(async (_taskId: string, name: string): Promise<Blob> => {
        throw name === 'slow.png' ? new ServerError('NOT_ANSWERING', 'x') : new ServerError('NOT_FOUND', 'x', 404)
      }),
      objectUrl: vi.fn(() => 'blob:1'),
      revoke: vi.fn(),
    }
    const shots = createScreenshots(deps)
    await shots.want('task1', ['slow.png', 'gone.png'])
    deps.load.mockResolvedValue(new Blob(['png']))
    await shots.want('task1', ['slow.png', 'gone.png'])
    expect(deps.load.mock.calls.map((c) => c[1])).toEqual(['slow.png', 'gone.png', 'slow.png'])
    expect(shots.urls.value).toEqual({ 'slow.png': 'blob:1' })
  })
})
