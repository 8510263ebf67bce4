import { computed, signal, type ReadonlySignal } from '@preact/signals'
import type { SaveSkillBody, StatusView } from '#protocol'
import { hasStepToReplay, skillWords } from '#protocol'
import type { Lang } from '../../../ui/i18n'
import type { ServerClient } from '../server/client'
import { isServerError } from '../server/errors'
import type { PanelT } from './i18n'
import type { Notices } from './notices'

export interface SaveSkillDeps {
  client: Pick<ServerClient, 'saveSkill'>
  /** The followed task: the form and its outcome belong to one task and vanish when the panel shows another. */
  task: { taskId: ReadonlySignal<string | null>; view: ReadonlySignal<StatusView | null>; finished: ReadonlySignal<boolean> }
  t: PanelT
  lang: Lang
  notices: Notices
}

export interface SaveSkillForm {
  taskId: string
  name: string
  /**
   * The name of the skill of theirs that has this name already (the server refused to write over it): the person
   * replaces it or keeps both.
   */
  conflict: string | null
}

export interface SavedSkill {
  taskId: string
  slug: string
  /** The skill's name as a person reads it: a `{{name}}` it asks for is said in words. */
  name: string
  scripted: boolean
}

const NAME_MAX = 200
const takenName = (details: unknown): string | undefined => {
  const { slug, name } = (details as { slug?: unknown; name?: unknown } | undefined) ?? {}
  return typeof slug !== 'string' ? undefined : typeof name === 'string' ? name : slug
}

/** "Save as skill" on a finished task: a name taken from the goal; replace or keep both when the person has it already. */
export function createSaveSkill(deps: SaveSkillDeps) {
  const { client, task, t, lang, notices } = deps
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
      draft.value = { taskId: view.task.id, name: view.task.goal.replace(/\s+/g, ' ').trim().slice(0, NAME_MAX), conflict: null }
    },
    close: () => void (draft.value = null),
    // Another name is a new request: the skill the old one met no longer matters.
    setName: (name: string) => edit({ name, conflict: null }),

    /** Saves; `replace` or `keepBoth` only after the person saw they have a skill of that name and chose. */
    save: (choice?: 'replace' | 'keepBoth') =>
      notices.run(async () => {
        const current = form.value
        if (!current) return
        const name = current.name.trim()
        const body: SaveSkillBody = {
          taskId: current.taskId,
          ...(name ? { name: name.slice(0, NAME_MAX) } : {}),
          ...(choice === 'replace' ? { overwrite: true } : choice === 'keepBoth' ? { keepBoth: true } : {}),
        }
        try {
          const { skill } = await client.saveSkill(body)
          const shown = skillWords(skill.name, skill.parameters, lang)
          done.value = { taskId: current.taskId, slug: skill.slug, name: shown, scripted: skill.scripted }
          draft.value = null
          notices.say(t('save.saved', { name: shown }))
        } catch (error) {
          const taken = isServerError(error, 'CONFLICT') ? takenName(error.details) : undefined
          if (taken === undefined) throw error
          // Keep what the person typed, and name the skill they have so replacing it is a knowing choice.
          draft.value = { ...current, conflict: skillWords(taken, undefined, lang) }
        }
      }),
  }
}
export type SaveSkill = ReturnType<typeof createSaveSkill>
