import type { PendingConfirmation } from '#protocol'
import { riskReasonsIn } from '#protocol'
import type { Lang } from '../../../ui/i18n'

/**
 * Why the pending step is risky, in the panel's language. The server's English sentences stand in when it
 * sent no reasons as data (an older server, or a task stored before it kept them).
 */
export const pendingReasons = (pending: Pick<PendingConfirmation, 'reasons' | 'reasonDetails'>, lang: Lang): string[] =>
  riskReasonsIn(lang, pending.reasons, pending.reasonDetails)
