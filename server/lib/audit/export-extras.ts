import type { ExportExtra } from './export'

/**
 * Extra files every audit export carries, after the artifacts and before manifest.json.
 * The offline replay page (replay.html) belongs here: export an ExportExtra from its own file and list it.
 */
export const EXPORT_EXTRAS: readonly ExportExtra[] = []
