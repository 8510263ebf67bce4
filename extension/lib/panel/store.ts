import { computed, signal } from '@preact/signals'
import { isTerminal } from '#protocol'
import type { Lang } from '../../../ui/i18n'
import { Activity } from '../executor/state'
import type { ServerClient } from '../server/client'
import type { Settings } from '../settings'
import { createAllowedWrites } from './allowed-writes'
import { createAskAlways } from './ask-always'
import { createConnection } from './connection'
import { createFollowedTask, type FollowedTask } from './followed-task'
import { panelTranslator, type PanelT } from './i18n'
import { tookOverBy } from './i18n-control'
import { linkWords } from './link-words'
import { createNewTask, type CurrentTab } from './new-task'
import { createNotices, type Notices } from './notices'
import { createPlanReview } from './plan-review'
import type { Draft } from './persisted'
import { watchReach } from './reach'
import { createRecording, type RecordingDeps } from './recording'
import { createSaveSkill } from './save-skill'
import { createScreenshots } from './screenshots'
import { createWaiting } from './waiting'

export type PanelClient = Pick<
  ServerClient,
  | 'health'
  | 'info'
  | 'start'
  | 'confirm'
  | 'answer'
  | 'plan'
  | 'status'
  | 'pause'
  | 'resume'
  | 'cancel'
  | 'tasks'
  | 'searchSkills'
  | 'saveSkill'
  | 'saveRecording'
  | 'artifact'
  | 'exportAudit'
  | 'allowedWrites'
  | 'forgetWrite'
  | 'askAlways'
  | 'addAskAlways'
  | 'forgetAskAlways'
>

export interface PanelDeps {
  client: PanelClient
  settings: { get(): Promise<Settings>; set(value: Settings): Promise<void> }
  activity: { get(): Promise<unknown>; watch(cb: (value: unknown) => void): () => void }
  /** Tells the worker to pull work now. */
  wake: () => Promise<void>
  /** Tells the worker the person paused, resumed or canceled a task (see WorkerRequest "task-changed"). */
  changed: (taskId: string) => Promise<void>
  /** The task the panel follows and the new-task draft, both kept across panel reloads. */
  followed: { get(): Promise<string | null>; set(taskId: string | null): Promise<void> }
  draft: { get(): Promise<Draft>; set(value: Draft): Promise<void> }
  tabs: { current(): Promise<CurrentTab | null>; expect(tabId: number): Promise<void>; adopt(taskId: string, tabId: number): Promise<boolean> }
  /** chrome.permissions.contains for one origin pattern. */
  hasPermission: (pattern: string) => Promise<boolean>
  files: { objectUrl(blob: Blob): string; revoke(url: string): void; download(blob: Blob, filename: string): void }
  lang: Lang
  /** What the worker keeps for the toolbar badge: the tasks that wait for the person (see worker/attention). */
  attention?: { get(): Promise<unknown>; watch(cb: (value: unknown) => void): () => void }
  /** Puts the recorder into a tab and stops it there (Record). */
  recorder?: Pick<RecordingDeps, 'inject' | 'stopIn'>
}

const fallbackActivity = (): Activity => ({ connection: 'unknown', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: null })

/** The New task form, as the panel wires it: a task it starts is followed, announced and handed to the worker. */
function newTaskIn(deps: PanelDeps, client: PanelClient, task: FollowedTask, t: PanelT, notices: Notices) {
  return createNewTask({
    client,
    draft: deps.draft,
    currentTab: deps.tabs.current,
    expectTab: deps.tabs.expect,
    adoptTab: deps.tabs.adopt,
    started: async (taskId) => {
      await task.follow(taskId)
      // A notice belongs to the task it is about: this one, not the one shown when Start was pressed.
      notices.sayAbout(taskId, t('start.started'))
      await deps.wake()
      await task.loadRecent()
    },
    followed: computed(() => {
      const v = task.view.value
      return v ? { taskId: v.task.id, live: !isTerminal(v.task.status) } : null
    }),
    t,
    lang: deps.lang,
    notices,
  })
}

/** The side panel's state: signals the components read, and the things the person can do. */
export function createPanelStore(deps: PanelDeps) {
  const t = panelTranslator(deps.lang)
  const activity = signal<Activity>(fallbackActivity())
  const savedUrl = () => connection.settings.value?.serverUrl ?? ''
  // Read when a call fails, so it always names the server as saved last.
  const notices = createNotices(t, savedUrl, () => task.taskId.value)
  /**
   * Whether the panel's own newest call is the newest news about the link: true from each of its findings until
   * the worker says something new (its activity's connection changes). A test's finding is news until either.
   */
  const panelSpokeLast = signal(false)
  const { client, reach } = watchReach(deps.client, {
    serverUrl: savedUrl,
    back: () => void deps.wake().catch(() => undefined),
    heard(found) {
      panelSpokeLast.value = true
      // An answered call with the token saved: whatever the last test found is over.
      if (found === 'answering' && connection.check.value !== 'ok') connection.check.value = null
    },
  })
  const connection = createConnection({ client, settings: deps.settings, hasPermission: deps.hasPermission, wake: deps.wake, t, notices: notices.global })
  const screenshots = createScreenshots({ load: client.artifact, objectUrl: deps.files.objectUrl, revoke: deps.files.revoke })
  const allowedWrites = createAllowedWrites({ client, t, notices: notices.global })
  const askAlways = createAskAlways({ client, t, notices: notices.global })
  const task = createFollowedTask({
    client,
    followed: deps.followed,
    screenshots,
    download: deps.files.download,
    wake: deps.wake,
    changed: deps.changed,
    t,
    notices,
    allowedChanged: allowedWrites.load,
  })
  const saveSkill = createSaveSkill({ client, task, t, lang: deps.lang, notices })
  const planReview = createPlanReview({ client, task, t, notices, wake: deps.wake })
  const recording = createRecording({
    client,
    currentTab: deps.tabs.current,
    inject: deps.recorder?.inject ?? (async () => false),
    stopIn: deps.recorder?.stopIn ?? (async () => undefined),
    t,
    lang: deps.lang,
    notices: notices.global,
  })
  const newTask = newTaskIn(deps, client, task, t, notices)


  /**
   * How the panel is connected: the newest news speaks. The panel's own newest call, unless the worker has said
   * something new since (after a server restart the panel's next answered poll, or the worker's next answered call,
   * says so at once), then the person's last test, then what the worker last found.
   */
  const link = computed(() => {
    const live = reach.value
    if (live && panelSpokeLast.value) return live === 'answering' ? 'ok' : live
    const tested = connection.check.value
    if (tested === 'ok' || tested === 'down' || tested === 'not_answering' || tested === 'unauthorized' || tested === 'not_configured') return tested
    if (tested === 'no_permission') return 'down'
    return activity.value.connection
  })
  const needsSite = computed(() => {
    const site = activity.value.needsSite
    // Only while the task's question is about that very site: a later question (ask_user) is not a site card.
    const asked = task.view.value?.task.askedSite
    return site && site.taskId === task.taskId.value && task.status.value === 'WAITING_USER' && asked === site.origin ? site.origin : null
  })
  /** The site the page was on when the refused step would have taken it to `needsSite`, if it was another. */
  const siteLeavingFrom = computed(() => (needsSite.value ? (activity.value.needsSite?.from ?? null) : null))
  /** The person's own input in the page paused the followed task: what they did, until it resumes or ends. */
  const takeover = computed(() => {
    const note = activity.value.takeover
    return note && note.taskId === task.taskId.value && task.status.value === 'PAUSED' ? t('takeover.notice', { how: tookOverBy(t, note.input) }) : null
  })
  const waiting = createWaiting({
    attention: deps.attention,
    followed: computed(() => {
      const v = task.view.value
      return v ? { taskId: v.task.id, status: v.task.status, goal: v.task.goal } : null
    }),
    needsSite: computed(() => activity.value.needsSite),
  })
  /** The link in words. */
  const statusLine = computed(() => linkWords(link.value, savedUrl(), t))
  /** The poll in flight: a server that does not answer gets one at a time, not one a second until the deadline. */
  let polling: Promise<void> | null = null

  function setActivity(value: unknown) {
    const parsed = Activity.safeParse(value)
    const before = activity.value.connection
    activity.value = parsed.success ? parsed.data : fallbackActivity()
    // The worker found something new about the link: newer than the panel's last call and the last test.
    if (activity.value.connection !== before) {
      panelSpokeLast.value = false
      if (activity.value.connection !== 'unknown') connection.check.value = null
    }
    if (loaded) followPicked()
  }

  /** Set once the task the panel followed is known: until then, whether to follow the worker's is not known. */
  let loaded = false

  /**
   * The worker picked up a task the panel did not start (console, API): follow it once the current one is over.
   * A task the worker last saw end (canceled here, say) is not news: the person may have moved on to another.
   */
  function followPicked() {
    const picked = activity.value.task && !isTerminal(activity.value.task.status) ? activity.value.task.taskId : null
    const current = task.taskId.value
    const idle = !current || (!!task.status.value && isTerminal(task.status.value))
    if (picked && picked !== current && idle) void task.follow(picked).then(task.loadRecent)
  }

  return {
    t,
    lang: deps.lang,
    activity,
    link,
    needsSite,
    siteLeavingFrom,
    takeover,
    statusLine,
    notice: notices.notice,
    busy: notices.busy,
    connection,
    newTask,
    task,
    saveSkill,
    planReview,
    recording,
    allowedWrites,
    askAlways,
    waiting: waiting.tasks,
    /** The person picked a waiting task in the banner: the panel shows it (and its card). */
    async openWaiting(taskId: string) {
      if (taskId === task.taskId.value) return
      await task.follow(taskId)
      await task.loadRecent()
    },

    async load() {
      await connection.load()
      setActivity(await deps.activity.get())
      deps.activity.watch(setActivity)
      await Promise.all([task.load(), newTask.load(), allowedWrites.load(), askAlways.load(), waiting.load()])
      loaded = true
      followPicked()
    },
    /** What the panel polls while it is open; a poll still waiting for its answer is not doubled. */
    refresh: () => (polling ??= task.refresh().finally(() => (polling = null))),

    /** Called after the browser's permission prompt (which must be the first thing the click does). */
    siteDecided(origin: string, granted: boolean) {
      if (!granted) {
        notices.fail(t('site.still', { origin }))
        return Promise.resolve()
      }
      // The answer goes to the task (and its audit), so it stays in one language the planner reads.
      return task.siteAnswer(`The site ${origin} is authorised; continue.`, 'allowed', () => t('site.granted', { origin }))
    },
    /**
     * The person said no, and the browser is never asked: the server keeps the task away from that site for good,
     * and ends it when it was where the task starts (or a script needs it).
     */
    siteRefused(origin: string) {
      return task.siteAnswer(`The person did not authorise ${origin}. Do not go there; go on without it, or finish.`, 'refused', (status) =>
        t(status === 'CANCELED' ? 'site.refusedEnded' : 'site.refused', { origin }),
      )
    },
  }
}
export type PanelStore = ReturnType<typeof createPanelStore>
