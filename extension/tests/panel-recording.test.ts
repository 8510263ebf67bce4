import { describe, expect, it, vi } from 'vitest'
import type { SaveRecordingBody } from '#protocol'
import { panelTranslator } from '../lib/panel/i18n'
import { createNotices } from '../lib/panel/notices'
import { createRecording } from '../lib/panel/recording'
import type { RecordedMessage } from '../lib/record/messages'

function setup(tab: { id: number; url: string; title: string } | null = { id: 7, url: 'http://shop.test/book?from=ad', title: 'Book a room' }) {
  const t = panelTranslator('en')
  const notices = createNotices(t, () => 'http://127.0.0.1:3000')
  let clock = 1000
  const saved: SaveRecordingBody[] = []
  const inject = vi.fn(async (_tabId: number) => true)
  const stopIn = vi.fn(async (_tabId: number) => undefined)
  const client = {
    saveRecording: vi.fn(async (body: SaveRecordingBody) => {
      saved.push(body)
      return { skill: { slug: 'book-a-room', name: body.name, description: 'd', sites: [], tags: [], risk: 'medium' as const, 'allowed-actions': [], 'risky-steps': [], excerpt: '', scripted: true }, file: 'f' }
    }),
  }
  const recording = createRecording({ client, currentTab: async () => tab, inject, stopIn, t, lang: 'en', notices, now: () => clock })
  return { recording, notices, saved, inject, stopIn, tick: (ms: number) => (clock += ms) }
}

const click = (name: string): RecordedMessage => ({ kind: 'recorded', step: { type: 'click', target: { by: 'role', value: `button:${name}` }, text: name, selector: 'button' }, label: name })
const typed: RecordedMessage = {
  kind: 'recorded',
  step: { type: 'type', target: { by: 'role', value: 'textbox:Email' }, selector: '#email', text: '{{email}}', clear: true },
  label: 'Email',
  parameter: { name: 'email', label: 'Email', secret: false },
}

describe('Record in the panel', () => {
  it('watches the tab in front, keeps only its steps, and counts a page the person opened but not one a click loaded', async () => {
    const { recording, inject, tick } = setup()
    await recording.start()
    expect(recording.phase.value).toBe('recording')
    expect(inject).toHaveBeenCalledWith(7)
    recording.recorded(typed, 7)
    recording.recorded(click('Elsewhere'), 8)
    recording.recorded(click('Send'), 7)
    tick(500)
    await recording.loaded(7, 'http://shop.test/book/sent')
    expect(inject).toHaveBeenCalledTimes(2)
    tick(10_000)
    await recording.loaded(7, 'http://shop.test/rooms?contact=grace@example.org')
    await recording.loaded(8, 'http://other.test/')
    expect(recording.steps.value.map((s) => s.words)).toEqual(['Fill in “Email” with email (asked each run)', 'Click “Send”', 'Open http://shop.test/rooms'])
  })

  it('refuses a tab that is no web page, or one Tandem may not read', async () => {
    const none = setup(null)
    await none.recording.start()
    expect(none.notices.notice.value?.text).toBe('Open the page where the task starts in a tab first.')
    const denied = setup()
    denied.inject.mockResolvedValueOnce(false)
    await denied.recording.start()
    expect(denied.recording.phase.value).toBe('idle')
    expect(denied.notices.notice.value?.text).toBe('Tandem may not read http://shop.test: allow the site first.')
  })

  it('stops the recorder, lets the person reword and delete steps, and saves the steps with their words as intents', async () => {
    const { recording, stopIn, saved } = setup()
    await recording.start()
    recording.recorded(typed, 7)
    recording.recorded(click('Oops'), 7)
    recording.recorded(click('Send'), 7)
    await recording.stop()
    expect(stopIn).toHaveBeenCalledWith(7)
    expect(recording.sop.value).toBe('Start at http://shop.test/book?from=ad.\nYou fill in each time: Email.\n\n1. Fill in “Email” with email (asked each run)\n2. Click “Oops”\n3. Click “Send”')
    expect(recording.steps.value.map((s) => s.words).join(' ')).not.toContain('{{')
    recording.remove(recording.steps.value[1].id)
    recording.reword(recording.steps.value[1].id, 'Click “Send” to book')
    expect(recording.sop.value).toContain('2. Click “Send” to book')
    // Once the person edits the text, a change to the steps leaves it as they wrote it.
    recording.editSop('My own words')
    recording.reword(recording.steps.value[0].id, 'Type the email')
    expect(recording.sop.value).toBe('My own words')
    recording.name.value = 'Book a room'
    await recording.save()
    expect(saved).toEqual([
      {
        name: 'Book a room',
        sop: 'My own words',
        steps: [
          { ...typed.step, reason: 'Type the email' },
          { ...click('Send').step, reason: 'Click “Send” to book' },
        ],
        parameters: [{ name: 'email', label: 'Email' }],
        startUrl: 'http://shop.test/book?from=ad',
      },
    ])
    expect(recording.phase.value).toBe('idle')
    expect(recording.saved.value).toBe('book-a-room')
  })

  it('shows the value asked at each run in words, and keeps its {{name}} in what the replay reads', async () => {
    const { recording, saved, notices } = setup()
    await recording.start()
    recording.recorded(typed, 7)
    recording.recorded(click('Send'), 7)
    await recording.stop()
    recording.reword(recording.steps.value[0].id, 'Put email (asked each run) in the Email box')
    recording.name.value = 'Book a room'
    await recording.save()
    expect(saved[0]!.steps.map((s) => ('reason' in s ? s.reason : undefined))).toEqual(['Put {{email}} in the Email box', 'Click “Send”'])
    expect(saved[0]!.sop).toContain('1. Put {{email}} in the Email box')
    expect(notices.notice.value?.text).toBe('Saved as the skill “Book a room”: it can be found and run now.')
  })
})
