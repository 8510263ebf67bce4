import { redactSensitiveText, type RedactSettings } from '#protocol'
import type { ChatMessage, LlmGateway } from '../llm/gateway'
import { REDACTED } from './redact'

/**
 * The gateway with every secret value replaced by its placeholder, and every card number (and the emails and
 * phone numbers `settings` asks for) masked, before a message leaves the server: one choke point, whatever the
 * page, the person or an extraction put into a prompt.
 */
export function redactingGateway(gateway: LlmGateway, redactSecrets: ((text: string) => string) | undefined, settings: RedactSettings = {}): LlmGateway {
  const redact = (text: string) => redactSensitiveText(redactSecrets ? redactSecrets(text) : text, settings, REDACTED)
  const scrub = (m: ChatMessage): ChatMessage => ({
    ...m,
    content: typeof m.content === 'string' ? redact(m.content) : m.content.map((p) => (p.type === 'text' ? { ...p, text: redact(p.text) } : p)),
  })
  return {
    model: gateway.model,
    complete: (request) => gateway.complete({ ...request, messages: request.messages.map(scrub) }),
  }
}
