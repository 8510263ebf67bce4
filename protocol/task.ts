import { z } from 'zod'
import { Action, Risk } from './action'
import { ObservationError } from './observation'

export const TaskStatus = z.enum([
  'RUNNING',
  'WAITING_CONFIRMATION',
  'WAITING_USER',
  'WAITING_PAGE',
  'PAUSED',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
])
export type TaskStatus = z.infer<typeof TaskStatus>

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELED']
export const isTerminal = (status: TaskStatus) => TERMINAL_STATUSES.includes(status)

export const TaskResult = z.object({ success: z.boolean(), text: z.string(), data: z.unknown().optional() })
export type TaskResult = z.infer<typeof TaskResult>

export const Usage = z.object({
  llmCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
  latencyMs: z.number(),
})
export type Usage = z.infer<typeof Usage>
export const emptyUsage = (): Usage => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 })

/** The public view of a task. */
export const TaskView = z.object({
  id: z.string(),
  goal: z.string(),
  status: TaskStatus,
  mode: z.enum(['script', 'llm']),
  clientId: z.string().optional(),
  startUrl: z.string().optional(),
  skill: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  stepCount: z.number().int(),
  question: z.string().optional(),
  result: TaskResult.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
})
export type TaskView = z.infer<typeof TaskView>

/** One finished step of a task's history. */
export const StepView = z.object({
  seq: z.number().int(),
  actionId: z.string(),
  type: z.string(),
  risk: Risk,
  outcome: z.enum(['done', 'failed', 'rejected']),
  url: z.string().optional(),
  title: z.string().optional(),
  errors: z.array(ObservationError),
  note: z.string().optional(),
  at: z.string(),
})
export type StepView = z.infer<typeof StepView>

export const PendingConfirmation = z.object({
  actionId: z.string(),
  action: Action,
  risk: Risk,
  reasons: z.array(z.string()),
})
export type PendingConfirmation = z.infer<typeof PendingConfirmation>
