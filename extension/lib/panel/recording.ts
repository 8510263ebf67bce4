import { signal } from '@preact/signals'
import type { SaveRecordingBody, ScriptStep, SkillParameter } from '#protocol'
import { askedEachRun, cutText, findSensitive, oneLineOf, skillWords } from '#protocol'
import type { Lang } from '../../../ui/i18n'
import type { RecordedMessage } from '../record/messages'
import type { ServerClient } from '../server/client'
import { isServerError } from '../server/errors'
import type { PanelT } from './i18n'
import type { CurrentTab } from './new-task'
import type { NoticeSink } from './notices'

/** One recorded step as the person reviews it: the step, and its words (editable). */
export interface ReviewStep {
  id: number
  step: ScriptStep
  words: string
  parameter?: RecordedMessage['parameter']
}

export interface RecordingDeps {
  client: Pick<ServerClient, 'saveRecording'>
  currentTab: () => Promise<CurrentTab | null>
  /** Puts the recorder into the tab (again after each page load); false when Tandem may not read the page. */
  inject: (tabId: number) => Promise<boolean>
  /** Tells the recorder in the tab to stop watching. */
  stopIn: (tabId: number) => Promise<void>
  t: PanelT
  lang: Lang
  notices: NoticeSink
  now?: () => number
}

/** A page load within this long of a click or a submitted field is that step's consequence, not a step of its own. */
const CAUSED_MS = 3000

/**
 * A step in the person's language: what the SOP lists and what the model reads as the step's intent. A value typed
 * is said as the field's label "(asked each run)", never as the `{{name}}` the script keeps.
 */
export function wordsFor(t: PanelT, lang: Lang, r: Pick<RecordedMessage, 'step' | 'label' | 'parameter'>): string {
  const s = r.step
  switch (s.type) {
    case 'click':
      return t('record.step.click', { name: r.label })
    case 'type': {
      const param = r.parameter ? askedEachRun(r.parameter.label, lang) : s.text
      return t(r.parameter?.secret ? 'record.step.secret' : 'record.step.type', { name: r.label, param })
    }
    case 'select':
      return t('record.step.select', { option: s.option, name: r.label })
    case 'navigate':
      return t('record.step.open', { url: s.url })
    default:
      return s.type
  }
}

/** The SOP in words, made from the steps: where it starts, what is filled in (by the fields' labels), each step numbered. */
export function sopFor(t: PanelT, startUrl: string | null, steps: ReviewStep[]): string {
  const names = [...new Set(steps.flatMap((s) => (s.parameter ? [s.parameter.label] : [])))]
  return [
    ...(startUrl ? [t('record.sop.start', { url: startUrl })] : []),
    ...(names.length ? [t('record.sop.fill', { names: names.join(t('record.sop.sep')) })] : []),
    '',
    ...steps.map((s, i) => `${i + 1}. ${s.words}`),
  ].join('\n')
}

/**
 * The text with each parameter's words ("email (asked each run)") made its `{{name}}` again, as the skill keeps it:
 * the replay fills the value in, so the model told a step's intent knows what to type. `first` wins a shared label.
 */
function withPlaceholders(text: string, steps: ReviewStep[], lang: Lang, first?: ReviewStep['parameter']): string {
  const params = [...(first ? [first] : []), ...steps.flatMap((s) => (s.parameter ? [s.parameter] : []))]
  const phrases = new Map<string, string>()
  for (const p of params) if (!phrases.has(askedEachRun(p.label, lang))) phrases.set(askedEachRun(p.label, lang), `{{${p.name}}}`)
  return [...phrases].sort(([a], [b]) => b.length - a.length).reduce((out, [phrase, placeholder]) => out.split(phrase).join(placeholder), text)
}

/** An address that carries the person's email, phone or card number keeps only its page, not its query. */
const plainUrl = (url: string) => {
  if (!findSensitive(url, { emails: true, phones: true }).length) return url
  const u = new URL(url)
  return `${u.origin}${u.pathname}`
}

/** Record in the side panel: watch the person do the task in their tab, let them review it, save it as a skill. */
export function createRecording(deps: RecordingDeps) {
  const { t, lang, notices } = deps
  const now = deps.now ?? Date.now
  const phase = signal<'idle' | 'recording' | 'review'>('idle')
  const steps = signal<ReviewStep[]>([])
  const tab = signal<CurrentTab | null>(null)
  const startUrl = signal<string | null>(null)
  const sop = signal('')
  const sopEdited = signal(false)
  const name = signal('')
  const saved = signal<string | null>(null)
  let nextId = 1
  let lastActAt = 0
  let lastUrl: string | null = null

  const add = (r: Omit<ReviewStep, 'id' | 'words'> & { label: string }) => {
    steps.value = [...steps.value, { id: nextId++, step: r.step, words: wordsFor(t, lang, r), ...(r.parameter ? { parameter: r.parameter } : {}) }]
  }
  const refreshSop = () => {
    if (!sopEdited.value) sop.value = sopFor(t, startUrl.value, steps.value)
  }

  return {
    phase,
    steps,
    tab,
    sop,
    name,
    saved,

    /** The person pressed Record: their current tab is the one watched. */
    start: () =>
      notices.run(async () => {
        const current = await deps.currentTab().catch(() => null)
        if (!current || !/^https?:\/\//.test(current.url)) return notices.fail(t('record.noTab'))
        if (!(await deps.inject(current.id))) return notices.fail(t('record.noAccess', { origin: new URL(current.url).origin }))
        tab.value = current
        startUrl.value = plainUrl(current.url)
        lastUrl = current.url
        steps.value = []
        sop.value = ''
        sopEdited.value = false
        // A skill's name is one line, and the server refuses half an emoji: the title is made one line and cut whole.
        name.value = cutText(oneLineOf(current.title), 200)
        saved.value = null
        phase.value = 'recording'
      }),

    /** A step the recorder in the watched tab reported. */
    recorded(message: RecordedMessage, tabId: number | undefined) {
      if (phase.value !== 'recording' || tabId !== tab.value?.id) return
      if (message.step.type === 'click' || (message.step.type === 'type' && message.step.submit)) lastActAt = now()
      add({ step: message.step, label: message.label, ...(message.parameter ? { parameter: message.parameter } : {}) })
    },

    /** The watched tab loaded a page: the recorder goes in again; a page the person opened themselves is a step. */
    async loaded(tabId: number, url: string) {
      if (phase.value !== 'recording' || tabId !== tab.value?.id) return
      if (url !== lastUrl && /^https?:\/\//.test(url) && now() - lastActAt > CAUSED_MS) {
        add({ step: { type: 'navigate', url: plainUrl(url) }, label: url })
      }
      lastUrl = url
      await deps.inject(tabId).catch(() => false)
    },

    async stop() {
      if (phase.value !== 'recording') return
      const id = tab.value?.id
      if (id !== undefined) await deps.stopIn(id).catch(() => undefined)
      phase.value = 'review'
      refreshSop()
    },

    remove(id: number) {
      steps.value = steps.value.filter((s) => s.id !== id)
      refreshSop()
    },
    reword(id: number, words: string) {
      steps.value = steps.value.map((s) => (s.id === id ? { ...s, words } : s))
      refreshSop()
    },
    editSop(text: string) {
      sop.value = text
      sopEdited.value = true
    },
    discard() {
      phase.value = 'idle'
      steps.value = []
    },

    save: () =>
      notices.run(async () => {
        if (!steps.value.length) return notices.fail(t('record.empty'))
        const title = name.value.trim()
        if (!title) return notices.fail(t('record.noName'))
        const parameters: SkillParameter[] = []
        for (const s of steps.value) if (s.parameter && !parameters.some((p) => p.name === s.parameter!.name)) parameters.push({ name: s.parameter.name, label: s.parameter.label })
        const body: SaveRecordingBody = {
          name: cutText(title, 200),
          sop: withPlaceholders(sop.value.trim() || sopFor(t, startUrl.value, steps.value), steps.value, lang),
          // Each step's words are its intent: what the model is told when its element has gone.
          steps: steps.value.map((s) => ({ ...s.step, reason: withPlaceholders(s.words, steps.value, lang, s.parameter).slice(0, 2000) }) as ScriptStep),
          ...(parameters.length ? { parameters } : {}),
          ...(startUrl.value ? { startUrl: startUrl.value } : {}),
        }
        try {
          const { skill } = await deps.client.saveRecording(body)
          saved.value = skill.slug
          phase.value = 'idle'
          steps.value = []
          notices.say(t('record.saved', { name: skillWords(skill.name, skill.parameters, lang) }))
        } catch (error) {
          const { slug, name: taken } = (error as { details?: { slug?: unknown; name?: unknown } }).details ?? {}
          if (isServerError(error, 'CONFLICT') && typeof slug === 'string') {
            return notices.fail(t('record.conflict', { name: skillWords(typeof taken === 'string' ? taken : title, parameters, lang) }))
          }
          throw error
        }
      }),
  }
}
export type Recording = ReturnType<typeof createRecording>
