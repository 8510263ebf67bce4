import type { OpenApiDocument } from '#protocol'
import { buildOpenApi } from '../api-reference/openapi'

let document: OpenApiDocument | undefined

/** The API reference, built once: it changes only with the code. */
export const useApiReference = (): OpenApiDocument => (document ??= buildOpenApi())
