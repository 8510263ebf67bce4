import { ApiErrorCode, ErrorCode, ErrorEnvelope, HTTP_STATUS, type OpenApiDocument } from '#protocol'
import { ROUTE_ACCESS } from '../auth/route-access'
import { TANDEM_VERSION } from '../http/version'
import { ROUTE_GROUPS } from './groups'
import { createSchemaSet } from './json-schema'
import { openApiPath, operationOf } from './operation'
import { errorMeaning } from './responses'

const DESCRIPTION = [
  'Tandem’s HTTP API: a server on the person’s own machine plans a browser task, its extension acts one step at a time,',
  'and the person approves every risky step. Every JSON answer is an envelope: `{ok:true,data}` on success,',
  '`{ok:false,error:{code,message,details?}}` on failure, with a stable `code`. Send the token as',
  '`Authorization: Bearer <token>`; each operation says which principals it accepts (`x-tandem-principals`).',
  'Generated from the zod schemas in protocol/: this document and docs/api.md say what the server checks.',
].join(' ')

/** The whole API as an OpenAPI 3.1 document, one operation per route of ROUTE_ACCESS. */
export function buildOpenApi(): OpenApiDocument {
  const schemas = createSchemaSet()
  // The envelope and every code, named, whether or not a route refers to them by name.
  schemas.of(ErrorEnvelope, 'output')
  schemas.of(ErrorCode, 'output')
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of ROUTE_ACCESS) {
    const path = openApiPath(route.path)
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, schemas) }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Tandem API', version: TANDEM_VERSION, description: DESCRIPTION },
    'x-tandem-error-codes': ApiErrorCode.options.map((code) => ({ code, status: HTTP_STATUS[code], meaning: errorMeaning(code) })),
    tags: ROUTE_GROUPS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas: schemas.components(),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The owner’s token (TANDEM_TOKEN, or the one `npm start` printed), or an agent token made with POST /api/tokens (opens /mcp only).',
        },
      },
    },
  }
}
