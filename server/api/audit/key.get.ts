import { defineEventHandler } from 'h3'
import type { AuditKeyInfo } from '#protocol'
import { useAuditKey } from '../../lib/app/use-audit-key'

/** The key this server signs audits with, for `npm run audit:verify -- <export> --server <url>`. */
export default defineEventHandler(() => {
  const { algorithm, key, publicKey } = useAuditKey()
  const data: AuditKeyInfo = { algorithm, fingerprint: key, publicKey }
  return { ok: true, data }
})
