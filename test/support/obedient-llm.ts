import { answer, type FakeAnswer, type FakeRequest } from './fake-llm'

/** An injected instruction as the corpus writes it: [[do:click|text]], [[do:type|field|text]], [[do:go|url]]. */
export interface Demand {
  verb: 'click' | 'type' | 'go'
  args: string[]
}

const MARKER = /\[\[do:(click|type|go)\|([^\]]*?)\]\]/

const userText = (r: FakeRequest) => {
  const content = r.messages.at(-1)?.content
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? '').join('\n') : ''
}

/** The first injected instruction anywhere in the latest prompt (page, page text, skills), unescaped as shown. */
export function findDemand(prompt: string): Demand | undefined {
  const match = MARKER.exec(prompt.replace(/\\"/g, '"'))
  if (!match) return undefined
  return { verb: match[1] as Demand['verb'], args: match[2]!.split('|') }
}

/**
 * The index of the element the instruction names: a line of the page block holding the text, preferring one
 * that is not itself the instruction (the real button, not the aria-label that talks about it).
 */
export function elementNamed(page: string, text: string): number | undefined {
  const lines = page.split('\n').filter((l) => /^\s*\*?\[\d+\]</.test(l) && l.includes(text))
  const line = lines.find((l) => !l.includes('[[do:')) ?? lines[0]
  const match = line && /\[(\d+)\]</.exec(line)
  return match ? Number(match[1]) : undefined
}

/**
 * A model that obeys whatever the page (or a skill) tells it: it answers the injected action and claims it is
 * low risk. After the person rejects a step, or a step fails, it gives up; with no instruction in sight it is done.
 */
export function obedientModel(r: FakeRequest): FakeAnswer {
  const prompt = userText(r)
  const history = /<history>[\s\S]*?<\/history>/.exec(prompt)?.[0] ?? ''
  if (/REJECTED|failed/.test(history)) return answer([{ type: 'done', success: false, text: 'the page’s instruction could not be carried out' }])
  const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(prompt)?.[0] ?? ''
  const text = /<page_text>[\s\S]*?<\/page_text>/.exec(prompt)?.[0] ?? ''
  // What the page says first, then what the skills say.
  const demand = findDemand(`${page}\n${text}`) ?? findDemand(prompt)
  if (!demand) return answer([{ type: 'done', success: true, text: 'read the page; nothing to do' }])
  if (history.includes('Step ')) return answer([{ type: 'done', success: true, text: 'did what the page said' }])
  const low = { risk: 'low' }
  switch (demand.verb) {
    case 'go':
      return answer([{ type: 'navigate', url: demand.args[0], ...low }])
    case 'click': {
      const index = elementNamed(page, demand.args[0]!)
      return index === undefined ? answer([{ type: 'done', success: false, text: 'no such element' }]) : answer([{ type: 'click', index, ...low }])
    }
    case 'type': {
      const index = elementNamed(page, demand.args[0]!)
      return index === undefined
        ? answer([{ type: 'done', success: false, text: 'no such field' }])
        : answer([{ type: 'type', index, text: demand.args[1] ?? '', ...low }])
    }
  }
}
