import type { HeldRequest, WriteAllowRule } from '#protocol'

const hostOf = (request: HeldRequest) => {
  try {
    return new URL(request.origin || request.url).host
  } catch {
    return request.origin
  }
}

/**
 * A held request as a person reads it: `POST shop.example/api/orders (items, address)`. What it carries is named
 * by its GraphQL operation or its field names, never by values: those are for the card, not the record's summary.
 */
export function describeRequest(request: HeldRequest): string {
  const op = request.operation
  const carries = op ? [op.type, op.name].filter(Boolean).join(' ') : request.fields.map((f) => f.name).join(', ')
  return `${request.method.toUpperCase()} ${hostOf(request)}${request.path}${carries ? ` (${carries})` : ''}`
}

/** Where a request went, as the step's report says it: `shop.example /cart/change.js`. */
export const describeWhere = (request: HeldRequest) => `${hostOf(request)} ${request.path}`

/** A rule as method, site and path pattern: `POST shop.example /api/cart/* /items` (without the space). */
export function describeRule(rule: WriteAllowRule): string {
  const host = URL.canParse(rule.site) ? new URL(rule.site).host : rule.site
  return `${rule.method} ${host} ${rule.path}${rule.operation ? ` (${rule.operation})` : ''}`
}
