import type { Readable } from 'node:stream'
import { createArtifactStore, type ArtifactStore } from '../audit/artifacts'
import { exportAuditZip } from '../audit/export'
import { EXPORT_EXTRAS } from '../audit/export-extras'
import { createAuditLog, type AuditLog } from '../audit/log'
import { useConfig } from './use-config'

let log: AuditLog | undefined
let store: ArtifactStore | undefined

/** The server's one audit log: one writer per task file keeps every chain linear. */
export const useAuditLog = (): AuditLog => (log ??= createAuditLog({ dir: useConfig().auditDir }))

export const useArtifactStore = (): ArtifactStore => (store ??= createArtifactStore({ dir: useConfig().auditDir }))

/** The export zip of one task, with the extras every export carries. */
export const exportTaskZip = (taskId: string): Promise<Readable> =>
  exportAuditZip({ log: useAuditLog(), artifacts: useArtifactStore() }, taskId, { extras: EXPORT_EXTRAS })
