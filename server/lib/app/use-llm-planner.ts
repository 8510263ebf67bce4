import { createLlmPlanner } from '../agent/llm-planner'
import { latestScreenshot } from '../agent/screenshot'
import { createLlmGateway } from '../llm/gateway'
import type { Planner } from '../tasks/planner'
import { useArtifactStore } from './use-audit'
import { useConfig } from './use-config'
import { useSecrets } from './use-secrets'
import { useSkills } from './use-skills'

/** The LLM planner when TANDEM_LLM_BASE_URL and TANDEM_LLM_MODEL are set; otherwise only script tasks run. */
export function useLlmPlanner(): Planner | undefined {
  const { llm, redact } = useConfig()
  if (!llm.baseUrl || !llm.model) return undefined
  return createLlmPlanner({
    gateway: createLlmGateway({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model, timeoutMs: llm.timeoutMs }),
    skills: useSkills,
    secrets: useSecrets(),
    redact,
    maxSteps: llm.maxSteps,
    maxPromptTokens: llm.maxPromptTokens,
    ...(llm.vision ? { screenshot: (task) => latestScreenshot(useArtifactStore(), task) } : {}),
  })
}
