import { defineNitroPlugin } from 'nitropack/runtime'
import { useAuditKey } from '../lib/app/use-audit-key'

// The fingerprint people compare a signed export against (npm run audit:verify -- <zip> --key <fingerprint>).
export default defineNitroPlugin(() => {
  const { key, created, publicFile } = useAuditKey()
  console.log(`[tandem] audit signing key: ${key}${created ? ` (made now; its public key is ${publicFile})` : ''}`)
})
