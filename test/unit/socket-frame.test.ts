import { describe, expect, it } from 'vitest'
import { classifySocketFrame } from '#protocol'

const SOCKET = 'wss://chat.example.com/socket?token=abc123def456ghi789jkl'
const PAGE = 'https://chat.example.com/c/general'
const judge = (data: string | Uint8Array, pageUrl = PAGE) =>
  classifySocketFrame({ url: SOCKET, data: typeof data === 'string' ? data : { binary: data }, pageUrl }, { emails: true })
const verdict = (data: string | Uint8Array) => {
  const j = judge(data)
  return `${j.verdict} ${j.reason}${j.kind ? ` ${j.kind}` : ''}`
}

describe('classifySocketFrame', () => {
  it('lets the protocols’ keep-alives go', () => {
    for (const frame of ['2', '3', '2probe', '3probe', '6', '\n', '\r\n', '', 'ping', 'PONG', '{"type":6}\u001e', '[null,"7","phoenix","heartbeat",{}]', '{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"1"}', '{"type":"ping"}', '{"type":"pong"}', '{"event":"pusher:ping","data":{}}']) {
      expect(verdict(frame), JSON.stringify(frame)).toBe('pass socket-keepalive')
    }
    expect(verdict(new Uint8Array([0xc0, 0]))).toBe('pass socket-keepalive')
  })

  it('lets handshakes and subscriptions go, reads included', () => {
    expect(verdict('40')).toBe('pass socket-handshake')
    expect(verdict('40/chat,{"token":"x"}')).toBe('pass socket-handshake')
    expect(verdict('{"protocol":"json","version":1}\u001e')).toBe('pass socket-handshake')
    expect(verdict('{"type":"connection_init","payload":{}}')).toBe('pass socket-handshake')
    expect(verdict('["3","3","room:lobby","phx_join",{}]')).toBe('pass socket-subscribe')
    expect(verdict('{"command":"subscribe","identifier":"{\\"channel\\":\\"ChatChannel\\"}"}')).toBe('pass socket-subscribe')
    expect(verdict('{"id":"1","type":"subscribe","payload":{"query":"subscription OnMessage { message { id text } }"}}')).toBe('pass socket-subscribe')
    expect(verdict('{"id":"1","type":"complete"}')).toBe('pass socket-subscribe')
    expect(verdict('SUBSCRIBE\nid:0\ndestination:/topic/chat\n\n\u0000')).toBe('pass socket-subscribe')
    expect(verdict(new Uint8Array([0x82, 8, 0, 1, 0, 3, 0x61, 0x2f, 0x62, 0]))).toBe('pass socket-subscribe')
  })

  it('lets typing and seen go as presence, and nothing that merely mentions them', () => {
    expect(judge('42["typing",{"room":"general"}]')).toMatchObject({ verdict: 'pass', reason: 'socket-presence', kind: 'presence' })
    expect(verdict('{"type":"start_typing","channel":"announcements"}')).toBe('pass socket-presence presence')
    expect(verdict('["1","9","room:lobby","presence_update",{}]')).toBe('pass socket-presence presence')
    expect(verdict('{"type":"active_chat_message","text":"hi"}')).toBe('hold socket-message')
    expect(verdict('{"type":"typing_contest_entry","text":"hi"}')).toBe('hold socket-message')
  })

  it('holds a message, showing the socket and its fields, with values redacted and the token hidden', () => {
    const j = judge('42["send_message",{"text":"Running late","to":"sam@example.com","password":"hunter2"}]')
    expect(j.verdict).toBe('hold')
    expect(j.request).toMatchObject({
      method: 'SEND',
      kind: 'websocket',
      origin: 'wss://chat.example.com',
      path: '/socket',
      thirdParty: false,
      fields: [{ name: 'event', value: 'send_message' }, { name: 'text', value: 'Running late' }, { name: 'to' }, { name: 'password' }],
    })
    expect(j.request.url).not.toContain('abc123')
    expect(j.request.fields.find((f) => f.name === 'to')?.value).not.toContain('sam@example.com')
    expect(j.request.fields.find((f) => f.name === 'password')?.value).toBeUndefined()
    expect(j.request.bytes).toBe(Buffer.byteLength('42["send_message",{"text":"Running late","to":"sam@example.com","password":"hunter2"}]'))
  })

  it('holds what each protocol uses to say something', () => {
    for (const frame of [
      '{"type":"message","text":"hi"}',
      'hello everyone',
      'text=hello&room=1',
      '["1","4","room:lobby","new_msg",{"body":"hi"}]',
      '{"type":1,"target":"SendMessage","arguments":["general","hi"]}\u001e',
      '{"command":"message","identifier":"x","data":"{\\"action\\":\\"speak\\",\\"message\\":\\"hi\\"}"}',
      'SEND\ndestination:/app/chat\n\n{"text":"hi"}\u0000',
      '43[{"ok":true}]',
    ]) expect(judge(frame).verdict, frame).toBe('hold')
    expect(judge('{"id":"2","type":"subscribe","payload":{"query":"mutation Post($t: String!) { post(text: $t) { id } }","variables":{"t":"hi"}}}')).toMatchObject({
      verdict: 'hold',
      reason: 'graphql-mutation',
      request: { operation: { type: 'mutation', name: 'Post' }, fields: [{ name: 't', value: 'hi' }] },
    })
    expect(judge(new Uint8Array([0x30, 9, 0, 4, 0x63, 0x68, 0x61, 0x74, 0x68, 0x69, 0x21]))).toMatchObject({ verdict: 'hold', request: { bytes: 11 } })
  })

  it('says when the socket goes to another site, and copes with an address it cannot read', () => {
    expect(classifySocketFrame({ url: 'wss://relay.other.net/ws', data: 'hi', pageUrl: PAGE }).request.thirdParty).toBe(true)
    expect(classifySocketFrame({ url: 'not a url', data: 'hi' })).toMatchObject({ verdict: 'hold', request: { origin: '', path: '' } })
    expect(classifySocketFrame({ url: SOCKET, data: 'x'.repeat(10), bytes: 1_000_000 }).request.bytes).toBe(1_000_000)
  })
})
