/**
 * The person answered "Don't allow" for a site during this task (code SITE_REFUSED, with the site's `origin`):
 * Tandem does not go there again in that task, and says so to the planner and the person.
 */
export function describeSiteRefused(origin: string, lang: string): string {
  return lang.toLowerCase().startsWith('zh')
    ? `你在这个任务里没有允许 ${origin}，Tandem 不会去那里。`
    : `You did not allow ${origin} in this task, so Tandem does not go there.`
}
