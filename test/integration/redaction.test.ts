import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, ObservationInput } from '#protocol'
import { agent } from '../support/agent'
import { CANARIES, spaced } from '../support/canaries'
import { answer, goalOf, pageOf, startFakeLlm, type FakeAnswer, type FakeLlm, type FakeRequest } from '../support/fake-llm'
import { findCanaries } from '../support/scan-outputs'
import { startServer, type TestServer } from '../support/server'

const { cardVisa, cardUnionPay, email, emailCn, phoneCn, phoneEn } = CANARIES
const last = (r: FakeRequest) => String(r.messages.at(-1)?.content ?? '')
const isExtraction = (r: FakeRequest) => String(r.messages[0]?.content).startsWith('You extract')

// A model that reads the checkout page, extracts its summary, then signs with the vault's secret and finishes.
function model(r: FakeRequest): FakeAnswer {
  if (isExtraction(r)) return '{"data": {"summary": "paid"}}'
  const page = pageOf(r)
  if (!goalOf(r).includes('[pay]')) return answer([{ type: 'done', success: false, text: 'no rule' }])
  if (r.text.includes('"summary":"paid"') || r.text.includes('"summary": "paid"')) return answer([{ type: 'done', success: true, text: 'paid' }])
  if (page.includes('Checkout')) return answer([{ type: 'extract', instruction: 'the order summary' }])
  return answer([{ type: 'done', success: false, text: 'lost' }])
}

/** The checkout page as a careless extension reports it: card numbers, emails and phones everywhere text goes. */
const checkout = (action: Action, contact: { email: string; phone: string }): Partial<ObservationInput> => {
  const personal = `card ${spaced(cardVisa)} / ${cardUnionPay}, ${contact.email}, ${contact.phone}`
  return {
    url: `http://shop.test/checkout?mail=${encodeURIComponent(contact.email)}&card=${cardVisa}`,
    title: `Checkout for ${contact.email}`,
    elementTree: `[0]<input type=text name=holder value="${contact.email}">\n[1]<input type=tel name=tel value="${contact.phone}">\n[2]<button>Pay ${cardUnionPay}</button>`,
    elements: [{ index: 0, tag: 'input', attributes: { type: 'text', name: 'holder', value: contact.email }, fingerprint: 'f0' }],
    visibleTextSnippet: `Checkout. ${personal}`,
    ...(action.type === 'extract' ? { extracted: { url: 'http://shop.test/checkout', title: 'Checkout', text: `Summary: ${personal}`, truncated: false } } : {}),
  }
}

async function drive(a: ReturnType<typeof agent>, taskId: string, contact: { email: string; phone: string }) {
  const actions: Action[] = []
  for (let i = 0; i < 12; i++) {
    const reply = await a.next(taskId, 5000)
    if (reply.action) {
      actions.push(reply.action)
      await a.report(reply.action, checkout(reply.action, contact))
    } else if (reply.status === 'SUCCEEDED' || reply.status === 'FAILED') break
  }
  return { actions, view: await a.status(taskId) }
}

/** Every file under a folder, as text. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && !/\.(jpg|png|webp)$/.test(f.name))
    .map((f) => [join(f.parentPath, f.name), readFileSync(join(f.parentPath, f.name), 'utf8')] as const)

describe('with TANDEM_REDACT_EMAILS and TANDEM_REDACT_PHONES on', () => {
  let llm: FakeLlm
  let server: TestServer
  let a: ReturnType<typeof agent>
  let run: Awaited<ReturnType<typeof drive>>
  let taskId = ''
  beforeAll(async () => {
    llm = await startFakeLlm(model)
    server = await startServer({
      env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-model', TANDEM_REDACT_EMAILS: '1', TANDEM_REDACT_PHONES: 'on' },
    })
    a = agent(server)
    ;({ taskId } = await a.start({ goal: `[pay] Pay with card ${spaced(cardVisa)}, receipt to ${emailCn}, call ${phoneEn} if needed` }))
    run = await drive(a, taskId, { email, phone: phoneCn })
  })
  afterAll(async () => {
    await server?.close()
    await llm?.close()
  })

  it('runs the task to the end on masked text', () => {
    expect(run.view.task.status, JSON.stringify(run.view.steps)).toBe('SUCCEEDED')
    expect(llm.requests.some(isExtraction)).toBe(true)
  })

  it('sends the model no card number, email or phone number: not in the goal, the page, the URL or the extraction', () => {
    expect(llm.requests.length).toBeGreaterThanOrEqual(3)
    for (const request of llm.requests) expect(findCanaries(JSON.stringify(request.messages))).toEqual([])
    const firstPage = llm.requests.find((r) => pageOf(r).includes('Checkout'))!
    expect(pageOf(firstPage)).toContain('<button>Pay ••••</button>')
    expect(goalOf(firstPage)).toBe('[pay] Pay with card ••••, receipt to ••••, call •••• if needed')
    expect(last(llm.requests.find(isExtraction)!)).toContain('Summary: card •••• / ••••, ••••, ••••')
  })

  it('hands the extension every action with the settings, so its screenshots mask the same', () => {
    expect(run.actions.length).toBeGreaterThan(0)
    for (const action of run.actions) expect(action.redact).toEqual({ emails: true, phones: true })
  })

  it('writes none of them to the audit, the stored observation, the task record, the status or the task list', async () => {
    for (const [file, text] of [...filesUnder(server.auditDir), ...filesUnder(server.dataDir)]) expect(findCanaries(text), file).toEqual([])
    expect(findCanaries(JSON.stringify(await a.status(taskId)))).toEqual([])
    expect(findCanaries(JSON.stringify((await server.api('GET', '/api/agent/tasks')).body))).toEqual([])
    expect(findCanaries(JSON.stringify((await server.api('GET', `/api/audit/${taskId}`)).body))).toEqual([])
  })
})

describe('with the defaults', () => {
  let server: TestServer
  let a: ReturnType<typeof agent>
  beforeAll(async () => {
    server = await startServer()
    a = agent(server)
  })
  afterAll(async () => server?.close())

  it('still hides card numbers, keeps emails and phone numbers, and sends no settings with actions', async () => {
    const contact = { email: 'jane.doe@example.com', phone: '+44 20 7946 0958' }
    const { taskId } = await a.start({ script: [{ type: 'extract', instruction: 'the order summary' }] })
    const action = await a.nextAction(taskId)
    expect(action.redact).toBeUndefined()
    await a.report(action, checkout(action, contact))
    await a.waitFor(taskId, 'SUCCEEDED')
    const audit = JSON.stringify((await server.api('GET', `/api/audit/${taskId}`)).body)
    expect(findCanaries(audit)).toEqual([])
    expect(audit).toContain(contact.email)
    expect(audit).toContain(contact.phone)
    expect(audit).toContain('card •••• / ••••')
  })
})
