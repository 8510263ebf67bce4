/**
 * What the write barrier installs in a page's own world (and a worker's) to hold WebSocket messages: a wrapper
 * around WebSocket.prototype.send, which every socket shares, those opened at page load included. CDP's Fetch cannot
 * pause a frame, so while a step the person did not approve runs ("hold"), a message sent on an open socket is kept
 * in the page and named to the extension through a CDP binding; the extension says whether it goes (its original
 * send, on its own socket) or is dropped. Outside a hold it sends at once.
 *
 * Kept as source text, not a function's toString(): the bundler must not rewrite what runs in another world.
 * Plain ES2017, no outer names. Never throws into the page beyond what the native send throws itself.
 */
const SOURCE = String.raw`(function (binding, hold, leaseMs) {
  var KEY = Symbol.for('tandem.socketHold');
  var self = globalThis[KEY];
  if (!self) {
    if (typeof WebSocket !== 'function' || !WebSocket.prototype || typeof WebSocket.prototype.send !== 'function') return false;
    var original = WebSocket.prototype.send;
    var queues = new WeakMap();
    var entries = new Map();
    var next = 0;
    var until = 0;
    var report = typeof globalThis[binding] === 'function' ? globalThis[binding] : null;
    var MAX_SHOWN = 65536;
    var base64 = function (bytes) {
      var s = '';
      for (var i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
      return btoa(s);
    };
    var utf8 = function (text) {
      try { return new TextEncoder().encode(text).length; } catch (e) { return text.length; }
    };
    var tell = function (entry, described) {
      var message = { id: entry.id, url: '', bytes: described.bytes };
      try { message.url = String(entry.socket.url); } catch (e) {}
      if (described.text !== undefined) message.text = described.text;
      if (described.binary !== undefined) message.binary = described.binary;
      if (described.cut) message.cut = true;
      try { report(JSON.stringify(message)); } catch (e) {}
    };
    // What the frame is, for the extension to judge: text as it is, bytes in base64, both cut at MAX_SHOWN.
    var describe = function (data, done) {
      if (typeof data === 'string') {
        var bytes = utf8(data);
        return done({ text: data.length > MAX_SHOWN ? data.slice(0, MAX_SHOWN) : data, bytes: bytes, cut: data.length > MAX_SHOWN });
      }
      var view = null;
      if (data instanceof ArrayBuffer) view = new Uint8Array(data);
      else if (ArrayBuffer.isView(data)) view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      if (view) return done({ binary: base64(view.subarray(0, MAX_SHOWN)), bytes: view.length, cut: view.length > MAX_SHOWN });
      if (typeof Blob === 'function' && data instanceof Blob) {
        return data.slice(0, MAX_SHOWN).arrayBuffer().then(function (buffer) {
          done({ binary: base64(new Uint8Array(buffer)), bytes: data.size, cut: data.size > MAX_SHOWN });
        }, function () { done({ binary: '', bytes: data.size, cut: true }); });
      }
      var text = String(data);
      done({ text: text.slice(0, MAX_SHOWN), bytes: utf8(text), cut: text.length > MAX_SHOWN });
    };
    var isOpen = function (socket) {
      try { return socket.readyState === 1; } catch (e) { return null; }
    };
    // Frames leave a socket in the order the page sent them: one that waits keeps those after it waiting.
    var flush = function (socket) {
      var queue = queues.get(socket) || [];
      while (queue.length && queue[0].state !== 'waiting') {
        var entry = queue.shift();
        entries.delete(entry.id);
        if (entry.state === 'go') {
          try { original.call(socket, entry.data); } catch (e) {}
        }
      }
      if (!queue.length) queues.delete(socket);
    };
    var send = function send(data) {
      var socket = this;
      var queue = queues.get(socket);
      var holding = Date.now() < until && report !== null;
      // A socket not yet open throws, a closed one discards: the native send does both, as the page expects.
      if ((!holding && !queue) || arguments.length === 0 || isOpen(socket) !== true) return original.apply(socket, arguments);
      var entry = { id: ++next, socket: socket, data: data, state: holding ? 'waiting' : 'go' };
      if (!queue) queues.set(socket, (queue = []));
      queue.push(entry);
      entries.set(entry.id, entry);
      if (holding) {
        try { describe(data, function (described) { tell(entry, described); }); } catch (e) {}
      }
    };
    try {
      Object.defineProperty(send, 'toString', { value: function toString() { return Function.prototype.toString.call(original); } });
      Object.defineProperty(WebSocket.prototype, 'send', { value: send, writable: true, configurable: true, enumerable: true });
    } catch (e) {
      return false;
    }
    self = {
      mode: function (on, ms) { until = on ? Date.now() + ms : 0; },
      // go: in its turn; now: at once, ahead of any frame that waits (a keep-alive); drop: never.
      decide: function (id, verdict) {
        var entry = entries.get(id);
        if (!entry) return 'gone';
        var open = isOpen(entry.socket) === true;
        if (verdict === 'now') {
          var queue = queues.get(entry.socket) || [];
          queue.splice(queue.indexOf(entry), 1);
          entries.delete(id);
          if (open) try { original.call(entry.socket, entry.data); } catch (e) { open = false; }
          flush(entry.socket);
          return open ? 'sent' : 'gone';
        }
        entry.state = verdict === 'drop' ? 'drop' : 'go';
        flush(entry.socket);
        if (verdict === 'drop') return 'dropped';
        if (!open) return 'gone';
        return entries.has(id) ? 'queued' : 'sent';
      },
    };
    Object.defineProperty(globalThis, KEY, { value: self, configurable: false, enumerable: false, writable: false });
  }
  self.mode(hold, leaseMs);
  return true;
})`

/** The binding the wrapper names each held frame through (Runtime.addBinding), by a name pages do not use. */
export const SOCKET_BINDING = '__tandemSocketSend'

/** How long a hold lasts in the page if the extension never says the step ended (a stopped worker, a lost debugger). */
export const SOCKET_LEASE_MS = 150_000

/** An expression that installs the wrapper (once) and sets whether it holds. */
export const installSocketHold = (hold: boolean, leaseMs = SOCKET_LEASE_MS) => `${SOURCE}(${JSON.stringify(SOCKET_BINDING)}, ${hold}, ${leaseMs})`

export type SocketVerdict = 'go' | 'now' | 'drop'
/** What became of a frame decided: sent, waiting behind an earlier one on its socket, dropped, or gone (its socket or page). */
export type SocketOutcome = 'sent' | 'queued' | 'dropped' | 'gone'

/** An expression deciding one frame the wrapper keeps; it answers a SocketOutcome. */
export const decideSocketFrame = (frame: number, verdict: SocketVerdict) =>
  `(function () { var self = globalThis[Symbol.for('tandem.socketHold')]; return self ? self.decide(${Number(frame)}, ${JSON.stringify(verdict)}) : 'gone'; })()`

/** A frame as the wrapper names it through the binding; anything else the page calls the binding with is ignored. */
export interface SocketFrameCall {
  id: number
  url: string
  text?: string
  /** Base64. */
  binary?: string
  bytes: number
  cut?: boolean
}

export function parseFrameCall(payload: string): SocketFrameCall | null {
  let value: unknown
  try {
    value = JSON.parse(payload)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const v = value as Record<string, unknown>
  if (!Number.isInteger(v.id) || typeof v.url !== 'string' || !Number.isInteger(v.bytes)) return null
  if (typeof v.text !== 'string' && typeof v.binary !== 'string') return null
  return {
    id: v.id as number,
    url: v.url.slice(0, 4000),
    ...(typeof v.text === 'string' ? { text: v.text } : { binary: v.binary as string }),
    bytes: v.bytes as number,
    ...(v.cut === true ? { cut: true } : {}),
  }
}
