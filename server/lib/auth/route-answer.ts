import type { z } from 'zod'

/**
 * What a route answers when it succeeds, as the API reference (lib/api-reference) describes it: most answer
 * `{ok:true,data}`; a few answer a whole body of their own, nothing, a file, or speak MCP.
 */
export type RouteAnswer =
  | { kind: 'data'; data: z.ZodType; status: 200 | 201 }
  | { kind: 'body'; body: z.ZodType }
  | { kind: 'none' }
  | { kind: 'file'; mediaType: string; what: string }
  | { kind: 'mcp' }

/** `{ok:true,data}` with `data` of this shape. */
export const answersData = (data: z.ZodType): RouteAnswer => ({ kind: 'data', data, status: 200 })
/** `{ok:true,data}` with status 201: something was made. */
export const answersCreated = (data: z.ZodType): RouteAnswer => ({ kind: 'data', data, status: 201 })
/** A whole JSON body of this shape, not in the envelope. */
export const answersBody = (body: z.ZodType): RouteAnswer => ({ kind: 'body', body })
/** 204 and no body. */
export const answersNothing: RouteAnswer = { kind: 'none' }
/** A file streamed as it is read or built. */
export const answersFile = (mediaType: string, what: string): RouteAnswer => ({ kind: 'file', mediaType, what })
/** MCP's Streamable HTTP: JSON-RPC in, JSON or an event stream out. */
export const answersMcp: RouteAnswer = { kind: 'mcp' }
