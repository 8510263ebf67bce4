import type { ExportExtra } from './export'
import { createReplayExtra } from './replay-html'

/**
 * Extra files every audit export carries, after the artifacts and before manifest.json: the offline replay
 * page. Its renderer is imported on the first export, so code that never exports never loads it.
 */
export const EXPORT_EXTRAS: readonly ExportExtra[] = [
  createReplayExtra(() => import('./replay-assets').then((m) => m.REPLAY_ASSETS)),
]
