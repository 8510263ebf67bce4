import type { ChatMessage, LlmGateway } from '../llm/gateway'

/**
 * The gateway with every secret value replaced by its placeholder before a message leaves the server: one choke
 * point, whatever the page, the person or an extraction put into a prompt.
 */
export function redactingGateway(gateway: LlmGateway, redact: ((text: string) => string) | undefined): LlmGateway {
  if (!redact) return gateway
  const scrub = (m: ChatMessage): ChatMessage => ({
    ...m,
    content: typeof m.content === 'string' ? redact(m.content) : m.content.map((p) => (p.type === 'text' ? { ...p, text: redact(p.text) } : p)),
  })
  return {
    model: gateway.model,
    complete: (request) => gateway.complete({ ...request, messages: request.messages.map(scrub) }),
  }
}
