import { z } from 'zod'
import { ScriptStep, SkillParameterName } from '#protocol'

/** Recorder (content script in the person's tab) → side panel: one step the person just took. */
export const RecordedMessage = z.object({
  kind: z.literal('recorded'),
  step: ScriptStep,
  label: z.string().max(300),
  parameter: z.object({ name: SkillParameterName, label: z.string().min(1).max(200), secret: z.boolean() }).optional(),
})
export type RecordedMessage = z.output<typeof RecordedMessage>

/** Side panel → recorder: stop watching this page (the recording ended). */
export const StopRecording = z.object({ kind: z.literal('record-stop') })
