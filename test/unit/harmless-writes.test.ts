import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { classifyRequest, DEFAULT_WRITE_RULES, extendWriteRules, HarmlessKind, HeldRequest, WriteRules, type RequestFacts } from '#protocol'
import { harmless, writes } from './fixtures/harmless-requests'

const SHOP = 'https://shop.example.com/products/linen-shirt'

describe('harmless writes, as their SDKs and platforms send them', () => {
  it.each(harmless)('%s', (_name, facts, kind) => {
    const result = classifyRequest(facts)
    expect({ verdict: result.verdict, reason: result.reason, kind: result.kind }).toEqual({ verdict: 'pass', reason: `harmless-${kind}`, kind })
    expect(() => HeldRequest.parse(result.request)).not.toThrow()
  })

  it('covers every kind, with real tools of each', () => {
    const counts = Object.fromEntries(HarmlessKind.options.map((kind) => [kind, harmless.filter((row) => row[2] === kind).length]))
    expect(counts.telemetry).toBeGreaterThanOrEqual(30)
    expect(counts.cart).toBeGreaterThanOrEqual(15)
    for (const kind of HarmlessKind.options) expect(counts[kind]).toBeGreaterThanOrEqual(4)
  })
})

describe('writes that look harmless', () => {
  it.each(writes)('%s stays held', (_name, facts) => {
    const result = classifyRequest(facts)
    expect(result.verdict).toBe('hold')
    expect(result.reason).not.toMatch(/^harmless-/)
    expect(result.kind).toBeUndefined()
  })

  it('has a realistic table', () => {
    expect(writes.length).toBeGreaterThanOrEqual(40)
  })
})

describe('what stays as it was', () => {
  it("drops a vendor's telemetry host, with no kind", () => {
    const segment: RequestFacts = {
      method: 'POST', url: 'https://api.segment.io/v1/t', resourceType: 'Fetch', headers: { 'Content-Type': 'application/json' },
      postData: JSON.stringify({ type: 'track', event: 'Viewed', anonymousId: 'a1', messageId: 'm1', writeKey: 'wk' }), pageUrl: SHOP,
    }
    const result = classifyRequest(segment)
    expect(result).toMatchObject({ verdict: 'drop', reason: 'telemetry-host' })
    expect(result.kind).toBeUndefined()
  })

  it('drops a first-party beacon to a telemetry path as before', () => {
    const ga = { method: 'POST', url: 'https://www.example.com/g/collect?v=2&tid=G-ABC123XYZ', resourceType: 'Ping', postData: '', pageUrl: 'https://www.example.com/' }
    expect(classifyRequest(ga)).toMatchObject({ verdict: 'drop', reason: 'telemetry-path' })
  })

  it('never makes a websocket, a risky URL or a navigating form harmless', () => {
    expect(classifyRequest({ method: 'GET', url: 'wss://chat.example.com/typing', resourceType: 'WebSocket', pageUrl: 'https://chat.example.com/' }).reason).toBe('websocket')
    expect(classifyRequest({ method: 'GET', url: 'https://shop.example.com/cart/delete?line=1', resourceType: 'XHR', pageUrl: SHOP }).reason).toBe('risky-url')
    const add = { method: 'POST', url: 'https://shop.example.com/cart/add', resourceType: 'Document', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, postData: 'id=1&quantity=1', pageUrl: SHOP }
    expect(classifyRequest(add).reason).toBe('form-post')
  })
})

describe('rules a deployment adds', () => {
  const hit: RequestFacts = {
    method: 'POST', url: 'https://www.example.com/acme/hit', resourceType: 'Fetch', headers: { 'Content-Type': 'application/json' },
    postData: JSON.stringify({ acme_site: 'S-1', ev: 'view' }), pageUrl: 'https://www.example.com/',
  }

  it('recognises its own endpoints, keeping every default', () => {
    expect(classifyRequest(hit).verdict).toBe('hold')
    const rules = extendWriteRules({ harmless: { signatures: [{ kind: 'telemetry', name: 'Acme', path: '^/acme/hit$', fields: [['acme_site=^S-\\d+$'], ['ev']] }] } })
    expect(classifyRequest(hit, rules)).toMatchObject({ verdict: 'pass', reason: 'harmless-telemetry', kind: 'telemetry' })
    expect(rules.harmless.signatures.length).toBe(DEFAULT_WRITE_RULES.harmless.signatures.length + 1)
    expect(rules.harmless.cartPathWords).toEqual(DEFAULT_WRITE_RULES.harmless.cartPathWords)
    for (const [name, facts, kind] of harmless.slice(0, 10)) expect(classifyRequest(facts, rules).kind, name).toBe(kind)
  })

  it('adds words and GraphQL operations the same way', () => {
    const rules = extendWriteRules({ harmless: { cartPathWords: ['panier'], graphqlOperations: [{ name: 'AjouterAuPanier', kind: 'cart' }] }, telemetryHosts: ['stats.vendor.example'] })
    const panier = { method: 'POST', url: 'https://www.example.fr/api/panier/lignes', resourceType: 'Fetch', headers: { 'Content-Type': 'application/json' }, postData: '{"quantite":1,"quantity":1}', pageUrl: 'https://www.example.fr/' }
    expect(classifyRequest(panier).verdict).toBe('hold')
    expect(classifyRequest(panier, rules).kind).toBe('cart')
    expect(rules.telemetryHosts).toContain('stats.vendor.example')
    expect(rules.harmless.graphqlOperations).toContainEqual({ name: 'AjouterAuPanier', kind: 'cart' })
  })

  it('refuses a bad entry loudly', () => {
    expect(() => WriteRules.parse({ harmless: { signatures: [{ kind: 'telemetry', name: 'x', path: '(' }] } })).toThrow()
    expect(() => WriteRules.parse({ harmless: { signatures: [{ kind: 'telemetry', name: 'x', path: '^/', fields: [['a=[']] }] } })).toThrow()
    expect(() => WriteRules.parse({ harmless: { signatures: [{ kind: 'spam', name: 'x', path: '^/' }] } })).toThrow()
    expect(() => WriteRules.parse({ harmless: { nonsense: [] } })).toThrow()
  })
})

describe('the harmless rule', () => {
  const READ_REASONS = ['read-method', 'graphql-query', 'graphql-persisted-read', 'search-endpoint']
  const url = fc.constantFrom(
    'https://shop.example.com/cart/add.js', 'https://shop.example.com/cart/change.js', 'https://shop.example.com/api/settings',
    'https://shop.example.com/api/drafts/1', 'https://shop.example.com/api/typing', 'https://shop.example.com/api/event',
    'https://shop.example.com/wishlist/add', 'https://shop.example.com/graphql', 'https://other.example.org/cart/add.js',
  )
  const body = fc.oneof(
    fc.constant(undefined),
    fc.json(),
    fc.record({ quantity: fc.oneof(fc.integer({ min: -2, max: 3 }), fc.string()), theme: fc.string(), status: fc.constantFrom('draft', 'publish') }).map((v) => JSON.stringify(v)),
  )
  const type = fc.constantFrom('XHR', 'Fetch', 'Document', 'Ping')
  const page = fc.constantFrom(undefined, SHOP, 'https://other.example.org/')

  it('lets a write pass only as a read or as a first-party harmless kind, named with its kind', () => {
    fc.assert(
      fc.property(fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'), url, body, type, page, (method, u, postData, resourceType, pageUrl) => {
        const result = classifyRequest({ method, url: u, postData, resourceType, pageUrl, headers: { 'Content-Type': 'application/json' } })
        if (result.kind) {
          expect(result).toMatchObject({ verdict: 'pass', reason: `harmless-${result.kind}` })
          expect(result.request.thirdParty).toBe(false)
          expect(['DELETE'].includes(method) || resourceType === 'Document').toBe(false)
        } else if (result.verdict === 'pass') expect(READ_REASONS).toContain(result.reason)
      }),
      { numRuns: 500 },
    )
  })
})
