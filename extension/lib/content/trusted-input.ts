import { InputReply, type InputRequest } from '../messages'
import { PageActionError } from '../page/errors'
import type { TrustedInput } from '../page/input'

export interface TrustedInputAsk {
  /** runtime.sendMessage to the worker. */
  send: (request: InputRequest) => Promise<unknown>
  /**
   * Runs while Tandem's own trusted input reaches the page: its events are `isTrusted` like the person's, and must
   * not read as the person taking the page over.
   */
  own?: <T>(run: () => Promise<T>) => Promise<T>
}

/**
 * The page's trusted input for one step: each gesture is asked of the worker, which sends it through the
 * debugger. No answer, or "not sent", means DOM events; input that broke off halfway fails the step.
 */
export function askForTrustedInput(deps: TrustedInputAsk, actionId: string): TrustedInput {
  return async (gesture) => {
    const ask = () => deps.send({ kind: 'input', actionId, gesture })
    let answer: unknown
    try {
      answer = await (deps.own ? deps.own(ask) : ask())
    } catch {
      return false
    }
    const reply = InputReply.safeParse(answer)
    if (!reply.success) return false
    if ('error' in reply.data) throw new PageActionError('ACTION_FAILED', reply.data.error)
    return reply.data.sent
  }
}
