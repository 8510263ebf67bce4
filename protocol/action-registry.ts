import { z } from 'zod'

/**
 * Every action Tandem can run, in one place: what it carries, who may ask for it, where it runs and how it behaves.
 * The wire schema, the model's and a script's forms, the model's instructions, the page's parser, the executor's
 * traits and the risk rules' reach all derive from this table, so a new action is one entry here plus its executor.
 * The compiler then asks for the rest: its case in the page's or the worker's runner, its words in the panel and the
 * replay (both languages), and a risk rule if it is `judged`; test/unit/action-registry.test.ts asks for a row of
 * params it accepts and refuses, and for the recorded forms to be extended (never changed) to include it.
 */

const str = (max: number) => z.string().min(1).max(max)

/** The largest file an upload step carries (its bytes travel base64 in the approved action). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024
const MAX_UPLOAD_BASE64 = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4

/** Where an action runs: the content script in the page, or the extension's worker (tabs, history, the barrier). */
export type RunsIn = 'page' | 'worker'

/** Who may ask for it: the model (and scripts), scripts only, or only the engine itself (never a plan). */
export type ProposedBy = 'model' | 'script' | 'engine'

/** Whether the planner's form names an element: not at all, optionally, or always (refused without one). */
export type TargetNeed = 'none' | 'optional' | 'required'

/** Whether the page may leave under it as its normal effect (and not as a surprise): an unload means it worked. */
export type Navigates = 'never' | 'always' | 'when-submitted'

export interface ActionSpec<F extends z.ZodRawShape = z.ZodRawShape, S extends z.ZodRawShape = z.ZodRawShape> {
  /** What the planner writes besides the element and its reason: the action's params, as the model and scripts give them. */
  fields: F
  /** Params the engine adds after planning (never in a plan), which the extension reads. */
  stamped: S
  proposedBy: ProposedBy
  runsIn: RunsIn
  target: TargetNeed
  /** A plan may name the element by its visible `text` (for `type`, `text` is what gets typed, so it cannot). */
  textNamesTarget: boolean
  navigates: Navigates
  /** Fires the page's own handlers (click, key, input, change), any of which may send the page elsewhere. */
  firesHandlers: boolean
  /** Actions planned after it would run before its answer is read: a batch stops at it. */
  endsBatch: boolean
  /**
   * How its risk is found: `judged` by the risk rules from what it acts on (its element, address or keys), or only
   * `declared` by whoever planned it (it reads, scrolls, waits or goes back, or runs what the person approved).
   */
  risk: 'judged' | 'declared'
  /** How the model's instructions show it (one line of the system prompt); only for actions the model proposes. */
  example?: string
}

const DEFAULTS = {
  fields: {},
  stamped: {},
  target: 'none',
  textNamesTarget: false,
  navigates: 'never',
  firesHandlers: false,
  endsBatch: false,
  risk: 'declared',
} as const satisfies Omit<ActionSpec, 'proposedBy' | 'runsIn'>

/** An entry: what it says, the defaults for the rest (literal types kept, so forms and params are typed per action). */
const spec = <const X extends Partial<ActionSpec> & Pick<ActionSpec, 'proposedBy' | 'runsIn'>>(s: X) =>
  ({ ...DEFAULTS, ...s }) as Omit<typeof DEFAULTS, keyof X> & X

/**
 * What every click is, of either button and any count: the model's to propose, on an element of the page (named by
 * its text too), firing the page's handlers, and judged by the risk rules from what it clicks.
 */
const A_CLICK = { risk: 'judged', proposedBy: 'model', runsIn: 'page', target: 'required', textNamesTarget: true, firesHandlers: true } as const

/** The table, in the order the wire's type enum and the model's forms list them. */
export const ACTIONS = {
  observe: spec({ proposedBy: 'script', runsIn: 'worker' }),
  navigate: spec({
    risk: 'judged',
    example: '{"type":"navigate","url":"https://..."}',
    proposedBy: 'model',
    runsIn: 'worker',
    fields: { url: str(8192) },
    navigates: 'always',
  }),
  click: spec({ ...A_CLICK, example: '{"type":"click","index":N}', navigates: 'always' }),
  type: spec({
    risk: 'judged',
    example: '{"type":"type","index":N,"text":"...","submit":true|false}',
    proposedBy: 'model',
    runsIn: 'page',
    target: 'required',
    fields: { text: z.string().max(20_000), submit: z.boolean().optional(), clear: z.boolean().optional() },
    /** The text is a credential: the extension keeps it out of what it observes, the panel shows "your password". */
    stamped: { sensitive: z.boolean().optional() },
    navigates: 'when-submitted',
    firesHandlers: true,
  }),
  select: spec({
    risk: 'judged',
    example: '{"type":"select","index":N,"option":"visible option text"}',
    proposedBy: 'model',
    runsIn: 'page',
    target: 'required',
    textNamesTarget: true,
    fields: { option: str(2000) },
    firesHandlers: true,
  }),
  press: spec({
    risk: 'judged',
    example: '{"type":"press","keys":"Enter"}',
    proposedBy: 'model',
    runsIn: 'page',
    fields: { keys: str(200) },
    navigates: 'always',
    firesHandlers: true,
  }),
  scroll: spec({
    example: '{"type":"scroll","direction":"up|down","index":N (optional)}',
    proposedBy: 'model',
    runsIn: 'page',
    target: 'optional',
    textNamesTarget: true,
    fields: { direction: z.enum(['up', 'down']), amount: z.number().min(0).max(100_000).optional() },
  }),
  waitFor: spec({
    example: '{"type":"waitFor","text":"..." | "urlIncludes":"...","timeoutMs":5000}',
    proposedBy: 'model',
    runsIn: 'page',
    // Its selector is what to wait for, not an element to act on.
    fields: {
      text: str(2000).optional(),
      urlIncludes: str(2000).optional(),
      selector: str(2000).optional(),
      timeoutMs: z.number().int().min(0).max(120_000).optional(),
    },
  }),
  extract: spec({
    example: '{"type":"extract","instruction":"what to pull from the page","schema":{JSON schema, optional}}',
    proposedBy: 'model',
    runsIn: 'page',
    fields: { instruction: str(8000), schema: z.record(z.string(), z.unknown()).optional() },
    endsBatch: true,
  }),
  screenshot: spec({ proposedBy: 'script', runsIn: 'worker' }),
  back: spec({ example: '{"type":"back"}', proposedBy: 'model', runsIn: 'worker', navigates: 'always' }),
  /** Moves the pointer over the element and leaves it there: menus and tooltips that open on hover open. */
  hover: spec({
    example: '{"type":"hover","index":N}',
    proposedBy: 'model',
    runsIn: 'page',
    target: 'required',
    textNamesTarget: true,
    firesHandlers: true,
  }),
  /** Drags the element onto another one (`to`: the drop target's index): reorders a list, moves a card, drops a file. */
  drag: spec({
    risk: 'judged',
    example: '{"type":"drag","index":N,"to":M}',
    proposedBy: 'model',
    runsIn: 'page',
    target: 'required',
    textNamesTarget: true,
    fields: { to: z.number().int().min(0).max(100_000) },
    firesHandlers: true,
  }),
  /**
   * Puts a file on a file input (or the styled button that opens one): only a file from the folder the person set
   * on the server (TANDEM_UPLOAD_DIR), named plainly; always the person's to approve. The server stamps the file's
   * bytes on the approved step, so nothing of it leaves the server before then.
   */
  upload: spec({
    risk: 'judged',
    example: '{"type":"upload","index":N,"file":"name.pdf"}',
    proposedBy: 'model',
    runsIn: 'page',
    target: 'required',
    textNamesTarget: true,
    fields: { file: z.string().min(1).max(255) },
    stamped: {
      /** The file's bytes, base64, its type and size, as the server read them from the upload folder. */
      content: z.string().max(MAX_UPLOAD_BASE64).optional(),
      mime: z.string().max(200).optional(),
      bytes: z.number().int().min(0).optional(),
      /** Why the server could not hand the file over (the step then fails with UPLOAD_REFUSED, saying so). */
      refused: z.string().max(2000).optional(),
    },
    firesHandlers: true,
  }),
  /** Moves the task to another of its tabs (K as the observation's tabs list numbers them). */
  switch_tab: spec({
    example: '{"type":"switch_tab","tab":K}',
    proposedBy: 'model',
    runsIn: 'worker',
    fields: { tab: z.number().int().min(1).max(10_000) },
    // The indexes planned after it belong to the page it left.
    endsBatch: true,
  }),
  /** Closes one of the task's tabs (the current one without `tab`); the task goes on in another of its tabs. */
  close_tab: spec({
    example: '{"type":"close_tab","tab":K (optional)}',
    proposedBy: 'model',
    runsIn: 'worker',
    fields: { tab: z.number().int().min(1).max(10_000).optional() },
    endsBatch: true,
  }),
  /** Two clicks in quick succession (the page sees `dblclick`): opens a TodoMVC item's editor, a file, a cell. */
  double_click: spec({ ...A_CLICK, example: '{"type":"double_click","index":N}', navigates: 'always' }),
  /** The secondary button (the page sees `contextmenu`): for pages whose own context menu is their UI. */
  right_click: spec({ ...A_CLICK, example: '{"type":"right_click","index":N}' }),
  /**
   * Lets requests the write barrier held go on, once the person approved them (params.holds: the held ids). The
   * engine proposes it; the model and scripts never do.
   */
  release: spec({
    proposedBy: 'engine',
    runsIn: 'worker',
    navigates: 'always',
    stamped: { holds: z.array(z.string()), requests: z.array(z.unknown()).optional(), after: z.string().optional() },
  }),
} as const satisfies Record<string, ActionSpec>

/** Same as action.ts's ActionType (which is the wire's enum made from this table). */
type ActionType = keyof typeof ACTIONS
export type SpecOf<T extends ActionType> = (typeof ACTIONS)[T]

/** The types that run in the page's content script, or in the worker. */
export type ActionTypeIn<R extends RunsIn> = { [T in ActionType]: SpecOf<T>['runsIn'] extends R ? T : never }[ActionType]

/** The types whose risk the risk rules judge from what they act on. */
export type RiskJudgedType = { [T in ActionType]: SpecOf<T>['risk'] extends 'judged' ? T : never }[ActionType]

export const ACTION_TYPES = Object.keys(ACTIONS) as [ActionType, ...ActionType[]]

/** The types a person or a plan may meet, in the table's order, with the traits asked for. */
export const actionTypesWhere = (test: (spec: ActionSpec, type: ActionType) => boolean): ActionType[] =>
  ACTION_TYPES.filter((type) => test(ACTIONS[type], type))

export const isActionType = (type: string): type is ActionType => Object.hasOwn(ACTIONS, type)

/** The spec of a type read off the wire or the audit; undefined for a type this build does not know. */
export const actionSpec = (type: string): ActionSpec | undefined => (isActionType(type) ? ACTIONS[type] : undefined)

type ParamsShape<T extends ActionType> = SpecOf<T>['fields'] & SpecOf<T>['stamped'] extends infer S extends z.ZodRawShape ? S : never

/** What an action of this type reads from its params: the planner's fields and the engine's stamps (others pass through). */
export function paramsSchema<T extends ActionType>(type: T) {
  const s: ActionSpec = ACTIONS[type]
  return z.object({ ...s.fields, ...s.stamped }) as z.ZodObject<ParamsShape<T>>
}

export type ActionParamsOf<T extends ActionType> = z.output<ReturnType<typeof paramsSchema<T>>>

/** Whether the page leaving under this action is its normal effect. */
export function mayNavigate(action: { type: string; params: Record<string, unknown> }): boolean {
  const navigates = actionSpec(action.type)?.navigates
  return navigates === 'always' || (navigates === 'when-submitted' && action.params.submit === true)
}

export const runsInPage = (type: string): type is ActionTypeIn<'page'> => actionSpec(type)?.runsIn === 'page'
export const firesHandlers = (type: string): boolean => actionSpec(type)?.firesHandlers === true
export const needsTarget = (type: string): boolean => actionSpec(type)?.target === 'required'
export const endsBatch = (type: string): boolean => actionSpec(type)?.endsBatch === true
