import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  classifyRequest, DEFAULT_WRITE_RULES, extendWriteRules, HeldRequest, isSecretName, registrableDomain, siteOf,
  WriteRules, type RequestFacts, type RequestVerdict,
} from '#protocol'

const JSON_TYPE = { 'Content-Type': 'application/json' }
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' }
const json = (method: string, url: string, body: unknown, pageUrl?: string, resourceType = 'XHR'): RequestFacts =>
  ({ method, url, resourceType, headers: JSON_TYPE, postData: JSON.stringify(body), pageUrl })
const form = (method: string, url: string, body: string, pageUrl?: string, resourceType = 'XHR'): RequestFacts =>
  ({ method, url, resourceType, headers: FORM_TYPE, postData: body, pageUrl })
const get = (url: string, resourceType = 'Document', pageUrl?: string): RequestFacts => ({ method: 'GET', url, resourceType, pageUrl })

const GITHUB = 'https://github.com/octo/hello'
const SHOP = 'https://shop.example.com/cart'
const TAOBAO = 'https://item.taobao.com/item.htm?id=1'
const CN = 'https://www.example.cn/admin/index.html'
const SENTRY_ENVELOPE = '{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sent_at":"2025-11-02T10:00:00.000Z"}\n{"type":"event"}\n{"message":"x"}'
const multipart = [
  '------WebKitFormBoundaryx7Yq', 'Content-Disposition: form-data; name="title"', '', 'Quarterly report', '------WebKitFormBoundaryx7Yq',
  'Content-Disposition: form-data; name="file"; filename="q3.pdf"', 'Content-Type: application/pdf', '', '%PDF-1.7 ...', '------WebKitFormBoundaryx7Yq--', '',
].join('\r\n')

type Row = [name: string, facts: RequestFacts, verdict: RequestVerdict, reason: string]
const rows: Row[] = [
  // Reads by method, and GET URLs that carry an action
  ['Amazon search results', get('https://www.amazon.com/s?k=headphones&ref=nb_sb_noss'), 'pass', 'read-method'],
  ['a search for "delete account" is a search', get('https://help.example.com/search?q=delete+account'), 'pass', 'read-method'],
  ['a blog post whose title says delete', get('https://blog.example.com/posts/how-to-delete-your-account-safely'), 'pass', 'read-method'],
  ['a post page is not posting', get('https://forum.example.com/post/123'), 'pass', 'read-method'],
  ['the Sent folder is not sending', get('https://mail.example.com/mail/sent?page=2'), 'pass', 'read-method'],
  ['an OAuth consent page', get('https://accounts.example.com/oauth/authorize?client_id=abc&scope=read'), 'pass', 'read-method'],
  ['admin list filtered by payType and delFlag', get('https://admin.example.cn/dev-api/order/list?payType=1&delFlag=0&pageNum=1', 'XHR', CN), 'pass', 'read-method'],
  ['Baidu suggestions', get('https://www.baidu.com/sugrec?prod=pc&wd=%E5%88%A0%E9%99%A4', 'XHR', 'https://www.baidu.com/'), 'pass', 'read-method'],
  ['Taobao suggest (JSONP)', get('https://suggest.taobao.com/sug?code=utf-8&q=%E6%89%8B%E6%9C%BA', 'Script', TAOBAO), 'pass', 'read-method'],
  ['JD search ware by functionId', get('https://api.m.jd.com/?appid=search-pc-java&functionId=pc_search_searchWare&keyword=x', 'XHR', 'https://search.jd.com/'), 'pass', 'read-method'],
  ['a parcel tracking lookup by GET', get('https://api.parcels.example/track?number=1Z999', 'XHR', SHOP), 'pass', 'read-method'],
  ['an image on a risky-looking path is not judged', get('https://cdn.example.com/icons/delete.svg', 'Image'), 'pass', 'read-method'],
  ['GET /logout', get('https://mail.example.com/logout'), 'hold', 'risky-url'],
  ['Discuz logout by action=', get('https://bbs.example.cn/member.php?mod=logging&action=logout&formhash=8a7b'), 'hold', 'risky-url'],
  ['GET /unsubscribe?token=…', get('https://news.example.com/unsubscribe?token=8f3b2c9a0d1e4f5a6b7c8d9e&list=weekly'), 'hold', 'risky-url'],
  ['email confirmation link', get('https://app.example.com/confirm-email?token=abc'), 'hold', 'risky-url'],
  ['admin delete by GET', get('https://admin.example.com/api/user/delete?id=42', 'XHR'), 'hold', 'risky-url'],
  ['ThinkPHP ?a=del', get('https://www.example.cn/index.php?m=user&a=del&id=3', 'XHR', CN), 'hold', 'risky-url'],
  ['percent-encoded 删除 in the path', get('https://www.example.cn/article/%E5%88%A0%E9%99%A4/123'), 'hold', 'risky-url'],
  ['a script named for a dialog', get('https://g.alicdn.com/cart/1.0.3/js/confirm-dialog.js?v=2', 'Script', TAOBAO), 'pass', 'read-method'],
  ['Taobao mtop deleteBag by JSONP', get('https://h5api.m.taobao.com/h5/mtop.trade.deleteBag/1.0/?jsv=2.6.1&appKey=12574478&type=jsonp&callback=mtopjsonp3', 'Script', TAOBAO), 'hold', 'risky-url'],
  ['Taobao mtop deleteBag by fetch', get('https://h5api.m.taobao.com/h5/mtop.trade.deleteBag/1.0/?jsv=2.6.1&appKey=12574478', 'Fetch', TAOBAO), 'hold', 'risky-url'],
  ['JD cancelOrder by functionId', get('https://api.m.jd.com/client.action?functionId=cancelOrder&orderId=1', 'XHR', 'https://order.jd.com/'), 'hold', 'risky-url'],
  ['a ?delete=1 link', get('https://example.com/items/7?delete=1'), 'hold', 'risky-url'],
  ['cancel an order by GET', get('https://shop.example.com/orders/123/cancel'), 'hold', 'risky-url'],
  ['loginOut, as Chinese sites spell it', get('https://www.example.cn/user/loginOut', 'XHR', CN), 'hold', 'risky-url'],
  ['a delete in an iframe (webRequest names)', get('https://example.com/account/delete', 'sub_frame'), 'hold', 'risky-url'],
  ['HEAD runs the GET handler', { method: 'HEAD', url: 'https://example.com/logout' }, 'hold', 'risky-url'],
  ['a CORS preflight', { method: 'OPTIONS', url: 'https://api.example.com/v1/items/3', resourceType: 'Preflight' }, 'pass', 'read-method'],
  ['GET /graphql?query=mutation…', get('https://example.com/graphql?query=mutation%7BdeletePost(id%3A1)%7Bid%7D%7D', 'Fetch'), 'hold', 'graphql-mutation'],

  // WebSockets
  ['a chat socket', { method: 'GET', url: 'wss://chat.example.com/socket?vsn=2.0.0', resourceType: 'WebSocket', pageUrl: 'https://chat.example.com/' }, 'hold', 'websocket'],
  ['a socket without a resource type', { method: 'GET', url: 'ws://localhost:3000/ws' }, 'hold', 'websocket'],
  ["Hotjar's socket from a shop", { method: 'GET', url: 'wss://ws.hotjar.com/api/v2/client/ws', resourceType: 'WebSocket', pageUrl: SHOP }, 'drop', 'telemetry-host'],

  // Telemetry
  ['GA4 hit by sendBeacon', { method: 'POST', url: 'https://region1.google-analytics.com/g/collect?v=2&tid=G-ABC123&en=page_view', resourceType: 'Ping', pageUrl: SHOP }, 'drop', 'telemetry-host'],
  ['gtag.js itself loads', get('https://www.googletagmanager.com/gtag/js?id=G-ABC123', 'Script', SHOP), 'pass', 'read-method'],
  ['Baidu Tongji pixel', get('https://hm.baidu.com/hm.gif?si=abc&et=0&nv=1', 'Image', CN), 'drop', 'telemetry-host'],
  ['Baidu Tongji on baidu.com is first-party', get('https://hm.baidu.com/hm.gif?si=abc', 'Image', 'https://www.baidu.com/'), 'pass', 'read-method'],
  ['Meta pixel', get('https://www.facebook.com/tr?id=123&ev=PageView', 'Image', SHOP), 'drop', 'telemetry-host'],
  ['Sentry envelope', { method: 'POST', url: 'https://o450000.ingest.sentry.io/api/4500000/envelope/?sentry_key=abc&sentry_version=7', resourceType: 'Fetch', headers: { 'content-type': 'text/plain;charset=UTF-8' }, postData: SENTRY_ENVELOPE, pageUrl: SHOP }, 'drop', 'telemetry-host'],
  ['Sentry with no page known is held', { method: 'POST', url: 'https://o450000.ingest.sentry.io/api/4500000/envelope/', resourceType: 'Fetch', postData: SENTRY_ENVELOPE }, 'hold', 'write-method'],
  ['Segment track', json('POST', 'https://api.segment.io/v1/t', { event: 'Order Viewed', userId: 'u1' }, SHOP), 'drop', 'telemetry-host'],
  ['Aliplus log on Taobao', { method: 'POST', url: 'https://log.mmstat.com/v.gif', resourceType: 'Ping', postData: 'logtype=2&cache=1', pageUrl: TAOBAO }, 'drop', 'telemetry-host'],
  ['Aliyun ARMS', { method: 'POST', url: 'https://arms-retcode.aliyuncs.com/r.png', resourceType: 'XHR', postData: 'pid=a&t=api', pageUrl: CN }, 'drop', 'telemetry-host'],
  ['Sensors Data', form('POST', 'https://abc.datasink.sensorsdata.cn/sa?project=production', 'data_list=eyJ&gzip=1', CN), 'drop', 'telemetry-host'],
  ['Microsoft Clarity', { method: 'POST', url: 'https://k.clarity.ms/collect', resourceType: 'Fetch', postData: 'x', pageUrl: SHOP }, 'drop', 'telemetry-host'],
  ['an unknown third-party /v1/track', json('POST', 'https://collector.metrics-vendor.io/v1/track', { e: 'click' }, SHOP, 'Fetch'), 'drop', 'telemetry-path'],
  ["a first-party beacon to /log", { method: 'POST', url: 'https://www.example.com/log', resourceType: 'Ping', postData: '{"e":"click"}', pageUrl: 'https://www.example.com/' }, 'drop', 'telemetry-path'],
  ["Cloudflare's first-party RUM", json('POST', 'https://www.example.com/cdn-cgi/rum?', { memory: {} }, 'https://www.example.com/', 'Fetch'), 'drop', 'telemetry-path'],
  ['a first-party beacon that sends a message', { method: 'POST', url: 'https://chat.example.com/api/messages/send', resourceType: 'Ping', headers: { 'Content-Type': 'text/plain' }, postData: '{"to":"bob","text":"hi"}', pageUrl: 'https://chat.example.com/' }, 'hold', 'beacon'],
  ['a first-party /api/log by fetch is a write like any other', json('POST', 'https://www.example.com/api/log', { level: 'info' }, 'https://www.example.com/'), 'hold', 'write-method'],
  ['a CSP report', { method: 'POST', url: 'https://www.example.com/csp', resourceType: 'CSPViolationReport', postData: '{}' }, 'drop', 'browser-report'],

  // GraphQL
  ['GitHub viewer query', json('POST', 'https://api.github.com/graphql', { query: 'query { viewer { login } }' }, GITHUB), 'pass', 'graphql-query'],
  ['GitHub shorthand query', json('POST', 'https://api.github.com/graphql', { query: '{ repository(owner: "octo", name: "hello") { stargazerCount } }' }, GITHUB), 'pass', 'graphql-query'],
  ['a query after its fragments', json('POST', 'https://example.com/graphql', { query: 'fragment F on User { id }\nquery Me { me { ...F } }', operationName: 'Me' }), 'pass', 'graphql-query'],
  ['a brace inside a string', json('POST', 'https://example.com/graphql', { query: '# find it\nquery Search($q: String = "}") { search(q: $q) { id } }' }), 'pass', 'graphql-query'],
  ['GitHub addStar mutation', json('POST', 'https://api.github.com/graphql', { query: 'mutation AddStar($id: ID!) { addStar(input: {starrableId: $id}) { clientMutationId } }', variables: { id: 'MDEwOlJlcG9zaXRvcnkx' } }, GITHUB), 'hold', 'graphql-mutation'],
  ['operationName picks the mutation in a two-operation document', json('POST', 'https://example.com/graphql', { query: 'query A { a } mutation B { b }', operationName: 'B' }), 'hold', 'graphql-mutation'],
  ['application/graphql body', { method: 'POST', url: 'https://example.com/graphql', resourceType: 'Fetch', headers: { 'Content-Type': 'application/graphql' }, postData: 'mutation { logout }' }, 'hold', 'graphql-mutation'],
  ['Apollo persisted GetProduct', json('POST', 'https://shop.example.com/graphql', { operationName: 'GetProduct', variables: { id: '1' }, extensions: { persistedQuery: { version: 1, sha256Hash: 'ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38' } } }), 'pass', 'graphql-persisted-read'],
  ['Apollo persisted UpdateCart', json('POST', 'https://shop.example.com/graphql', { operationName: 'UpdateCart', variables: { qty: 2 }, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } }), 'hold', 'graphql-persisted'],
  ['Apollo batch of queries', json('POST', 'https://example.com/graphql', [{ query: 'query A { a }' }, { query: '{ b }' }]), 'pass', 'graphql-query'],
  ['Apollo batch with one mutation', json('POST', 'https://example.com/graphql', [{ query: 'query A { a }' }, { query: 'mutation Del { del(id: 1) }' }]), 'hold', 'graphql-mutation'],
  ['X CreateTweet by queryId', json('POST', 'https://x.com/i/api/graphql/SoVnbfCycZ7fERGCwpZkYA/CreateTweet', { variables: { tweet_text: 'hello' }, queryId: 'SoVnbfCycZ7fERGCwpZkYA' }, 'https://x.com/home'), 'hold', 'graphql-persisted'],
  ['Facebook Relay like (urlencoded)', form('POST', 'https://www.facebook.com/api/graphql/', 'av=1&fb_api_caller_class=RelayModern&fb_api_req_friendly_name=CometUFIFeedbackReactMutation&variables=%7B%22input%22%3A%7B%7D%7D&doc_id=123', 'https://www.facebook.com/'), 'hold', 'graphql-persisted'],
  ['Facebook Relay query (urlencoded)', form('POST', 'https://www.facebook.com/api/graphql/', 'fb_api_req_friendly_name=CometNewsFeedPaginationQuery&variables=%7B%7D&doc_id=456', 'https://www.facebook.com/'), 'pass', 'graphql-persisted-read'],

  // Search endpoints sent by POST
  ['Algolia multi-index queries', json('POST', 'https://latency-dsn.algolia.net/1/indexes/*/queries?x-algolia-agent=Algolia', { requests: [{ indexName: 'docs', params: 'query=delete' }] }, 'https://docs.example.com/'), 'pass', 'search-endpoint'],
  ['JD-style /api/search', json('POST', 'https://www.example.cn/api/search', { keyword: '手机', page: 1 }, CN), 'pass', 'search-endpoint'],
  ['Elasticsearch _msearch', { method: 'POST', url: 'https://kibana.example.com/internal/_msearch', resourceType: 'XHR', postData: '{}\n{}' }, 'pass', 'search-endpoint'],
  ['an autocomplete endpoint', json('POST', 'https://app.example.com/api/v2/autocomplete', { prefix: 'tand' }), 'pass', 'search-endpoint'],
  ['a typeahead endpoint', json('POST', 'https://www.example.com/typeahead/users', { q: 'ad' }), 'pass', 'search-endpoint'],
  ['Baidu /su by POST', form('POST', 'https://suggestion.baidu.com/su', 'wd=tandem&cb=jQuery1', 'https://www.baidu.com/'), 'pass', 'search-endpoint'],
  ['saving a search is a write', json('POST', 'https://app.example.com/api/search/history/add', { q: 'shoes' }), 'hold', 'write-method'],
  ['deleting search history is a write', { method: 'POST', url: 'https://app.example.com/api/search/history/delete', resourceType: 'XHR' }, 'hold', 'write-method'],
  ['a search form that POSTs and navigates is held', form('POST', 'https://gov.example.cn/search', 'kw=x', CN, 'Document'), 'hold', 'form-post'],

  // Writes
  ['antd Pro create rule', json('POST', 'https://pro.example.com/api/rule', { name: 'r1', desc: 'first' }, 'https://pro.example.com/list/table-list'), 'hold', 'write-method'],
  ['antd Pro delete rules', json('DELETE', 'https://pro.example.com/api/rule', { key: [1, 2] }), 'hold', 'write-method'],
  ['RuoYi (Element) update user', json('PUT', 'https://admin.example.cn/dev-api/system/user', { userId: 3, nickName: '张三', phonenumber: '13800138000' }, CN), 'hold', 'write-method'],
  ['RuoYi (Element) delete user', { method: 'DELETE', url: 'https://admin.example.cn/dev-api/system/user/3', resourceType: 'XHR', pageUrl: CN }, 'hold', 'write-method'],
  ['JSON PATCH of a profile', json('PATCH', 'https://api.example.com/v1/users/me', { displayName: 'Ada' }), 'hold', 'write-method'],
  ['Stripe confirm from a shop is not telemetry', form('POST', 'https://api.stripe.com/v1/payment_intents/pi_123/confirm', 'payment_method=pm_1', SHOP), 'hold', 'write-method'],
  ['multipart upload', { method: 'POST', url: 'https://drive.example.com/api/upload', resourceType: 'XHR', headers: { 'Content-Type': 'multipart/form-data; boundary=----WebKitFormBoundaryx7Yq' }, postData: multipart }, 'hold', 'write-method'],
  ['Discuz new thread (form)', form('POST', 'https://bbs.example.cn/forum.php?mod=post&action=newthread&fid=2', 'subject=hi&message=hello', 'https://bbs.example.cn/', 'Document'), 'hold', 'form-post'],
  ['a login form in webRequest names', form('POST', 'https://example.com/login', 'user=a&pass=b', undefined, 'main_frame'), 'hold', 'form-post'],
  ['a WebDAV method', { method: 'PROPFIND', url: 'https://dav.example.com/files/' }, 'hold', 'write-method'],
  ['a lowercase method', { method: 'post', url: 'https://example.com/api/items', postData: 'a=1' }, 'hold', 'write-method'],
  ['no method at all', { method: ' ', url: 'https://example.com/api/items' }, 'hold', 'write-method'],
  // Closer calls
  ["a Google result's <a ping>", { method: 'POST', url: 'https://www.google.com/url?sa=t&url=https%3A%2F%2Fexample.com', resourceType: 'Ping', headers: { 'Content-Type': 'text/ping' }, postData: 'PING', pageUrl: 'https://www.google.com/search?q=x' }, 'drop', 'link-ping'],
  ['a CSP report known by its type', { method: 'POST', url: 'https://www.example.com/csp-violations', resourceType: 'Other', headers: { 'Content-Type': 'application/csp-report' }, postData: '{}' }, 'drop', 'browser-report'],
  ['polling a payment status', get('https://pay.example.cn/api/pay/status?orderId=1', 'XHR', CN), 'pass', 'read-method'],
  ['polling payStatus', get('https://www.example.cn/order/payStatus?orderNo=1', 'XHR', CN), 'pass', 'read-method'],
  ['getPayInfo asks', get('https://www.example.cn/api/getPayInfo?orderNo=1', 'XHR', CN), 'pass', 'read-method'],
  ['deleteList deletes', get('https://www.example.cn/api/deleteList?ids=1,2', 'XHR', CN), 'hold', 'risky-url'],
  ['deleteInfo deletes', get('https://www.example.cn/user/deleteInfo?id=1', 'XHR', CN), 'hold', 'risky-url'],
  ['the result page after unsubscribing', get('https://news.example.com/unsubscribe/result'), 'pass', 'read-method'],
  ['a data: URL that says delete', get('data:text/html,<button>delete</button>'), 'pass', 'read-method'],
  ['a query endpoint running SELECT', json('POST', 'https://bi.example.com/api/query_results', { query: 'SELECT * FROM orders', data_source_id: 1 }), 'pass', 'search-endpoint'],
  ['a query endpoint running DELETE', json('POST', 'https://bi.example.com/api/query_results', { query: 'DELETE FROM orders', data_source_id: 1 }), 'hold', 'write-method'],
  ['a JSON filter is not a GraphQL query', json('POST', 'https://api.example.com/items/bulk', { query: '{"status": "old"}' }), 'hold', 'write-method'],
  ['a GraphQL query to a path that writes', json('POST', 'https://api.example.com/graphql/delete', { query: '{ a }' }), 'hold', 'write-method'],
  ['Shopify storefront query', json('POST', 'https://shop.example.com/api/2024-01/graphql.json', { query: 'query Products { products(first: 3) { nodes { id } } }' }), 'pass', 'graphql-query'],
  ['a GraphQL query by POST with no body is held', { method: 'POST', url: 'https://example.com/graphql?query=%7Ba%7D', resourceType: 'Fetch' }, 'hold', 'write-method'],
  ['a persisted CancelSubscription is no subscription', json('POST', 'https://app.example.com/graphql', { operationName: 'CancelSubscription', variables: { id: 1 }, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } }), 'hold', 'graphql-persisted'],
  ['a persisted SaveSearchQuery saves', json('POST', 'https://app.example.com/graphql', { operationName: 'SaveSearchQuery', variables: {}, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } }), 'hold', 'graphql-persisted'],
  ['a persisted GetAndDeleteDraft deletes', json('POST', 'https://app.example.com/graphql', { operationName: 'GetAndDeleteDraft', variables: {}, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } }), 'hold', 'graphql-persisted'],
  ['a bare query key off a GraphQL endpoint is a filter', json('POST', 'https://api.example.com/items/archive', { query: '{ status: "old" }' }), 'hold', 'write-method'],
  ['Twitch batch at gql host, query by hand', json('POST', 'https://gql.twitch.tv/gql', [{ query: 'query { user(login: "x") { id } }' }]), 'pass', 'graphql-query'],
  ['a search endpoint body sent by PUT is still judged by path', json('PUT', 'https://example.com/api/search/settings/save', { x: 1 }), 'hold', 'write-method'],
]

describe('classifyRequest', () => {
  it.each(rows)('%s', (_name, facts, verdict, reason) => {
    const result = classifyRequest(facts)
    expect([result.verdict, result.reason]).toEqual([verdict, reason])
    // Every description fits the schema the barrier, the card and the audit share.
    expect(() => HeldRequest.parse(result.request)).not.toThrow()
  })

  it('has a realistic table', () => {
    expect(rows.length).toBeGreaterThanOrEqual(60)
  })

  it('names the GraphQL operation and sends its variables as fields', () => {
    const { request } = classifyRequest(rows.find(([name]) => name === 'GitHub addStar mutation')![1])
    expect(request.operation).toEqual({ type: 'mutation', name: 'AddStar' })
    expect(request.fields).toEqual([{ name: 'id', value: 'MDEwOlJlcG9zaXRvcnkx' }])
    const persisted = classifyRequest(rows.find(([name]) => name === 'X CreateTweet by queryId')![1]).request
    expect(persisted.operation).toEqual({ type: 'mutation', name: 'CreateTweet' })
    expect(persisted.fields).toEqual([{ name: 'tweet_text', value: 'hello' }])
  })

  it('describes kinds, sites and sizes', () => {
    const upload = classifyRequest(rows.find(([name]) => name === 'multipart upload')![1]).request
    expect(upload).toMatchObject({ method: 'POST', kind: 'fetch', path: '/api/upload', fields: [{ name: 'title', value: 'Quarterly report' }, { name: 'file' }] })
    expect(upload.bytes).toBe(multipart.length)
    expect(classifyRequest(get('https://mail.example.com/logout')).request.kind).toBe('navigation')
    expect(classifyRequest(form('POST', 'https://e.com/a', 'x=1', undefined, 'Document')).request.kind).toBe('form')
    expect(classifyRequest({ method: 'POST', url: 'https://e.com/b', resourceType: 'Ping' }).request.kind).toBe('beacon')
    expect(classifyRequest({ method: 'GET', url: 'wss://e.com/ws' }).request.kind).toBe('websocket')
    expect(classifyRequest(json('POST', 'https://api.stripe.com/v1/x', {}, SHOP)).request.thirdParty).toBe(true)
    expect(classifyRequest(json('POST', 'https://api.shop.example.com/v1/x', {}, SHOP)).request.thirdParty).toBe(false)
    expect(classifyRequest(json('POST', 'https://api.shop.example.com/v1/x', {})).request.thirdParty).toBeUndefined()
    expect(classifyRequest({ method: 'POST', url: 'https://e.com/x', headers: { 'CONTENT-LENGTH': '512' } }).request.bytes).toBe(512)
    expect(classifyRequest({ method: 'POST', url: 'https://e.com/x', postData: '删除' }).request.bytes).toBe(6)
  })

  it('shows query names but never query values, and masks tokens in the path', () => {
    const { request } = classifyRequest(get('https://news.example.com/unsubscribe/8f3b2c9a0d1e4f5a6b7c8d9e?list=weekly&u=ada%40example.org&flag'))
    expect(request.url).toBe('https://news.example.com/unsubscribe/••••?list=••••&u=••••&flag')
    expect(request.path).toBe('/unsubscribe/••••')
    expect(JSON.stringify(request)).not.toContain('8f3b2c9a')
    expect(classifyRequest(get('data:text/html,<b>secret</b>')).request).toMatchObject({ url: 'data:••••', origin: '', path: '' })
  })

  it('accepts rules that extend the defaults', () => {
    const beacon = json('POST', 'https://stats.vendor.example/v2/hit', { e: 1 }, SHOP)
    expect(classifyRequest(beacon).verdict).toBe('hold')
    const rules = extendWriteRules({ telemetryHosts: ['stats.vendor.example'] })
    expect(classifyRequest(beacon, rules)).toMatchObject({ verdict: 'drop', reason: 'telemetry-host' })
    expect(rules.telemetryHosts).toEqual(expect.arrayContaining(DEFAULT_WRITE_RULES.telemetryHosts))
    expect(() => WriteRules.parse({ telemetryHosts: [''] })).toThrow()
    expect(() => WriteRules.parse({ nonsense: [] })).toThrow()
  })
})

describe('registrable domains', () => {
  const suffixes = new Set(DEFAULT_WRITE_RULES.multiPartSuffixes)
  it.each([
    ['www.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['item.taobao.com', 'taobao.com'],
    ['www.gov.cn', 'www.gov.cn'],
    ['news.sina.com.cn', 'sina.com.cn'],
    ['shop.example.com.hk', 'example.com.hk'],
    ['alice.github.io', 'alice.github.io'],
    ['bucket.s3.amazonaws.com', 'bucket.s3.amazonaws.com'],
    ['EXAMPLE.com.', 'example.com'],
    ['localhost', 'localhost'],
    ['192.168.1.10', '192.168.1.10'],
    ['[::1]', '[::1]'],
  ])('%s → %s', (host, site) => {
    expect(registrableDomain(host, suffixes)).toBe(site)
  })

  it('tells sites apart by registrable domain, and IPs by host', () => {
    expect(siteOf('https://shop.example.co.uk/cart')).toBe('example.co.uk')
    expect(siteOf('data:text/plain,x')).toBeUndefined()
    const beacon = (url: string, pageUrl: string) => classifyRequest({ method: 'POST', url, resourceType: 'Fetch', postData: '{}', pageUrl }).verdict
    expect(beacon('https://bob.github.io/collect', 'https://alice.github.io/')).toBe('drop')
    expect(beacon('https://alice.github.io/api/collect', 'https://alice.github.io/')).toBe('hold')
    expect(beacon('http://127.0.0.1:9000/track', 'http://127.0.0.1:8080/')).toBe('hold')
    expect(beacon('http://127.0.0.2:9000/track', 'http://127.0.0.1:8080/')).toBe('drop')
  })
})

describe('what a held request shows of its values', () => {
  const login = form('POST', 'https://example.com/login', 'email=ada.canary%40example.org&password=Zq9-hunter2-secret&remember=1', undefined, 'Document')

  it('never shows a credential, by whatever name', () => {
    const { request } = classifyRequest(login)
    expect(JSON.stringify(request)).not.toContain('hunter2')
    expect(request.fields).toContainEqual({ name: 'password' })
    const oauth = classifyRequest(get('https://app.example.com/oauth/callback?code=4/0AX4XfWh&state=xyz')).request.fields
    expect(oauth).toEqual([{ name: 'code' }, { name: 'state', value: 'xyz' }])
    for (const name of ['user[password]', 'newPassword', 'pwd', 'pw', 'mima', 'loginpwd', 'pin', 'otp_code', 'smsCode', 'cvv', 'card_no', 'csrf_token', 'api_key', 'idCard', '身份证号', '支付密码']) {
      expect(isSecretName(name), name).toBe(true)
    }
    for (const name of ['shipping', 'passengers', 'author', 'postcode', 'title', 'keyword', 'spinner']) expect(isSecretName(name), name).toBe(false)
  })

  it('masks an email only when asked, a card number always', () => {
    expect(classifyRequest(login).request.fields).toContainEqual({ name: 'email', value: 'ada.canary@example.org' })
    expect(classifyRequest(login, undefined, { emails: true }).request.fields).toContainEqual({ name: 'email', value: '••••' })
    const order = json('POST', 'https://shop.example.com/api/order', { note: 'card 4539 1726 0458 9134 please', phone: '13800138000' })
    const fields = classifyRequest(order).request.fields
    expect(JSON.stringify(fields)).not.toContain('4539')
    expect(fields).toContainEqual({ name: 'note', value: 'card •••• please' })
    expect(classifyRequest(order, undefined, { phones: true }).request.fields).toContainEqual({ name: 'phone', value: '••••' })
  })

  it('cuts long values, hides tokens and nested values, and caps the field count', () => {
    const long = 'x'.repeat(300)
    const body = { text: long, session: 'abc', jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N', nested: { a: 1 } }
    const fields = classifyRequest(json('POST', 'https://e.com/api/x', body)).request.fields
    expect(fields).toEqual([{ name: 'text', value: `${'x'.repeat(80)}…` }, { name: 'session' }, { name: 'jwt', value: '••••' }, { name: 'nested' }])
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, i]))
    expect(classifyRequest(json('POST', 'https://e.com/api/x', many)).request.fields).toHaveLength(50)
  })

  it('reads text/plain forms and tolerates bodies it cannot read', () => {
    const plain = { method: 'POST', url: 'https://e.com/f', headers: { 'Content-Type': 'text/plain' }, postData: 'name=Ada\r\npin=1234\r\n' }
    expect(classifyRequest(plain).request.fields).toEqual([{ name: 'name', value: 'Ada' }, { name: 'pin' }])
    const broken = { method: 'POST', url: 'https://e.com/f', headers: JSON_TYPE, postData: '{"a":' }
    expect(classifyRequest(broken)).toMatchObject({ verdict: 'hold', request: { fields: [] } })
    expect(classifyRequest({ method: 'POST', url: 'not a url' })).toMatchObject({ verdict: 'hold', request: { origin: '', path: '' } })
  })

  it('never lets a password value through, whatever it is', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('json', 'form', 'multipart'), (secret, encoding) => {
        const value = `Zq9${secret}`
        const facts: RequestFacts =
          encoding === 'json'
            ? json('POST', 'https://e.com/api/login', { user: 'ada', password: value })
            : encoding === 'form'
              ? form('POST', 'https://e.com/login', `user=ada&password=${encodeURIComponent(value)}`)
              : { method: 'POST', url: 'https://e.com/login', headers: { 'content-type': 'multipart/form-data; boundary=b' }, postData: `--b\r\nContent-Disposition: form-data; name="password"\r\n\r\n${value}\r\n--b--` }
        expect(JSON.stringify(classifyRequest(facts).request)).not.toContain(value)
      }),
    )
  })
})

describe('the write rule', () => {
  const READ_REASONS = ['graphql-query', 'graphql-persisted-read', 'search-endpoint']
  const method = fc.oneof(
    fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'post', 'MERGE', 'PROPFIND', 'TRACE', 'CONNECT'),
    fc.stringMatching(/^[A-Za-z]{1,10}$/).filter((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m.toUpperCase())),
  )
  const url = fc.constantFrom(
    'https://example.com/api/items', 'https://example.com/graphql', 'https://example.com/api/search', 'https://example.com/collect',
    'https://www.google-analytics.com/g/collect', 'https://example.com/logout', 'wss://example.com/ws', 'not a url', 'https://e.com/su',
  )
  const body = fc.oneof(
    fc.constant(undefined),
    fc.string(),
    fc.json(),
    fc.constantFrom('{"query":"{ a }"}', '{"query":"mutation { a }"}', '{"operationName":"GetA","variables":{}}', 'a=1&b=2'),
  )
  const type = fc.constantFrom(undefined, 'XHR', 'Fetch', 'Document', 'Ping', 'WebSocket', 'Other', 'main_frame', 'xmlhttprequest')
  const page = fc.constantFrom(undefined, 'https://example.com/', 'https://other.example.org/')

  it('never lets another method pass unless it reads (a GraphQL query or a search)', () => {
    fc.assert(
      fc.property(method, url, body, type, page, (m, u, postData, resourceType, pageUrl) => {
        const result = classifyRequest({ method: m, url: u, postData, resourceType, pageUrl })
        if (result.verdict === 'pass') expect(READ_REASONS).toContain(result.reason)
        expect(() => HeldRequest.parse(result.request)).not.toThrow()
      }),
      { numRuns: 2000 },
    )
  })
})
