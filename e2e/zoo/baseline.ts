import type { BaselineResult, PlainBaseline } from '../support/plain-baseline'
import { judge, type ZooSite } from './site'
import type { Task } from './types'

export type { BaselineResult } from '../support/plain-baseline'

/** Requests sent a little after the last step (an upload, a beacon) still count. */
const TAIL_MS = 400

/** The plain-Playwright baseline on the zoo: the task's own locators, then the same request-log verdict as Tandem's. */
export function zooBaseline(plain: PlainBaseline, site: ZooSite, files: string): { run(task: Task): Promise<BaselineResult> } {
  return {
    run(task) {
      const from = site.log.length
      const act = async (page: Parameters<Task['baseline']>[0]) => (await task.baseline(page, files), await page.waitForTimeout(TAIL_MS))
      return plain.run(task.id, site.startUrl(task), act, async () => undefined, () => judge(task.expect, site.log.slice(from).filter((a) => a.taskId === task.id)))
    },
  }
}
