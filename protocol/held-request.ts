import { z } from 'zod'
import type { HarmlessKind } from './harmless-kind'

/**
 * A request the write barrier saw leave a task's tab while a step the person had not approved was running, as
 * the person and the audit see it: where it goes and what it carries by name, never the values of secrets.
 */
export const RequestKind = z.enum(['fetch', 'form', 'beacon', 'navigation', 'websocket', 'other'])
export type RequestKind = z.infer<typeof RequestKind>

export const RequestField = z.object({
  name: z.string().max(200),
  /** Cut short and redacted by the existing rules; absent for a credential or a file. */
  value: z.string().max(200).optional(),
})
export type RequestField = z.infer<typeof RequestField>

export const HeldRequest = z.object({
  method: z.string().min(1).max(16),
  /** Scheme, host and path; query values redacted. */
  url: z.string().max(2000),
  origin: z.string().max(500),
  path: z.string().max(1000),
  kind: RequestKind,
  fields: z.array(RequestField).max(50).default([]),
  /** A GraphQL operation, when the body is one. */
  operation: z.object({ type: z.enum(['query', 'mutation', 'subscription']), name: z.string().max(200).optional() }).optional(),
  /** Body size in bytes, when known. */
  bytes: z.number().int().min(0).optional(),
  /** The request goes to another site than the page's own. */
  thirdParty: z.boolean().optional(),
})
export type HeldRequest = z.infer<typeof HeldRequest>
export type HeldRequestInput = z.input<typeof HeldRequest>

/** What the barrier does with a request: let it go (a read), hold it for the person (a write), or drop it (telemetry). */
export const RequestVerdict = z.enum(['pass', 'hold', 'drop'])
export type RequestVerdict = z.infer<typeof RequestVerdict>

/** The facts the barrier has about one request (CDP Fetch.requestPaused, or webRequest in the fallback). */
export interface RequestFacts {
  method: string
  url: string
  /**
   * CDP's Network.ResourceType ('Document', 'XHR', 'Fetch', 'Ping', 'WebSocket', 'EventSource', 'Other', …); the
   * fallback may pass webRequest's names ('main_frame', 'sub_frame', 'xmlhttprequest', 'ping', …) as they are.
   */
  resourceType?: string
  headers?: Record<string, string>
  /** The body as text, when the browser gave it. */
  postData?: string
  /** The top page of the tab (the task's page). */
  pageUrl?: string
}

export interface RequestClassification {
  verdict: RequestVerdict
  /** Why, as a short stable code (e.g. 'method', 'graphql-query', 'search-endpoint', 'telemetry-host'). */
  reason: string
  request: HeldRequest
  kind?: HarmlessKind
}
