import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXTENSION_DIR } from './support/browser'
import { useHarness } from './support/use-harness'

// The extension as people load it: loopback (the server) granted, every other site only when the person allows it.
const h = useHarness()
let deniedTask = ''

describe('the extension people load', () => {
  it('asks for no site but the server’s loopback origins at install', () => {
    const manifest = JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8'))
    expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*', 'http://localhost/*'])
    expect(manifest.optional_host_permissions).toEqual(['*://*/*'])
    // declarativeNetRequest and webNavigation: the navigation guard (block rules need no host permission);
    // debugger: screenshots of the task tab, in front or not, with no host permission, and the write barrier;
    // webRequest: what the barrier's fallback blocked; tabGroups: the task's tabs grouped under its name.
    expect(manifest.permissions.sort()).toEqual([
      'activeTab',
      'alarms',
      'debugger',
      'declarativeNetRequest',
      'notifications',
      'scripting',
      'sidePanel',
      'storage',
      'tabGroups',
      'tabs',
      'webNavigation',
      'webRequest',
    ])
    expect(manifest.permissions).not.toContain('declarativeNetRequestWithHostAccess')
  })

  it('refuses a site nobody granted, touches nothing there, and waits for the person to authorise it', async () => {
    const denied = h.site.deniedUrl('shop.test')
    deniedTask = await h.runScript([{ type: 'observe' }], `${denied}/shop/`)
    const view = await h.waitFor(deniedTask, 'WAITING_USER')
    expect(view.steps[0]).toMatchObject({ type: 'navigate', outcome: 'failed' })
    expect(view.steps[0].errors.map((e) => e.code)).toEqual(['PERMISSION_DENIED'])
    expect(view.task.question).toContain(new URL(denied).origin)
    expect(h.site.requests.filter((r) => r.includes('shop.test'))).toEqual([])
    expect(h.ext.context.pages().some((p) => p.url().includes('shop.test'))).toBe(false)

    // The panel offers the one button that can grant it (the browser's prompt needs a real click).
    const panel = await h.ext.openPanel()
    await panel.reload()
    await expect.poll(() => panel.getByTestId('site-access').innerText(), { timeout: 10_000 }).toContain(`Allow ${new URL(denied).origin}`)
  })

  it('acts on a granted site and takes its screenshots without <all_urls>', async () => {
    // The denied task above still waits; this one is bound to the same client and runs after it is gone.
    if (deniedTask) await h.server.api('POST', '/api/agent/cancel', { taskId: deniedTask })
    const taskId = await h.runScript([{ type: 'observe' }], `${h.site.url}/arrived`)
    const view = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(view.task.status).toBe('SUCCEEDED')
    const observe = view.steps.find((s) => s.type === 'observe')!
    expect(observe.outcome).toBe('done')
    expect(observe.errors).toEqual([])
    expect(observe.artifacts?.map((a) => a.label)).toEqual(['observation'])
  })
})
