import { z } from 'zod'
import { Action } from './action'
import { ScriptStep } from './action-form'
import { Observation } from './observation'
import { PendingConfirmation, StepView, TaskStatus, TaskView, Usage } from './task'

const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
const reason = z.string().max(2000).optional()
const httpUrl = z
  .string()
  .max(8192)
  .refine((u) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol), 'an http(s) URL')

export const StartBody = z.strictObject({
  goal: z.string().trim().min(1).max(4000),
  startUrl: httpUrl.optional(),
  clientId: id.optional(),
  skill: z.string().min(1).max(128).regex(/^[a-z0-9][a-z0-9-]*$/, 'a skill slug').optional(),
  script: z.array(ScriptStep).min(1).max(1000).optional(),
})
export type StartBody = z.infer<typeof StartBody>
export const StartData = z.object({ taskId: z.string(), status: TaskStatus })

export const NextBody = z.strictObject({
  clientId: id,
  taskId: id.optional(),
  waitMs: z.number().int().min(0).max(20_000).optional(),
})
export type NextBody = z.infer<typeof NextBody>
export const NextData = z.object({ taskId: z.string().nullable(), status: TaskStatus.nullable(), action: Action.nullable() })
export type NextData = z.infer<typeof NextData>

export const ReportBody = z.strictObject({ taskId: id, actionId: id, observation: Observation })
export type ReportBody = z.infer<typeof ReportBody>
export type ReportBodyInput = z.input<typeof ReportBody>
export const ReportData = z.object({ accepted: z.boolean(), duplicate: z.boolean(), status: TaskStatus })
export type ReportData = z.infer<typeof ReportData>

export const ConfirmBody = z.strictObject({ taskId: id, actionId: id, approved: z.boolean(), reason })
export type ConfirmBody = z.infer<typeof ConfirmBody>

export const AnswerBody = z.strictObject({ taskId: id, answer: z.string().trim().min(1).max(4000) })
export type AnswerBody = z.infer<typeof AnswerBody>

/** pause, resume and cancel. */
export const TaskCommandBody = z.strictObject({ taskId: id, reason })
export type TaskCommandBody = z.infer<typeof TaskCommandBody>

export const StatusData = z.object({ status: TaskStatus })

export const TaskIdQuery = z.strictObject({ taskId: id })

export const StatusView = z.object({
  task: TaskView,
  currentAction: Action.nullable(),
  pendingConfirmation: PendingConfirmation.nullable(),
  steps: z.array(StepView),
  usage: Usage,
})
export type StatusView = z.infer<typeof StatusView>

export const TasksQuery = z.strictObject({
  status: TaskStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
})

export const SkillsSearchQuery = z.strictObject({
  q: z.string().max(500).default(''),
  site: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
})

/** Headers every client call carries, so the audit knows who asked. */
export const CLIENT_HEADERS = {
  clientId: 'x-tandem-client',
  version: 'x-tandem-version',
  traceId: 'x-trace-id',
} as const
