import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useHarness } from './support/use-harness'

/** The person's upload folder, with one report in it, and a secret beside the folder that no step may reach. */
const root = mkdtempSync(join(tmpdir(), 'tandem-e2e-upload-'))
const folder = join(root, 'uploads')
mkdirSync(folder)
const REPORT = Buffer.from('%PDF-1.4\nquarterly report\n%%EOF\n')
writeFileSync(join(folder, 'report.pdf'), REPORT)
writeFileSync(join(root, 'secret.txt'), 'not for any site')
const SHA = createHash('sha256').update(REPORT).digest('hex')

const h = useHarness({ server: { env: { TANDEM_UPLOAD_DIR: folder } }, resetSite: true })
const uploads = () => h.site.hits.filter((hit) => hit.startsWith('upload '))
const received = () => h.site.requests.filter((r) => r.endsWith(' /upload/receive'))

describe('upload: a file from the person’s upload folder, only once they approve', () => {
  it('asks first, then puts the file on the hidden input behind antd’s styled button; the site gets exactly its bytes', async () => {
    const taskId = await h.runScript([{ type: 'upload', selector: '#antd button', file: 'report.pdf' }], `${h.site.url}/upload/`)
    const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION')
    const pending = view.pendingConfirmation!
    expect(pending.action.type).toBe('upload')
    expect(pending.risk).toBe('high')
    expect(pending.reasonDetails).toContainEqual({ code: 'upload-file', file: 'report.pdf' })
    // The file has not left the server: the step as the person sees it carries no bytes, and nothing reached the site.
    expect(pending.action.params.content).toBeUndefined()
    expect(received()).toEqual([])
    await h.confirm(taskId, true)
    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    await expect.poll(uploads).toEqual([`upload antd report.pdf ${REPORT.length} ${SHA}`])
    const page = h.ext.context.pages().findLast((p) => p.url().includes('/upload/'))!
    await expect.poll(() => page.locator('#state').textContent()).toBe('Uploaded report.pdf')
  })

  it('finds Element Plus’s hidden input from its button named by its words', async () => {
    const taskId = await h.runScript([{ type: 'upload', text: '选择文件', file: 'report.pdf' }], `${h.site.url}/upload/`)
    await h.confirm(taskId, true)
    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(end.task.status, JSON.stringify(end.steps, null, 1)).toBe('SUCCEEDED')
    await expect.poll(uploads).toEqual([`upload el report.pdf ${REPORT.length} ${SHA}`])
  })

  it('a rejected upload sends nothing', async () => {
    const taskId = await h.runScript([{ type: 'upload', selector: '#antd button', file: 'report.pdf' }], `${h.site.url}/upload/`)
    await h.confirm(taskId, false, 'not that file')
    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(end.task.status).toBe('FAILED')
    await new Promise((r) => setTimeout(r, 500))
    expect(received()).toEqual([])
    expect(uploads()).toEqual([])
  })

  it('refuses a path out of the folder before asking anyone, and nothing is sent', async () => {
    const taskId = await h.runScript([{ type: 'upload', selector: '#antd button', file: '../secret.txt' }], `${h.site.url}/upload/`)
    const end = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED', 'WAITING_CONFIRMATION'])
    expect(end.task.status).toBe('FAILED')
    const step = end.steps.find((s) => s.type === 'upload')!
    expect(step.errors[0]).toMatchObject({ code: 'UPLOAD_REFUSED', message: '"../secret.txt" is not a plain file name: name a file directly inside the upload folder.' })
    expect(received()).toEqual([])
  })
})
