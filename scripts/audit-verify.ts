/**
 * Verifies a Tandem audit without the server: a task folder, an events.jsonl, or an exported zip.
 *   npm run audit:verify -- audit/<taskId>
 * Prints one line; exits 0 when everything checks out, 1 when something does not, 2 when it cannot start.
 */
import { verifyAuditPath } from '../server/lib/audit/verify-export'

const path = process.argv[2]
if (!path || process.argv.length > 3) {
  console.error('usage: npm run audit:verify -- <task folder | events.jsonl | export.zip>')
  process.exit(2)
}

try {
  const check = await verifyAuditPath(path)
  console.log(check.verdict)
  process.exit(check.ok ? 0 : 1)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  console.error(code === 'ENOENT' ? `FAIL ${path}: no such file or folder` : `FAIL ${path}: ${(error as Error).message}`)
  process.exit(2)
}
