import { computed, signal, type ReadonlySignal } from '@preact/signals'
import type { SaveSkillBody, StatusView } from '#protocol'
import { hasStepToReplay, SkillSlug } from '#protocol'
import type { ServerClient } from '../server/client'
import { isServerError } from '../server/errors'
import type { PanelT } from './i18n'
import type { Notices } from './notices'

export interface SaveSkillDeps {
  client: Pick<ServerClient, 'saveSkill'>
  /** The followed task: the form and its outcome belong to one task and vanish when the panel shows another. */
  task: { taskId: ReadonlySignal<string | null>; view: ReadonlySignal<StatusView | null>; finished: ReadonlySignal<boolean> }
  t: PanelT
  notices: Notices
}

export interface SaveSkillForm {
  taskId: string
  name: string
  slug: string
  /** The slug the server refused because a skill has it already: the person may overwrite it. */
  conflict: string | null
  /** The slug taken is a skill that comes with Tandem: it is never overwritten, only another slug will do. */
  shipped?: boolean
}

export interface SavedSkill {
  taskId: string
  slug: string
  name: string
  scripted: boolean
}

const NAME_MAX = 200
const slugOf = (details: unknown): string | undefined => {
  const slug = (details as { slug?: unknown } | undefined)?.slug
  return typeof slug === 'string' ? slug : undefined
}

/** "Save as skill" on a finished task: a name taken from the goal, an optional slug, and overwrite on conflict. */
export function createSaveSkill(deps: SaveSkillDeps) {
  const { client, task, t, notices } = deps
  const draft = signal<SaveSkillForm | null>(null)
  const done = signal<SavedSkill | null>(null)

  const form = computed(() => (draft.value && draft.value.taskId === task.taskId.value ? draft.value : null))
  const saved = computed(() => (done.value && done.value.taskId === task.taskId.value ? done.value : null))
  /** Only a finished task with a step to replay can be saved, and only once from here. */
  const offered = computed(() => task.finished.value && hasStepToReplay(task.view.value?.steps ?? []) && !saved.value)

  const edit = (change: Partial<SaveSkillForm>) => {
    if (form.value) draft.value = { ...form.value, ...change }
  }

  return {
    form,
    saved,
    offered,

    open() {
      const view = task.view.value
      if (!view || !offered.value) return
      draft.value = { taskId: view.task.id, name: view.task.goal.replace(/\s+/g, ' ').trim().slice(0, NAME_MAX), slug: '', conflict: null }
    },
    close: () => void (draft.value = null),
    // A changed slug is a new request: the refusal of the old one no longer applies.
    setName: (name: string) => edit({ name }),
    setSlug: (slug: string) => edit({ slug, conflict: null, shipped: false }),

    /** Saves; `overwrite` only after the person saw the conflict and chose to replace that skill. */
    save: (overwrite = false) =>
      notices.run(async () => {
        const current = form.value
        if (!current) return
        const name = current.name.trim()
        const slug = current.slug.trim().toLowerCase()
        if (slug && !SkillSlug.safeParse(slug).success) return notices.fail(t('save.badSlug'))
        const body: SaveSkillBody = {
          taskId: current.taskId,
          ...(name ? { name: name.slice(0, NAME_MAX) } : {}),
          ...(slug ? { slug } : {}),
          ...(overwrite ? { overwrite: true } : {}),
        }
        try {
          const { skill } = await client.saveSkill(body)
          done.value = { taskId: current.taskId, slug: skill.slug, name: skill.name, scripted: skill.scripted }
          draft.value = null
          notices.say(t('save.saved', { slug: skill.slug }))
        } catch (error) {
          if (!isServerError(error, 'CONFLICT') || !slugOf(error.details)) throw error
          const taken = slugOf(error.details)!
          // Keep what the person typed; the slug that clashed is shown so overwriting is a knowing choice.
          const shipped = (error.details as { shipped?: unknown } | undefined)?.shipped === true
          draft.value = { ...current, slug: current.slug || taken, conflict: taken, shipped }
        }
      }),
  }
}
export type SaveSkill = ReturnType<typeof createSaveSkill>
