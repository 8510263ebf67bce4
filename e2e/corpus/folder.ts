/**
 * The folder a case's page is served from: a neutral name, since a real site's paths do not carry what a test calls
 * its page, and the barrier reads words in paths (a case named "…-delete" would make its own reads look like writes).
 */
export function folderOf(caseId: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < caseId.length; i++) hash = Math.imul(hash ^ caseId.charCodeAt(i), 0x01000193)
  return `p${(hash >>> 0).toString(36)}`
}
