import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { nanoid } from 'nanoid'
import type { AuditEvent, SaveRecordingBody, SaveSkillBody, SaveSkillData, Skill, SkillSummary, StatusView } from '#protocol'
import { cutText, hasStepToReplay, isTerminal, oneLineOf, shortenText, SitePattern, toWellFormedText } from '#protocol'
import { badRequest, conflict } from '../http/errors'
import { createKeyedMutex } from '../state/keyed-mutex'
import { parseSkill, SkillFormatError } from './parse-skill'
import { proposedActions, recordSteps, UnreplayableStep, type RecordedStep } from './recorded-steps'
import { renderRecording } from './recording-file'
import { renderSkill, type SkillDraft } from './skill-file'
import { freeSlug, nameKey, slugFrom, taskSlug } from './slug'
import { toSummary } from './summary'

export interface SkillSaverDeps {
  status(taskId: string): Promise<StatusView>
  events(taskId: string): Promise<AuditEvent[]>
  skillsDir: string
  /** The index the saved skill joins, so search finds it at once. */
  index(): Promise<{ get(slug: string): Skill | undefined; add(skill: Skill): void; list(): SkillSummary[] }>
  /** Replaces any configured secret value left in the text by its {{secret:NAME}} placeholder. */
  redact?: (text: string) => string
}

/** What the person said to do when the skill's slug is taken. */
type SaveChoice = { overwrite?: boolean; keepBoth?: boolean }

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

/** The hostnames the task's steps visited, in first-visit order, as skill site patterns. */
function sitesOf(view: StatusView): string[] {
  const hosts = new Set<string>()
  for (const step of view.steps) {
    try {
      const url = step.url ? new URL(step.url) : undefined
      if (url && /^https?:$/.test(url.protocol) && SitePattern.safeParse(url.hostname).success) hosts.add(url.hostname.toLowerCase())
    } catch {}
  }
  return [...hosts]
}

/** The first web page the task acted on: where a skill recorded in the person's own tab starts. */
function firstPage(view: StatusView): string | undefined {
  for (const step of view.steps) if (step.url && /^https?:\/\//.test(step.url)) return step.url
  return undefined
}

/** Replaces each typed value by its {{name}} in free text; values shorter than 3 characters are left (too common). */
function scrubberOf(steps: RecordedStep[]): (text: string) => string {
  const values = steps.flatMap((s) => (s.parameter && s.parameter.value.trim().length >= 3 ? [s.parameter] : [])).sort((a, b) => b.value.length - a.value.length)
  return (text) => values.reduce((out, p) => out.split(p.value.trim()).join(`{{${p.name}}}`), text)
}

/** "Save as skill": a finished task written as <data dir>/skills/<slug>/SKILL.md, indexed at once, replayable with no LLM. */
export function createSkillSaver(deps: SkillSaverDeps) {
  const withLock = createKeyedMutex()

  /**
   * The text SKILL.md will hold, and the skill it loads as. A lone surrogate (from a page or the model) is made
   * U+FFFD first, as UTF-8 on disk would make it, so the skill indexed now is the one read after a restart.
   */
  function finalText(slug: string, rendered: string): { text: string; skill: Skill } {
    const text = toWellFormedText(deps.redact ? deps.redact(rendered) : rendered)
    try {
      return { text, skill: parseSkill(slug, text) }
    } catch (error) {
      // What is written must load back: a file the library would skip is never saved.
      if (error instanceof SkillFormatError) throw badRequest(`This skill would not load once saved (${error.message}): shorten or change what that field holds.`)
      throw error
    }
  }

  /**
   * The slug a new skill is written under. One the person chose is theirs to overwrite (never a shipped one). Without
   * one, a skill of theirs with the same name is a CONFLICT naming it, so a second "Send feedback" never replaces the
   * first unless the person says to (`overwrite`) or keeps both (`keepBoth`); the slug made from the name moves aside
   * (`-2`, `-3`…) for any other skill that holds it, shipped or of another name.
   */
  async function slugToWrite(wanted: { slug: string; chosen: boolean; name: string }, choice: SaveChoice): Promise<string> {
    const index = await deps.index()
    const takenBy = async (slug: string) => index.get(slug) ?? ((await exists(join(deps.skillsDir, slug, 'SKILL.md'))) ? null : undefined)
    const moveAside = () => freeSlug(wanted.slug, async (slug) => (await takenBy(slug)) !== undefined)
    if (!wanted.chosen) {
      const same = choice.keepBoth ? undefined : index.list().find((s) => s.own && nameKey(s.name) === nameKey(wanted.name))
      if (!same) return moveAside()
      if (!choice.overwrite) throw conflict('A skill of yours has this name already: set overwrite to replace it, or keepBoth to save this one beside it.', { slug: same.slug, name: same.name })
      return same.slug
    }
    const taken = await takenBy(wanted.slug)
    if (taken === undefined) return wanted.slug
    if (choice.keepBoth) return moveAside()
    // A shipped skill is never replaced: its folder is only read.
    if (taken && !taken.own) throw conflict(`${wanted.slug} is a skill that comes with Tandem: choose another slug for yours.`, { slug: wanted.slug, name: taken.name, shipped: true })
    if (!choice.overwrite) throw conflict(`A skill with the slug ${wanted.slug} exists already: choose another slug, set overwrite, or set keepBoth.`, { slug: wanted.slug, ...(taken ? { name: taken.name } : {}) })
    return wanted.slug
  }

  /** Writes SKILL.md under the slug slugToWrite gives and indexes it; one save at a time, so two never pick one slug. */
  async function write(wanted: { slug: string; chosen: boolean }, rendered: string, choice: SaveChoice): Promise<SaveSkillData> {
    const { text, skill } = finalText(wanted.slug, rendered)
    return withLock('skills', async () => {
      const slug = await slugToWrite({ ...wanted, name: skill.name }, choice)
      const dir = join(deps.skillsDir, slug)
      const file = join(dir, 'SKILL.md')
      await mkdir(dir, { recursive: true })
      const temp = join(dir, `.SKILL.md.${nanoid(8)}.tmp`)
      try {
        await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' })
        await rename(temp, file)
      } catch (error) {
        await rm(temp, { force: true })
        throw error
      }
      const own = { ...skill, slug, own: true }
      ;(await deps.index()).add(own)
      return { skill: toSummary(own), file }
    })
  }

  return {
    async save(body: SaveSkillBody): Promise<SaveSkillData> {
      const view = await deps.status(body.taskId)
      if (!isTerminal(view.task.status)) {
        throw conflict(`Only a finished task can be saved as a skill (this one is ${view.task.status}).`, { status: view.task.status })
      }
      if (!hasStepToReplay(view.steps)) {
        throw badRequest('This task has no step to replay: none of its actions worked, so a skill saved from it would do nothing. Save a task once at least one of its steps has worked.', { reason: 'NOTHING_TO_REPLAY' })
      }
      let steps
      try {
        steps = recordSteps(view.steps, proposedActions(await deps.events(body.taskId)))
      } catch (error) {
        if (error instanceof UnreplayableStep) throw badRequest(`This task cannot be replayed: ${error.message}.`)
        throw error
      }
      if (!steps.length) throw badRequest('This task has no successful steps to replay.')

      // The values typed become {{name}} wherever they were written, the goal and the model's reasons included.
      const scrub = scrubberOf(steps)
      const goal = scrub(view.task.goal)
      // A name is one line; a goal of nothing but controls leaves none, and the task's id names it instead.
      const name = shortenText(scrub(body.name ?? (oneLineOf(view.task.goal) || `Recorded task ${view.task.id}`)), 200)
      const slug = body.slug ?? slugFrom(name) ?? taskSlug(view.task.id)
      const startUrl = view.task.startUrl ?? firstPage(view)
      const draft: SkillDraft = {
        name,
        description: shortenText(scrub(body.description ?? `Replays a recorded task: ${oneLineOf(view.task.goal)}`), 2000),
        goal,
        sites: sitesOf(view),
        tags: ['recorded'],
        // A {{name}} can be longer than the value it stands for: the reason is cut to its limit again.
        steps: steps.map((s) => ('reason' in s.step && s.step.reason ? { ...s, step: { ...s.step, reason: cutText(scrub(s.step.reason), 2000) } } : s)),
        ...(startUrl ? { startUrl } : {}),
        source: { taskId: view.task.id, status: view.task.status, at: view.task.updatedAt },
      }
      return write({ slug, chosen: !!body.slug }, renderSkill(draft), body)
    },

    /** A demonstration recorded in the side panel, reviewed by the person: written and indexed like a saved task. */
    async saveRecording(body: SaveRecordingBody): Promise<SaveSkillData> {
      const slug = body.slug ?? slugFrom(body.name) ?? taskSlug(nanoid(8))
      return write({ slug, chosen: !!body.slug }, renderRecording(body), body)
    },
  }
}
export type SkillSaver = ReturnType<typeof createSkillSaver>
