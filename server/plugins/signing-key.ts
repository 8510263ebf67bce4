import { defineNitroPlugin } from 'nitropack/runtime'
import { useAuditKey } from '../lib/app/use-audit-key'
import { say } from '../lib/terminal/words'

// The fingerprint people compare a signed export against (npm run audit:verify -- <zip> --key <fingerprint>).
export default defineNitroPlugin(() => {
  const { key, created, publicFile } = useAuditKey()
  console.log(created ? say('signingKeyMade', { key, file: publicFile }) : say('signingKey', { key }))
})
