import { loadOrCreateAuditKey, type AuditKey } from '../audit/signing-key'
import { useConfig } from './use-config'

let key: AuditKey | undefined
/** The key this server signs its audits with, made in the data dir on first start. */
export const useAuditKey = (): AuditKey => (key ??= loadOrCreateAuditKey(useConfig().dataDir))
