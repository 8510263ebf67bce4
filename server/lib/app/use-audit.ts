import type { Readable } from 'node:stream'
import type { AuditView } from '#protocol'
import { ArtifactError, createArtifactStore, type ArtifactStore, type OpenedArtifact } from '../audit/artifacts'
import { exportAuditZip } from '../audit/export'
import { EXPORT_EXTRAS } from '../audit/export-extras'
import { signingFinishedTasks } from '../audit/head-signature'
import { createAuditLog, type AuditLog } from '../audit/log'
import { readAuditView } from '../audit/view'
import { apiError } from '../http/errors'
import { useAuditKey } from './use-audit-key'
import { useConfig } from './use-config'

let log: AuditLog | undefined
let store: ArtifactStore | undefined

/** The server's one audit log: one writer per task file keeps every chain linear; a finished task's head is signed. */
export const useAuditLog = (): AuditLog => (log ??= signingFinishedTasks(createAuditLog({ dir: useConfig().auditDir }), { signer: useAuditKey }))

export const useArtifactStore = (): ArtifactStore => (store ??= createArtifactStore({ dir: useConfig().auditDir }))

/** The export zip of one task, with the extras every export carries, signed with the server's key. */
export const exportTaskZip = (taskId: string): Promise<Readable> =>
  exportAuditZip({ log: useAuditLog(), artifacts: useArtifactStore() }, taskId, { extras: EXPORT_EXTRAS, signer: useAuditKey() })

/** A task's events and the verdict on their chain, or null when it has no audit log. */
export const auditViewOf = (taskId: string): Promise<AuditView | null> => readAuditView(useAuditLog(), taskId)

/** An upload or artifact name the audit refuses, as the API error it names; any other error goes on as it is. */
export function refuseArtifactError(error: unknown): never {
  throw error instanceof ArtifactError ? apiError(error.code, error.message) : error
}

/** One artifact of a task, or null when it has none of that name; a name that cannot be one is BAD_REQUEST. */
export async function openArtifact(taskId: string, name: string): Promise<OpenedArtifact | null> {
  try {
    return await useArtifactStore().open(taskId, name)
  } catch (error) {
    return refuseArtifactError(error)
  }
}
