import { computed, signal, type ReadonlySignal } from '@preact/signals'
import type { AddressProblem, SkillSearchResult, StartBody } from '#protocol'
import { describeAddressProblem, normaliseWebAddress, parseWebAddress, skillNameIn } from '#protocol'
import type { Lang } from '../../../ui/i18n'
import type { ServerClient } from '../server/client'
import type { PanelT } from './i18n'
import type { Notices } from './notices'
import { EMPTY_DRAFT, type Draft } from './persisted'

export interface CurrentTab {
  id: number
  url: string
  title: string
}

export interface NewTaskDeps {
  client: Pick<ServerClient, 'start' | 'searchSkills'>
  draft: { get(): Promise<Draft>; set(value: Draft): Promise<void> }
  /** The tab the person is looking at (not the panel), or null. */
  currentTab: () => Promise<CurrentTab | null>
  /** Tells the worker a task is about to start in that tab, so its first step waits for the task's name. */
  expectTab: (tabId: number) => Promise<void>
  /** Asks the worker to make that tab the task's tab. */
  adoptTab: (taskId: string, tabId: number) => Promise<boolean>
  /** The panel follows the new task. */
  started: (taskId: string) => Promise<void>
  /** The task the panel shows and whether it still runs: while it does, the form keeps out of its way. */
  followed: ReadonlySignal<{ taskId: string; live: boolean } | null>
  t: PanelT
  /** The reader's language, for what is said about an address that is not one. */
  lang?: Lang
  notices: Notices
}

const isWebPage = (url: string) => /^https?:\/\//i.test(url)

/** "example.com/x" means https://example.com/x; anything that is still not a web address is refused (the server's rule). */
export const normaliseStartUrl = normaliseWebAddress

/** The new-task form: goal, optional skill found by search, and where it starts; kept as a draft. */
export function createNewTask(deps: NewTaskDeps) {
  const { t, notices } = deps
  const draft = signal<Draft>(EMPTY_DRAFT)
  const skillQuery = signal('')
  const skillResults = signal<SkillSearchResult[] | null>(null)
  const currentTab = signal<CurrentTab | null>(null)
  /** Why the address typed is not one, shown under the field until the person changes it. */
  const urlProblem = signal<AddressProblem | null>(null)
  const urlError = computed(() => (urlProblem.value ? describeAddressProblem(urlProblem.value, deps.lang ?? 'en') : null))
  /** The values for the picked skill's parameters: personal (a name, an address), so held only while the panel is open. */
  const params = signal<Record<string, string>>({})
  let searchSeq = 0

  // The person's own opening or closing of the form holds for the task state it was made in; a task that starts
  // or ends brings back the default.
  const phase = computed(() => {
    const f = deps.followed.value
    return f ? `${f.taskId}:${f.live ? 'live' : 'over'}` : ''
  })
  const choice = signal<{ phase: string; open: boolean } | null>(null)
  /** Collapsed to its title while the followed task runs, unless a goal is half written or the person opened it. */
  const open = computed(() => {
    if (choice.value?.phase === phase.value) return choice.value.open
    return !deps.followed.value?.live || draft.value.goal.trim() !== ''
  })

  function edit(change: Partial<Draft>) {
    draft.value = { ...draft.value, ...change }
    void deps.draft.set(draft.value).catch(() => undefined)
  }

  async function lookAtCurrentTab() {
    const tab = await deps.currentTab().catch(() => null)
    currentTab.value = tab && isWebPage(tab.url) ? tab : null
    return currentTab.value
  }

  return {
    draft,
    skillQuery,
    skillResults,
    currentTab,
    open,
    urlError,
    params,
    setParam: (name: string, value: string) => void (params.value = { ...params.value, [name]: value }),

    /** The person opened or closed the form; the browser also reports the changes the panel made itself. */
    setOpen(value: boolean) {
      if (value !== open.value) choice.value = { phase: phase.value, open: value }
    },
    async load() {
      draft.value = await deps.draft.get()
      await lookAtCurrentTab()
    },
    lookAtCurrentTab,
    setGoal: (goal: string) => edit({ goal }),
    setPlanFirst: (planFirst: boolean) => edit({ planFirst }),
    setWhere: (where: Draft['where']) => {
      edit({ where })
      if (where === 'current') void lookAtCurrentTab()
      urlProblem.value = null
    },
    setStartUrl: (startUrl: string) => {
      urlProblem.value = null
      edit({ startUrl })
    },

    /** Searches as the person types; an answer to an older query never replaces a newer one. */
    async searchSkills(query: string) {
      skillQuery.value = query
      const seq = ++searchSeq
      if (!query.trim()) {
        skillResults.value = null
        return
      }
      try {
        const found = await deps.client.searchSkills(query.trim())
        if (seq === searchSeq) skillResults.value = found
      } catch {
        if (seq === searchSeq) skillResults.value = []
      }
    },
    pickSkill(skill: Pick<SkillSearchResult, 'slug' | 'name' | 'nameZh' | 'scripted' | 'parameters'>) {
      const parameters = skill.parameters?.map(({ name, label }) => ({ name, label }))
      edit({ skill: { slug: skill.slug, name: skillNameIn(skill, deps.lang ?? 'en'), scripted: skill.scripted, ...(parameters?.length ? { parameters } : {}) } })
      params.value = {}
      skillQuery.value = ''
      skillResults.value = null
    },
    clearSkill: () => {
      edit({ skill: null })
      params.value = {}
    },

    start: () =>
      notices.run(async () => {
        const { goal: rawGoal, skill, where, startUrl: rawUrl } = draft.value
        const goal = rawGoal.trim()
        if (!goal) return notices.fail(t('start.needGoal'))
        // A script runs as written: only the model proposes a plan.
        const planFirst = !!draft.value.planFirst && !skill?.scripted
        const body: Omit<StartBody, 'clientId'> = { goal, ...(skill ? { skill: skill.slug } : {}), ...(planFirst ? { planFirst } : {}) }
        if (skill?.parameters?.length) {
          const empty = skill.parameters.filter((p) => !params.value[p.name]?.trim())
          if (empty.length) return notices.fail(t('start.needParams', { names: empty.map((p) => `“${p.label}”`).join(t('start.paramsSep')) }))
          body.params = Object.fromEntries(skill.parameters.map((p) => [p.name, params.value[p.name]!.trim()]))
        }
        let tab: CurrentTab | null = null
        if (where === 'new') {
          const address = parseWebAddress(rawUrl)
          // Said under the field, and nothing starts: the server would refuse it the same way.
          if (!address.ok) {
            urlProblem.value = address.problem
            return
          }
          body.startUrl = address.url
        } else {
          tab = await lookAtCurrentTab()
          if (!tab) return notices.fail(t('start.noTab'))
        }
        // The worker may be long-polling: the task's first step can reach it before the tab does.
        if (tab) await deps.expectTab(tab.id).catch(() => undefined)
        // A start the server refused leaves the promise to lapse (COMING_MS).
        const { taskId } = await deps.client.start(body)
        if (tab) await deps.adoptTab(taskId, tab.id).catch(() => false)
        edit({ goal: '', skill: null })
        params.value = {}
        await deps.started(taskId)
      }),
  }
}
export type NewTask = ReturnType<typeof createNewTask>
