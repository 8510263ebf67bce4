import { createContext, runInContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { createWriteBarrier, type Hold } from '../lib/executor/write-barrier'
import { installSocketHold } from '../lib/executor/socket-wrapper'

type Listener = (source: { tabId?: number; sessionId?: string }, method: string, params?: unknown) => void

/**
 * A tab whose page is a real JavaScript world (node:vm) with a WebSocket like the browser's: `send` on an open socket
 * puts the frame on the wire (and CDP reports it sent, Network.webSocketFrameSent), on one still connecting it throws.
 * CDP's Runtime is played as Chromium does it: a binding is a page function whose calls arrive as events.
 */
function fakePage() {
  const listeners: Listener[] = []
  const wire: { socket: string; data: string }[] = []
  const methods: string[] = []
  let network = false
  const emit = (method: string, params: unknown) => setTimeout(() => listeners.forEach((l) => l({ tabId: 7 }, method, params)), 0)
  const world = createContext({
    TextEncoder,
    btoa,
    atob,
    __wire(url: string, data: unknown) {
      const text = typeof data === 'string' ? data : `<${(data as ArrayBuffer).byteLength ?? (data as Uint8Array).length} bytes>`
      wire.push({ socket: url, data: text })
      if (network) {
        const response = typeof data === 'string' ? { opcode: 1, payloadData: data } : { opcode: 2, payloadData: Buffer.from(data as Uint8Array).toString('base64') }
        emit('Network.webSocketFrameSent', { requestId: `ws:${url}`, response })
      }
    },
  })
  runInContext(
    `class WebSocket {
      constructor(url) { this.url = url; this.readyState = 1 }
      send(data) {
        if (this.readyState === 0) throw new Error('InvalidStateError: still in CONNECTING state')
        if (this.readyState === 1) __wire(this.url, data)
      }
    }
    globalThis.WebSocket = WebSocket`,
    world,
  )
  const run = (method: string, params: Record<string, unknown> = {}) => {
    methods.push(method)
    if (method === 'Network.enable') network = true
    if (method === 'Network.disable') network = false
    if (method === 'Runtime.addBinding') {
      const name = String(params.name)
      ;(world as Record<string, unknown>)[name] = (payload: string) => emit('Runtime.bindingCalled', { name, payload, executionContextId: 1 })
    }
    if (method === 'Runtime.evaluate') return Promise.resolve({ result: { value: runInContext(String(params.expression), world) } })
    return Promise.resolve({})
  }
  return {
    debuggee: { send: (_tabId: number, method: string, params?: Record<string, unknown>) => run(method, params) },
    events: { addListener: (cb: Listener) => void listeners.push(cb) },
    wire,
    methods,
    emit,
    /** Runs page code (the page's own script). */
    page: (code: string) => runInContext(code, world),
    /** The page's socket, opened at load, before any step. */
    open: (name: string, url: string) => runInContext(`globalThis.${name} = new WebSocket(${JSON.stringify(url)})`, world),
  }
}

const settle = () => new Promise((r) => setTimeout(r, 20))

function setup() {
  const tab = fakePage()
  let holds: Hold[] = []
  const store = { get: async () => holds, set: async (next: Hold[]) => void (holds = next) }
  const barrier = createWriteBarrier({ debugger: tab.debuggee as never, events: tab.events, store })
  const step = { taskId: 't1', stepId: 'a1', pageUrl: 'https://chat.test/c/general' }
  tab.open('chat', 'wss://chat.test/socket')
  return { tab, barrier, step, stored: () => holds }
}

describe('messages sent over a WebSocket opened before the step', () => {
  it('holds a chat message the step sends, shows its socket and fields, and lets a heartbeat go', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    tab.page(`chat.send(JSON.stringify({ type: 'message', text: 'Running late' })); chat.send('2')`)
    await settle()
    expect(tab.wire).toEqual([{ socket: 'wss://chat.test/socket', data: '2' }])
    const held = await barrier.held('a1')
    expect(held).toMatchObject([
      { via: 'socket', reason: 'socket-message', request: { method: 'SEND', kind: 'websocket', origin: 'wss://chat.test', path: '/socket', fields: [{ name: 'type', value: 'message' }, { name: 'text', value: 'Running late' }] } },
    ])
    expect(await barrier.waitForHold(7, 'a1', Date.now() + 50)).toBe(true)
    expect(barrier.leaked(7)).toEqual([])
  })

  it('sends the very frame on its own socket once released, and keeps later frames on that socket behind it', async () => {
    const { tab, barrier, step } = setup()
    tab.open('other', 'wss://chat.test/other')
    await barrier.engage(7, step)
    tab.page(`chat.send('{"type":"message","text":"first"}'); chat.send('{"type":"message","text":"second"}'); other.send('{"type":"message","text":"elsewhere"}')`)
    await settle()
    const [first, second, elsewhere] = await barrier.held('a1')
    await barrier.stepEnded(7)
    await barrier.release([second!.id])
    // The second waits for the first, still undecided.
    expect(tab.wire).toEqual([])
    await barrier.release([first!.id])
    expect(tab.wire.map((f) => f.data)).toEqual(['{"type":"message","text":"first"}', '{"type":"message","text":"second"}'])
    await barrier.refuse((h) => h.id === elsewhere!.id)
    expect(tab.wire).toHaveLength(2)
    expect(await barrier.held('t1')).toEqual([])
  })

  it('drops a refused frame: it never reaches the wire, and the socket sends again afterwards', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    tab.page(`chat.send('hello everyone')`)
    await settle()
    await barrier.stepEnded(7)
    const refused = await barrier.refuse(() => true)
    expect(refused).toMatchObject([{ via: 'socket', request: { fields: [{ name: 'text', value: 'hello everyone' }] } }])
    tab.page(`chat.send('the person types this themselves')`)
    expect(tab.wire.map((f) => f.data)).toEqual(['the person types this themselves'])
  })

  it('sends at once outside a step, and lets typing go as presence while a step runs', async () => {
    const { tab, barrier, step } = setup()
    tab.page(`chat.send('before any step')`)
    await barrier.engage(7, step)
    tab.page(`chat.send('42["typing",{"room":"general"}]')`)
    await settle()
    await barrier.stepEnded(7)
    tab.page(`chat.send('after the step')`)
    expect(tab.wire.map((f) => f.data)).toEqual(['before any step', '42["typing",{"room":"general"}]', 'after the step'])
    expect(await barrier.held('a1')).toEqual([])
    expect(barrier.leaked(7)).toEqual([])
  })

  it('is one wrapper however often it is installed, and as quiet as the native send', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    tab.page(installSocketHold(true))
    tab.page(installSocketHold(true))
    expect(tab.page('WebSocket.prototype.send.length')).toBe(1)
    expect(tab.page('WebSocket.prototype.send.name')).toBe('send')
    expect(tab.page('String(WebSocket.prototype.send)')).toContain('send(data)')
    // A socket still connecting throws as the browser's does; the wrapper throws nothing of its own.
    expect(() => tab.page(`const s = new WebSocket('wss://chat.test/late'); s.readyState = 0; s.send('x')`)).toThrow(/CONNECTING/)
    expect(tab.page(`WebSocket.prototype.send.call({}, 'x'); 'no throw'`)).toBe('no throw')
    tab.page(`chat.send('one')`)
    await settle()
    expect(await barrier.held('a1')).toHaveLength(1)
  })

  it('holds binary frames, and tells the bytes', async () => {
    const { tab, barrier, step } = setup()
    await barrier.engage(7, step)
    tab.page(`chat.send(new Uint8Array([0x30, 5, 0, 1, 0x61, 1, 2])); chat.send(new Uint8Array([0xc0, 0]))`)
    await settle()
    expect(await barrier.held('a1')).toMatchObject([{ request: { bytes: 7 } }])
    // MQTT's PINGREQ went, at once.
    expect(tab.wire.map((f) => f.data)).toEqual(['<2 bytes>'])
  })

  it('fails the step on a frame that left unheld (a send the page kept from before the wrapper), naming the socket and its size', async () => {
    const { tab, barrier, step } = setup()
    tab.page(`globalThis.nativeSend = WebSocket.prototype.send`)
    await barrier.engage(7, step)
    // The socket's address, as CDP names it when one opens.
    tab.emit('Network.webSocketCreated', { requestId: 'ws:wss://chat.test/socket', url: 'wss://chat.test/socket' })
    tab.page(`nativeSend.call(chat, '{"type":"message","text":"sneaked out"}'); nativeSend.call(chat, '3')`)
    await settle()
    expect(tab.wire).toHaveLength(2)
    expect(barrier.leaked(7)).toEqual([{ url: 'wss://chat.test/socket', bytes: 39 }])
    // A held message keeps the barrier on after the step; what the page sends then is its own business.
    tab.page(`chat.send('held')`)
    await settle()
    await barrier.stepEnded(7)
    tab.page(`nativeSend.call(chat, 'later')`)
    await settle()
    expect(barrier.leaked(7)).toHaveLength(1)
  })
})
