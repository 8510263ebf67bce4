/**
 * The corpus as data: each case is one page (a widget described once, rendered by any stack) and what the
 * person's agent does on it. Verdicts come from the fixture server's log, so a case names the requests whose
 * arrival is the effect, never what Tandem is expected to believe.
 */

export type Lang = 'en' | 'zh'
export type Stack = 'plain' | 'react' | 'vue' | 'antd' | 'element' | 'mui'

/** What a page sends when its control fires. Paths are relative to the case's own folder (/c/<id>). */
export type Effect =
  | { via: 'fetch' | 'xhr'; method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET'; path: string; body?: Record<string, unknown> }
  | { via: 'graphql'; op: 'query' | 'mutation'; name: string }
  | { via: 'beacon'; path: string }
  /** Third-party telemetry, to the analytics host (a different site). */
  | { via: 'telemetry'; event: string }
  | { via: 'websocket'; path: string }
  /**
   * A message over a WebSocket the page opened to `path` WHEN IT LOADED (as chat apps do): `message` (the default)
   * says something, `typing` and `ping` only say the person is there.
   */
  | { via: 'socket-send'; path: string; frame?: 'message' | 'typing' | 'ping' }
  /** A window the page opens (/c/<id>/popup), which sends the request as soon as it loads. */
  | { via: 'popup'; path: string }
  /** Sent by a dedicated Worker the page hands the job to. */
  | { via: 'worker'; method: 'POST' | 'PUT' | 'DELETE'; path: string }
  /** A top-level GET navigation (location.assign). */
  | { via: 'navigate'; path: string }
  | { via: 'none' }

/** A generic confirm step in the page's own UI: the library's modal or popconfirm. */
export interface PageConfirm {
  style: 'modal' | 'popconfirm'
  title: string
  content?: string
  /** Button texts; the library's defaults (OK / 确定) when absent. */
  ok?: string
  cancel?: string
}

export interface Field {
  name: string
  label: string
  kind?: 'text' | 'search' | 'email' | 'textarea'
  value?: string
}

export type Widget =
  | {
      kind: 'button'
      label: string
      /** An emoji or a named icon (trash, send, check, close, more) drawn with no words. */
      icon?: string
      aria?: string
      title?: string
      /** A plain element with a click handler instead of a <button> (plain, react and vue only). */
      element?: 'div' | 'span'
      effect: Effect
      confirm?: PageConfirm
    }
  | {
      kind: 'form'
      fields: Field[]
      submit: { label: string; icon?: string }
      /** A real form submission (native navigation). Absent: the form submits to its own URL by GET. */
      action?: { path: string; method: 'get' | 'post' }
      /** The page handles submit itself (preventDefault) and sends this instead. */
      onSubmit?: Effect
      /** The submit control is a plain element whose click calls form.requestSubmit(). */
      requestSubmit?: boolean
    }
  | {
      kind: 'chat'
      placeholder: string
      key: 'Enter' | 'Control+Enter'
      effect: Effect
      /** A send button beside the box (the key sends too). */
      sendLabel?: string
      /** The box: a textarea (the default) or a `role=textbox` contenteditable div, as WhatsApp and Telegram have. */
      box?: 'textarea' | 'contenteditable'
      /** The box's aria-label ("Message #announcements"). */
      aria?: string
      /** Sent while the person types (a typing indicator), besides what the key sends. */
      typing?: Effect
    }
  | { kind: 'select'; label: string; options: string[]; value: string; effect: Effect }
  /** Its effect's body is what the site is sent once it is flipped (`{ theme: 'dark' }`), as a real switch sends its new state. */
  | { kind: 'toggle'; label: string; style: 'checkbox' | 'switch'; checked: boolean; effect: Effect }
  | { kind: 'link'; label: string; href: string; expands?: string }
  | { kind: 'accordion'; items: { title: string; body: string }[] }
  | { kind: 'tabs'; tabs: { title: string; body: string }[]; effect?: Effect }
  | { kind: 'pagination'; pages: number; effect?: Effect }
  | { kind: 'chips'; chips: string[]; removeLabel: string; effect?: Effect }
  | { kind: 'datepicker'; label: string; ok?: string; effect?: Effect }
  /** An embedded widget: a same-origin iframe (/c/<id>/frame) holding one more widget. */
  | { kind: 'frame'; title: string; inner: Widget }
  /** A list where Delete removes the selected row. */
  | { kind: 'list'; items: string[]; effect: Effect }

/** Words of the element's tree line, tried in order. */
export type Find = string | string[]

/** One Tandem action as a script lists it; `find` is how the fake model picks it from the element tree. */
export type Step =
  | { type: 'click'; text?: string; selector?: string; find?: Find }
  | { type: 'type'; selector: string; text: string; submit?: boolean; find?: Find }
  | { type: 'select'; text?: string; selector?: string; option: string; find?: Find }
  | { type: 'press'; keys: string }

export type Mechanism =
  | 'form-post'
  | 'form-get'
  | 'fetch'
  | 'xhr'
  | 'request-submit'
  | 'graphql-mutation'
  | 'graphql-query'
  | 'beacon'
  | 'telemetry'
  | 'websocket'
  | 'socket-send'
  | 'socket-presence'
  /** The site's own analytics reporting a click, through its own domain. */
  | 'own-analytics'
  /** State a task changes on its way and a person undoes as easily: a cart line, a preference, a draft. */
  | 'reversible'
  | 'worker'
  | 'iframe'
  | 'popup'
  | 'dialog-ok'
  | 'shortcut'
  | 'autosave'
  | 'icon'
  | 'reworded'
  | 'spaced-cjk'
  | 'get-link'
  | 'js-link'
  | 'read-widget'
  | 'search'

export interface Case {
  id: string
  lang: Lang
  stack: Stack
  /** What the person asked for, as the task's goal. */
  goal: string
  /** The page's heading and a line of context. */
  title: string
  intro: string
  widget: Widget
  /** Controls around the one under test, so the page is not a single button. */
  extra?: Widget[]
  /** The page reports to the analytics host when it loads. */
  telemetryOnLoad?: boolean
  steps: Step[]
  /** The label the person would read on the control under test. */
  label: string
  mechanism: Mechanism
  irreversible: boolean
  /**
   * "METHOD /path" (relative to the case folder) whose arrival at the site is the effect. WS for a socket opening,
   * WSMSG for a message sent on a socket.
   */
  effects: string[]
}
