import { z } from 'zod'

/** `GET /api/openapi.json`: the API reference as an OpenAPI 3.1 document, generated from these schemas. */
export const OpenApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()) }),
})
export type OpenApiDocument = z.infer<typeof OpenApiDocument>
