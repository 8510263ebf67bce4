import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { nanoid } from 'nanoid'
import type { AuditEvent, SaveRecordingBody, SaveSkillBody, SaveSkillData, Skill, StatusView } from '#protocol'
import { cutText, hasStepToReplay, isTerminal, oneLineOf, shortenText, SitePattern, toWellFormedText } from '#protocol'
import { badRequest, conflict } from '../http/errors'
import { createKeyedMutex } from '../state/keyed-mutex'
import { parseSkill, SkillFormatError } from './parse-skill'
import { proposedActions, recordSteps, UnreplayableStep, type RecordedStep } from './recorded-steps'
import { renderRecording } from './recording-file'
import { renderSkill, type SkillDraft } from './skill-file'
import { slugFrom, taskSlug } from './slug'
import { toSummary } from './summary'

export interface SkillSaverDeps {
  status(taskId: string): Promise<StatusView>
  events(taskId: string): Promise<AuditEvent[]>
  skillsDir: string
  /** The index the saved skill joins, so search finds it at once. */
  index(): Promise<{ get(slug: string): Skill | undefined; add(skill: Skill): void }>
  /** Replaces any configured secret value left in the text by its {{secret:NAME}} placeholder. */
  redact?: (text: string) => string
}

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

  /** Writes SKILL.md (never over a shipped skill, nor over the person's own unless asked) and indexes it. */
  async function write(slug: string, text: string, skill: Skill, overwrite: boolean | undefined): Promise<SaveSkillData> {
    return withLock(slug, async () => {
      const index = await deps.index()
      const dir = join(deps.skillsDir, slug)
      const file = join(dir, 'SKILL.md')
      const taken = index.get(slug)
      // A shipped skill is never replaced: its folder is only read.
      if (taken && !taken.own) {
        throw conflict(`${slug} is a skill that comes with Tandem: choose another slug for yours.`, { slug, shipped: true })
      }
      if (!overwrite && (taken || (await exists(file)))) {
        throw conflict(`A skill named ${slug} exists already: choose another slug, or set overwrite.`, { slug })
      }
      await mkdir(dir, { recursive: true })
      const temp = join(dir, `.SKILL.md.${nanoid(8)}.tmp`)
      try {
        await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' })
        await rename(temp, file)
      } catch (error) {
        await rm(temp, { force: true })
        throw error
      }
      const own = { ...skill, own: true }
      index.add(own)
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
      const { text, skill } = finalText(slug, renderSkill(draft))
      return write(slug, text, skill, body.overwrite)
    },

    /** A demonstration recorded in the side panel, reviewed by the person: written and indexed like a saved task. */
    async saveRecording(body: SaveRecordingBody): Promise<SaveSkillData> {
      const slug = body.slug ?? slugFrom(body.name) ?? taskSlug(nanoid(8))
      const { text, skill } = finalText(slug, renderRecording(body))
      return write(slug, text, skill, body.overwrite)
    },
  }
}
export type SkillSaver = ReturnType<typeof createSkillSaver>
