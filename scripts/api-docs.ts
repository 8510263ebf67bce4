import { writeFileSync } from 'node:fs'
import { buildOpenApi } from '../server/lib/api-reference/openapi'
import { renderApiMarkdown } from '../server/lib/api-reference/markdown'

/** Writes docs/api.md from the API's own OpenAPI document; a test fails when the file is behind the code. */
writeFileSync('docs/api.md', renderApiMarkdown(buildOpenApi()))
console.log('Wrote docs/api.md')
