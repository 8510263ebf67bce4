import { ApiErrorCode, HTTP_STATUS } from '#protocol'
import type { RouteAccess } from '../auth/route-access'
import type { JsonSchema } from './json-schema'

const ERROR_ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' }

/** What each code means to a caller, in a few words. */
const MEANS: Record<ApiErrorCode, string> = {
  BAD_REQUEST: 'the body, query or path does not fit its schema (`details` lists each problem by path), or asks for what cannot be',
  UNAUTHORIZED: 'no token, or a token that is not one',
  FORBIDDEN: 'the token may not call this route, or the Host (or Origin) is not one the server answers',
  NOT_FOUND: 'what it names does not exist',
  METHOD_NOT_ALLOWED: 'the route does not take this method',
  CONFLICT: 'not now: the task is not in a state for this, or the name is taken',
  PAYLOAD_TOO_LARGE: 'the body is larger than the server takes',
  LLM_NOT_CONFIGURED: 'the task needs a model and none is configured',
  LLM_ERROR: 'the model’s provider failed',
  INTERNAL: 'the server failed; its log has the details',
  UNAVAILABLE: 'retry soon: the task is busy on another instance, or the shared store does not answer',
}

/** Every code a route can fail with: its own, and what the guard, the body limit and validation add. */
export function errorCodesOf(route: RouteAccess): ApiErrorCode[] {
  const codes = new Set<ApiErrorCode>(route.errors ?? [])
  if (route.body || route.query || route.params) codes.add('BAD_REQUEST')
  if (!route.accepts.includes('anyone')) codes.add('UNAUTHORIZED')
  codes.add('FORBIDDEN')
  if (route.method !== 'GET') codes.add('PAYLOAD_TOO_LARGE')
  codes.add('INTERNAL')
  return ApiErrorCode.options.filter((code) => codes.has(code))
}

/** The error envelope under each status the route can fail with, its codes narrowed to the ones it can send. */
export function errorResponsesOf(route: RouteAccess): Record<string, JsonSchema> {
  const byStatus = new Map<number, ApiErrorCode[]>()
  for (const code of errorCodesOf(route)) byStatus.set(HTTP_STATUS[code], [...(byStatus.get(HTTP_STATUS[code]) ?? []), code])
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [
      String(status),
      {
        description: codes.map((code) => `${code}: ${MEANS[code]}`).join('; '),
        content: {
          'application/json': {
            schema: { allOf: [ERROR_ENVELOPE, { properties: { error: { properties: { code: { enum: codes } } } } }] },
          },
        },
      },
    ]),
  )
}

export const errorMeaning = (code: ApiErrorCode) => MEANS[code]
