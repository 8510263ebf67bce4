import { describeError } from '#protocol'
import type { Lang } from '../i18n'
import { computed, signal } from '@preact/signals'
import type { AuditView, ClientView, ConfirmBody, SaveSkillBody, SaveSkillData, Skill, SkillSearchResult, SkillSummary, StatusView, TaskStatus, TaskView } from '#protocol'
import { ApiError, type Api } from './api'
import type { ConsoleT } from './i18n'
import { parseRoute, type Route } from './route'
import { forgetToken, saveToken, storedToken, takeFragmentToken, type TokenPlace } from './token'

export type StatusFilter = 'all' | 'active' | TaskStatus
const TERMINAL: readonly TaskStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELED']
export const isFinished = (status: TaskStatus | undefined) => !!status && TERMINAL.includes(status)

export interface ConsoleDeps {
  api: Api
  place: TokenPlace
  t: ConsoleT
  /** Turns fetched bytes into a URL an <img> can show (URL.createObjectURL in the browser). */
  objectUrl: { create(blob: Blob): string; revoke(url: string): void }
  /** Hands a downloaded file to the person (an <a download> click in the browser). */
  save(blob: Blob, filename: string): void
  /** The reader's language, for the server's errors (their messages are English). Default English. */
  lang?: Lang
}

/** Why a call failed, in words that say what to do. */
export function explain(error: unknown, t: ConsoleT, lang: Lang = 'en'): string {
  if (!(error instanceof ApiError)) return t('errServer', { code: 'ERROR', message: error instanceof Error ? error.message : String(error) })
  switch (error.kind) {
    case 'network':
      return t('errNetwork')
    case 'timeout':
      return t('errTimeout')
    case 'unauthorized':
      return t('errUnauthorized')
    case 'not-found':
      return t('errNotFound', { message: error.message })
    default:
      // The server's message is the most exact in English; another reader gets the code's plain sentence.
      return t('errServer', { code: error.code, message: lang === 'en' ? error.message : describeError(error, lang) })
  }
}

/** The console's state: signals the components read, and what the person can do. */
export function createConsoleStore(deps: ConsoleDeps) {
  const { api, t } = deps
  const lang = deps.lang ?? 'en'
  const token = signal<string | null>(null)
  /** The token was refused, or the server is unreachable: the token form shows why. */
  const authError = signal('')
  const checking = signal(false)
  const route = signal<Route>({ page: 'tasks' })

  const tasks = signal<TaskView[] | null>(null)
  const tasksError = signal('')
  const statusFilter = signal<StatusFilter>('all')
  const textFilter = signal('')
  const visibleTasks = computed(() => {
    const text = textFilter.value.trim().toLowerCase()
    const status = statusFilter.value
    return (tasks.value ?? [])
      .filter((task) => status === 'all' || (status === 'active' ? !isFinished(task.status) : task.status === status))
      .filter((task) => !text || task.goal.toLowerCase().includes(text) || task.id.toLowerCase().includes(text))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  })

  const audit = signal<AuditView | null>(null)
  const taskView = signal<StatusView | null>(null)
  const taskError = signal('')
  const downloading = signal(false)
  const saveResult = signal<SaveSkillData | null>(null)
  const saveError = signal('')
  /** The person's answer to the open task's question is on its way; what went wrong with the last one. */
  const deciding = signal(false)
  const decideError = signal('')

  /** The Skills page's list: the whole library until the person searches it. */
  const skillResults = signal<SkillListItem[] | null>(null)
  const skillsError = signal('')
  const openSkill = signal<Skill | null>(null)

  const clients = signal<ClientView[] | null>(null)
  const clientsError = signal('')

  /** Images of the open task, fetched with the token once each, a few at a time so a long task does not flood the server. */
  let images = new Map<string, Promise<string>>()
  const fetching = { running: 0, waiting: [] as (() => void)[] }
  async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (fetching.running >= 4) await new Promise<void>((go) => fetching.waiting.push(go))
    fetching.running++
    try {
      return await work()
    } finally {
      fetching.running--
      fetching.waiting.shift()?.()
    }
  }
  let imageUrls: string[] = []
  const dropImages = () => {
    for (const url of imageUrls) deps.objectUrl.revoke(url)
    images = new Map()
    imageUrls = []
  }

  /** A refused token sends the person back to the token form, whatever page asked. */
  function failed(error: unknown, into: { value: string }) {
    if (error instanceof ApiError && error.kind === 'unauthorized') {
      authError.value = explain(error, t, lang)
      token.value = null
      forgetToken(deps.place.storage)
    }
    into.value = explain(error, t, lang)
  }

  async function loadTasks() {
    try {
      tasks.value = await api.tasks()
      tasksError.value = ''
    } catch (error) {
      failed(error, tasksError)
    }
  }

  async function loadTask(taskId: string) {
    try {
      const [view, status] = await Promise.all([api.audit(taskId), api.status(taskId).catch(() => null)])
      if (route.value.page !== 'task' || route.value.taskId !== taskId) return
      audit.value = view
      taskView.value = status
      taskError.value = ''
    } catch (error) {
      failed(error, taskError)
    }
  }

  async function loadClients() {
    try {
      clients.value = await api.clients()
      clientsError.value = ''
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'not-found') clientsError.value = t('clientsMissing')
      else failed(error, clientsError)
    }
  }

  function loadPage() {
    const r = route.value
    if (!token.value) return
    if (r.page === 'tasks') void loadTasks()
    if (r.page === 'task') void loadTask(r.taskId)
    if (r.page === 'clients') void loadClients()
    if (r.page === 'skills' && skillResults.value === null) void listSkills()
    if (r.page === 'skill') void loadSkill(r.slug)
  }

  async function listSkills() {
    try {
      skillResults.value = await api.skills()
      skillsError.value = ''
    } catch (error) {
      failed(error, skillsError)
    }
  }

  async function loadSkill(slug: string) {
    if (openSkill.value?.slug !== slug) openSkill.value = null
    try {
      openSkill.value = await api.skill(slug)
      skillsError.value = ''
    } catch (error) {
      failed(error, skillsError)
    }
  }

  /** Keeps a token only once the server accepted it; a refused one leaves the token in use as it was. */
  async function connect(value: string) {
    const candidate = value.trim()
    if (!candidate) return
    checking.value = true
    authError.value = ''
    const previous = token.value
    token.value = candidate
    try {
      tasks.value = await api.tasks()
      saveToken(deps.place.storage, candidate)
      tasksError.value = ''
      loadPage()
    } catch (error) {
      token.value = previous
      authError.value = explain(error, t, lang)
    } finally {
      checking.value = false
    }
  }

  return {
    token, authError, checking, route,
    tasks, tasksError, statusFilter, textFilter, visibleTasks,
    audit, taskView, taskError, downloading, saveResult, saveError, deciding, decideError,
    skillResults, skillsError, openSkill,
    clients, clientsError,

    /** First thing on load: the token from the fragment or from an earlier visit, and the page to show. */
    start() {
      const given = takeFragmentToken(deps.place)
      token.value = storedToken(deps.place.storage)
      route.value = parseRoute(deps.place.location.hash)
      if (given) void connect(given)
      else loadPage()
    },

    connect,

    signOut() {
      forgetToken(deps.place.storage)
      token.value = null
      authError.value = ''
    },

    navigate(hash: string) {
      // A token pasted into the fragment of an open console is taken as on load (and wiped from the URL).
      const handed = new URLSearchParams(hash.replace(/^#\/?/, '')).has('token')
      const given = handed ? takeFragmentToken(deps.place) : null
      if (handed) hash = deps.place.location.hash
      const next = parseRoute(hash)
      const before = route.value
      if (before.page === 'task' && (next.page !== 'task' || next.taskId !== before.taskId)) {
        dropImages()
        audit.value = null
        taskView.value = null
        taskError.value = ''
        saveResult.value = null
        saveError.value = ''
        decideError.value = ''
      }
      route.value = next
      if (given) void connect(given)
      else loadPage()
    },

    refresh: loadPage,
    /** Whether the open page shows something that can still change. */
    live: () => route.value.page === 'tasks' || (route.value.page === 'task' && !isFinished(taskView.value?.task.status)),

    image(taskId: string, name: string): Promise<string> {
      let url = images.get(name)
      if (!url) {
        url = limited(() => api.blob(api.artifactPath(taskId, name))).then((blob) => {
          const made = deps.objectUrl.create(blob)
          imageUrls.push(made)
          return made
        })
        images.set(name, url)
        url.catch(() => images.delete(name))
      }
      return url
    },

    async download(taskId: string) {
      downloading.value = true
      try {
        deps.save(await api.blob(api.exportPath(taskId)), `tandem-audit-${taskId}.zip`)
      } catch (error) {
        failed(error, taskError)
      } finally {
        downloading.value = false
      }
    },

    /** Approves or rejects the step the open task waits on (a held write with how long to allow its kind), then shows the task as it is after. */
    async decide(body: ConfirmBody) {
      deciding.value = true
      decideError.value = ''
      try {
        await api.confirm(body)
        await loadTask(body.taskId)
      } catch (error) {
        failed(error, decideError)
      } finally {
        deciding.value = false
      }
    },

    async saveSkill(body: SaveSkillBody) {
      saveError.value = ''
      try {
        saveResult.value = await api.saveSkill(body)
      } catch (error) {
        const shipped = error instanceof ApiError && (error.details as { shipped?: unknown } | undefined)?.shipped === true
        if (error instanceof ApiError && error.code === 'CONFLICT') saveError.value = t(shipped ? 'saveShipped' : 'saveConflict')
        else failed(error, saveError)
      }
    },

    async searchSkills(query: string, site: string) {
      if (!query.trim() && !site.trim()) return listSkills()
      try {
        skillResults.value = await api.searchSkills(query, site.trim() || undefined)
        skillsError.value = ''
      } catch (error) {
        failed(error, skillsError)
      }
    },
  }
}
export type ConsoleStore = ReturnType<typeof createConsoleStore>

/** What the Skills page shows of a skill, whether it came from the list or from a search. */
export type SkillListItem = Pick<SkillSummary, 'slug' | 'name' | 'description' | 'name-zh' | 'description-zh' | 'sites' | 'risk' | 'scripted' | 'own' | 'parameters'> | SkillSearchResult
