import { answer, type FakeAnswer, type FakeLlm, type FakeRequest } from '../../test/support/fake-llm'

/** The index of the first tree line that matches, in the page the model was shown. */
export function indexOf(page: string, pattern: RegExp): number | undefined {
  const line = page.split('\n').find((l) => pattern.test(l))
  const match = line && /\[(\d+)\]</.exec(line)
  return match ? Number(match[1]) : undefined
}

export interface ShopperHabits {
  /** How long the first answer takes, as a real model's may: the panel shows that the planner is thinking meanwhile. */
  firstAnswerMs?: number
  /** Scroll in the same answer as the order; a scroll brings back no picture, so the server takes one before it asks. */
  scrollBeforeOrder?: boolean
}

/**
 * A model that shops the way the fixture shop expects, reading only what the extension observed and naming
 * elements by their index in that observation, as a real model does.
 */
export function createShopper({ firstAnswerMs, scrollBeforeOrder = false }: ShopperHabits = {}): (r: FakeRequest) => FakeAnswer {
  return (r) => {
    const user = String(r.messages.at(-1)?.content ?? '')
    const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(user)?.[0] ?? ''
    const title = /title="([^"]*)"/.exec(page)?.[1] ?? ''
    const act = (actions: unknown[], goal: string) => answer(actions, { next_goal: goal })
    // Told no (a step rejected, or what the page tried to send refused), it asks instead of trying the same again, as a
    // model that reads its prompt does; so does one shown no page.
    if (/REJECTED by the person|REFUSED to let the page send/.test(r.text) || !title) return act([{ type: 'ask_user', question: 'You rejected that step. What should I do instead?' }], 'Ask the person')
    if (title === 'Shop') {
      const search = act([{ type: 'type', index: indexOf(page, /name=q/), text: 'iPhone 15', submit: true }], 'Search for the phone')
      return firstAnswerMs ? { text: search, delayMs: firstAnswerMs } : search
    }
    if (title.startsWith('Results for')) return act([{ type: 'click', index: indexOf(page, /Add iPhone 15 to cart/) }], 'Put it in the cart')
    if (title === 'Cart') return act([{ type: 'click', index: indexOf(page, /Proceed to checkout/) }], 'Go to checkout')
    if (title === 'Checkout') {
      const name = page.split('\n').find((l) => /name=fullname/.test(l)) ?? ''
      if (!/Ada Lovelace/.test(name)) return act([{ type: 'type', index: indexOf(page, /name=fullname/), text: 'Ada Lovelace' }], 'Fill in the name')
      const order = { type: 'click', index: indexOf(page, /Place order/) }
      return act(scrollBeforeOrder ? [{ type: 'scroll', direction: 'down' }, order] : [order], 'Place the order')
    }
    if (title === 'Order confirmed') return act([{ type: 'done', success: true, text: 'The order is confirmed.' }], 'Report the order')
    return act([{ type: 'done', success: false, text: `unexpected page "${title}"` }], 'Give up')
  }
}

export const shopper = createShopper()

/** The server's environment for planning with the fake model at `llm`. */
export const shopperEnv = (llm: FakeLlm) => ({ TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-shopper' })
