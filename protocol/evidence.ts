import type { StepView } from './task'

/**
 * The goal of the picture the server takes before it asks the person to approve a high-risk action, so the
 * confirmation shows the page as it is now. Panels translate it; skills saved from a task leave it out.
 */
export const EVIDENCE_GOAL = 'picture of the page before asking you'

/** Whether a step is that picture rather than part of the task's own work. */
export const isEvidenceStep = (step: Pick<StepView, 'type' | 'goal'>): boolean =>
  step.type === 'screenshot' && step.goal === EVIDENCE_GOAL
