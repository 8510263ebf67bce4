import type { SaveRecordingBody, ScriptStep } from '#protocol'
import { cutText, SitePattern } from '#protocol'
import { renderSkill, type SkillDraft } from './skill-file'
import type { RecordedStep } from './recorded-steps'

const hostOf = (url: string) => {
  try {
    const host = new URL(url).hostname.toLowerCase()
    return SitePattern.safeParse(host).success ? host : undefined
  } catch {
    return undefined
  }
}

/** The sites a demonstration visited, in first-visit order: where it began and every page it opened. */
function sitesOf(body: SaveRecordingBody): string[] {
  const urls = [body.startUrl, ...body.steps.map((s) => (s.type === 'navigate' ? s.url : undefined))]
  return [...new Set(urls.flatMap((u) => (u ? (hostOf(u) ?? []) : [])))]
}

const wordsOf = (step: ScriptStep) => ('reason' in step && step.reason ? step.reason : step.type)

/**
 * SKILL.md for a recorded demonstration: the same frontmatter a saved task gets (script, parameters, start page),
 * and the SOP as the person wrote it at Stop.
 */
export function renderRecording(body: SaveRecordingBody): string {
  const steps: RecordedStep[] = body.steps.map((step) => ({ step, risk: step.type === 'navigate' ? 'low' : (('risk' in step && step.risk) || 'medium'), words: wordsOf(step) }))
  const labels = new Map((body.parameters ?? []).map((p) => [p.name, p.label]))
  for (const s of steps) {
    const name = s.step.type === 'type' ? /^\{\{([a-z][a-z0-9_]*)\}\}$/.exec(s.step.text)?.[1] : undefined
    if (name) s.parameter = { name, label: labels.get(name) ?? name, value: '' }
  }
  const draft: SkillDraft = {
    name: body.name,
    description: body.description ?? cutText(body.sop.replace(/\s+/g, ' '), 300),
    goal: body.name,
    sites: sitesOf(body),
    tags: ['recorded', 'demonstrated'],
    steps,
    ...(body.startUrl ? { startUrl: body.startUrl } : {}),
    source: { taskId: 'demonstration', status: 'recorded', at: new Date().toISOString() },
  }
  // The frontmatter is the saved-task one; the body is the person's own SOP.
  const header = renderSkill(draft).split('\n---\n')[0]
  return `${header}\n---\n# ${body.name}\n\n${body.sop.trim()}\n`
}
