import type { ErrorCode } from './errors'
import { NavigationFailure, describeNavigationFailure } from './navigation-failure'
import { describeSiteRefused } from './site-refused'

type WordLang = 'en' | 'zh-CN'
type Params = Record<string, string | number>

/** How a task can end other than by an error of a request or an action: the person's choice or the planner's limit. */
export const TASK_END_CODES = ['REJECTED', 'CANCELED', 'GOAL_NOT_MET', 'MAX_STEPS', 'LOOP_DETECTED', 'PLANNER_ERROR', 'LLM_BAD_OUTPUT'] as const
export type TaskEndCode = (typeof TASK_END_CODES)[number]

/** The person ended it (rejected a step or canceled): what a reader shows as their choice, not as a failure. */
export const PERSON_CODES: readonly string[] = ['REJECTED', 'CANCELED']
export const isPersonChoice = (error: { code: string } | undefined): boolean => !!error && PERSON_CODES.includes(error.code)

type Words = { en: string; 'zh-CN': string }

/** Every error code a person can meet, as a plain sentence: what happened, and what to do about it. */
const ERROR_WORDS: Record<ErrorCode | TaskEndCode, Words> = {
  BAD_REQUEST: { en: 'The request was not valid, so nothing was done. Check what was entered and try again.', 'zh-CN': '请求无效，所以什么也没做。请检查填写的内容后重试。' },
  UNAUTHORIZED: { en: 'The server did not accept the token. Paste the token the server printed when it first started.', 'zh-CN': '服务器不接受这个令牌。请粘贴服务器首次启动时打印的令牌。' },
  FORBIDDEN: { en: 'This is not allowed here.', 'zh-CN': '这里不允许这样做。' },
  NOT_FOUND: { en: 'It was not found: it may have been removed, or the address is wrong.', 'zh-CN': '没有找到：它可能已被删除，或者地址有误。' },
  METHOD_NOT_ALLOWED: { en: 'The server does not answer this kind of request here.', 'zh-CN': '服务器在这里不接受这种请求。' },
  CONFLICT: { en: 'The task has moved on since this page last looked: refresh and try again.', 'zh-CN': '任务在此期间已经有了变化：请刷新后再试。' },
  PAYLOAD_TOO_LARGE: { en: 'What was sent is too large for the server. Send less and try again.', 'zh-CN': '发送的内容太大，服务器无法接收。请减少内容后重试。' },
  LLM_NOT_CONFIGURED: {
    en: 'No LLM is configured on the server, so a goal alone cannot run. Set TANDEM_LLM_BASE_URL and TANDEM_LLM_MODEL, or run a skill with a script.',
    'zh-CN': '服务器没有配置 LLM，无法只凭目标运行。请设置 TANDEM_LLM_BASE_URL 和 TANDEM_LLM_MODEL，或运行带脚本的技能。',
  },
  LLM_ERROR: { en: 'The LLM did not answer properly. Check that its service is up and its key is valid, then try again.', 'zh-CN': 'LLM 没有正常回应。请确认它的服务在运行、密钥有效，然后重试。' },
  INTERNAL: { en: 'Something went wrong inside the Tandem server. Try again; if it happens again, look at the server’s output.', 'zh-CN': 'Tandem 服务器内部出错了。请重试；如果再次出现，请查看服务器的输出。' },
  UNAVAILABLE: { en: 'The server is busy with this task right now. Try again in a moment.', 'zh-CN': '服务器正忙于处理这个任务。请稍后再试。' },
  PERMISSION_DENIED: { en: 'Tandem may not act on this site. Allow the site when the side panel asks, then run the task again.', 'zh-CN': 'Tandem 不能在这个网站上操作。请在侧边栏询问时允许该网站，然后重新运行任务。' },
  TARGET_NOT_FOUND: { en: 'The element to act on was not on the page. The page may have changed or still be loading.', 'zh-CN': '页面上找不到要操作的元素。页面可能已经变化，或者还在加载。' },
  TARGET_NOT_INTERACTABLE: { en: 'The element was there but could not be used (hidden, covered or disabled).', 'zh-CN': '元素在页面上，但无法操作（被隐藏、被遮挡或不可用）。' },
  TARGET_STALE: { en: 'The page changed before the step ran, so Tandem looked at it again instead of acting blindly.', 'zh-CN': '执行这一步之前页面变了，所以 Tandem 重新查看了页面，而不是盲目操作。' },
  NAVIGATION_IN_PROGRESS: { en: 'The page was still loading, so the step did not run. It can be tried again once the page has loaded.', 'zh-CN': '页面还在加载，所以这一步没有执行。页面加载完成后可以再试。' },
  TIMEOUT: { en: 'The step took too long and was stopped. The page may be slow: try again.', 'zh-CN': '这一步耗时太久，已被停止。页面可能很慢：请重试。' },
  CONFIRMATION_REQUIRED: { en: 'This step needs your approval first, and none was given.', 'zh-CN': '这一步需要先得到你的批准，但还没有批准。' },
  INVALID_TASK_TAB: { en: 'The task’s tab cannot be used (it shows no web page Tandem may act on). Open a web page and start again.', 'zh-CN': '任务所在的标签页无法使用（没有 Tandem 可以操作的网页）。请打开一个网页后重新开始。' },
  TASK_TAB_CLOSED: { en: 'The task’s tab was closed, so the task cannot go on. Start it again.', 'zh-CN': '任务所在的标签页已关闭，任务无法继续。请重新开始。' },
  PAGE_PREP_FAILED: { en: 'Tandem could not read the page. Reload it and try again.', 'zh-CN': 'Tandem 无法读取这个页面。请刷新页面后重试。' },
  SCREENSHOT_UNAVAILABLE: { en: 'No picture of the page could be taken; the task went on without it.', 'zh-CN': '无法给页面截图；任务在没有截图的情况下继续。' },
  READABILITY_TOO_LARGE: { en: 'The page is too large to read in full; only part of it was read.', 'zh-CN': '页面太大，无法完整读取；只读取了一部分。' },
  UPLOAD_REFUSED: {
    en: 'The file could not be uploaded. Tandem uploads only files from the folder set on the server (TANDEM_UPLOAD_DIR), by their plain name, up to 8 MB.',
    'zh-CN': '无法上传该文件。Tandem 只上传服务器上设置的文件夹（TANDEM_UPLOAD_DIR）中的文件，按文件名直接指定，最大 8 MB。',
  },
  ACTION_NO_EFFECT: {
    en: 'The step ran, but the page did not change the way it should have (the value, choice, selection or position stayed as it was).',
    'zh-CN': '这一步执行了，但页面没有按预期变化（值、选项、选中内容或位置保持原样）。',
  },
  ACTION_FAILED: { en: 'The step did not work on the page.', 'zh-CN': '这一步在页面上没有成功。' },
  WRITE_UNHELD: {
    en: 'While a step you had not approved ran, the page sent something Tandem could not hold (a message over a WebSocket); it may have reached the site. The task stopped: check the page and the site.',
    'zh-CN': '在一个你没有批准的步骤执行时，页面发出了 Tandem 无法拦住的内容（WebSocket 上的一条消息），它可能已到达网站。任务已停止：请检查页面和网站。',
  },
  TAKEN_OVER: {
    en: 'You took over while this step ran, so Tandem stopped it there. Nothing went wrong: the task goes on from the page as you leave it when you resume.',
    'zh-CN': '这一步执行时你接管了，所以 Tandem 在那里停下了它。没有出错：你继续任务后，它会从你留下的页面接着做。',
  },
  // These two say more when their details are known (describeNavigationFailure, describeSiteRefused).
  NAVIGATION_FAILED: { en: 'The page did not come up. Check the address, or whether the site is running.', 'zh-CN': '页面没有打开。请检查网址，或网站是否在运行。' },
  SITE_REFUSED: { en: 'You did not allow this site in this task, so Tandem does not go there.', 'zh-CN': '你在这个任务里没有允许这个网站，Tandem 不会去那里。' },
  REJECTED: { en: 'You rejected a step, so the task stopped there. Nothing of that step was done.', 'zh-CN': '你拒绝了一步，任务就此停止。那一步什么都没有执行。' },
  CANCELED: { en: 'You canceled the task.', 'zh-CN': '你取消了这个任务。' },
  GOAL_NOT_MET: { en: 'The agent finished without reaching the goal.', 'zh-CN': '代理结束了任务，但没有达成目标。' },
  MAX_STEPS: { en: 'The agent took as many steps as it may without reaching the goal, so it stopped. Try a narrower goal or a skill.', 'zh-CN': '代理已走到允许的最多步数，仍未达成目标，所以停止了。请把目标写得更具体，或使用技能。' },
  LOOP_DETECTED: { en: 'The agent kept doing the same thing on an unchanged page, so it stopped. Try a clearer goal, or do that part yourself.', 'zh-CN': '代理在没有变化的页面上反复做同一件事，所以停止了。请把目标写得更清楚，或自己完成那一部分。' },
  PLANNER_ERROR: { en: 'Tandem could not decide the next step. Try again; if it happens again, look at the server’s output.', 'zh-CN': 'Tandem 无法决定下一步。请重试；如果再次出现，请查看服务器的输出。' },
  LLM_BAD_OUTPUT: { en: 'The LLM’s answer could not be understood, even after asking again. Try again or use another model.', 'zh-CN': '即使重新询问，LLM 的回答仍无法理解。请重试或换一个模型。' },
}

const PLACEHOLDER = /\{(\w+)\}/g
const fill = (template: string, params: Params) => template.replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole))

const STEP_PREFIX: Words = { en: 'Step {step}: ', 'zh-CN': '第 {step} 步：' }
/** Codes that name the step in their own sentence when it is known. */
const ON_STEP: Partial<Record<ErrorCode | TaskEndCode, Words>> = {
  REJECTED: { en: 'You rejected step {step}, so the task stopped there. Nothing of that step was done.', 'zh-CN': '你拒绝了第 {step} 步，任务就此停止。那一步什么都没有执行。' },
}
const UNKNOWN: Words = { en: 'Something went wrong: {message}', 'zh-CN': '出错了：{message}' }

const wordsParams = (details: unknown): Params =>
  details && typeof details === 'object' && !Array.isArray(details)
    ? Object.fromEntries(Object.entries(details).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as Params
    : {}

export const isKnownErrorCode = (code: string): code is ErrorCode | TaskEndCode => Object.hasOwn(ERROR_WORDS, code)

/**
 * An error as a plain sentence in the reader's language: what happened and what to do. `details.step` names the
 * step (as the person counts it) an action's error happened on. The code stays for the reader to show beside it,
 * never as the message; a code this version does not know keeps its own message.
 */
export function describeError(error: { code: string; message: string; details?: unknown; origin?: string; effect?: { expected: string; found: string } }, lang: WordLang): string {
  const params: Params = { ...wordsParams(error.details), message: error.message }
  if (!isKnownErrorCode(error.code)) return fill(UNKNOWN[lang], params)
  const sentence = detailedSentence(error, lang) ?? fill(ERROR_WORDS[error.code][lang], params)
  if (params.step === undefined) return sentence
  const own = ON_STEP[error.code]
  return own ? fill(own[lang], params) : fill(STEP_PREFIX[lang], params) + sentence
}

/** A step without effect says what it should have left and what it found (the page's own words, as they are). */
const NO_EFFECT_WORDS: Words = {
  en: 'The step ran, but the page did not change: expected {expected}, found {found}.',
  'zh-CN': '这一步执行了，但页面没有变化：应为 {expected}，实际为 {found}。',
}

const NAVIGATION_KEYS = ['reason', 'url', 'status', 'netError', 'problem'] as const

/** A task an agent canceled names the agent: "you canceled" would claim the person did what they did not. */
const CANCELED_BY_WORDS: Words = { en: '{canceledBy} canceled the task.', 'zh-CN': '{canceledBy} 取消了这个任务。' }

/** A navigation failure says why (no such site, refused, HTTP 404…), a refused site names itself. */
function detailedSentence(error: { code: string; details?: unknown; origin?: string; effect?: { expected: string; found: string } }, lang: WordLang): string | undefined {
  if (error.code === 'ACTION_NO_EFFECT' && error.effect) return fill(NO_EFFECT_WORDS[lang], error.effect)
  const details = (error.details && typeof error.details === 'object' ? error.details : {}) as Record<string, unknown>
  if (error.code === 'CANCELED' && typeof details.canceledBy === 'string') return fill(CANCELED_BY_WORDS[lang], { canceledBy: details.canceledBy })
  if (error.code === 'NAVIGATION_FAILED') {
    // A task's error carries the step's number beside the failure: only the failure's own fields are read.
    const picked = Object.fromEntries(NAVIGATION_KEYS.filter((k) => details[k] !== undefined).map((k) => [k, details[k]]))
    const failure = NavigationFailure.safeParse(picked)
    return failure.success ? describeNavigationFailure(failure.data, lang) : undefined
  }
  if (error.code === 'SITE_REFUSED') {
    const origin = error.origin ?? (typeof details.origin === 'string' ? details.origin : undefined)
    return origin ? describeSiteRefused(origin, lang) : undefined
  }
  return undefined
}

/** What the planner ended a task with; the text stays when it is the planner's own words. */
const RESULT_WORDS: Record<string, Words> = {
  SCRIPT_DONE: { en: 'Ran all {n} steps of the script.', 'zh-CN': '脚本的 {n} 步全部执行完毕。' },
}

/** A task's result in the reader's language: from its code when it has one this version words, else its text. */
export function describeResult(result: { text: string; code?: string; params?: Params }, lang: WordLang): string {
  const words = result.code && Object.hasOwn(RESULT_WORDS, result.code) ? RESULT_WORDS[result.code]! : undefined
  return words ? fill(words[lang], result.params ?? {}) : result.text
}
