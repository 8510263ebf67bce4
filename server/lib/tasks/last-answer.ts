import type { TaskAnswer } from '#protocol'
import { principalOfSource, type RequestSource } from '../http/source'
import type { TaskRecord } from './task-record'

type Said = Partial<Pick<TaskAnswer, 'approved' | 'question' | 'answer' | 'reason' | 'actionId'>>

/**
 * Keeps what was just decided on the task, and by whom, as its latest answer: the agent that drives the task hears
 * the person's word in task_status, and the panel names who canceled.
 */
export function noteAnswer(task: TaskRecord, kind: TaskAnswer['kind'], source: RequestSource, said: Said, at = new Date().toISOString()): TaskAnswer {
  const kept = Object.fromEntries(Object.entries(said).filter(([, value]) => value !== undefined && value !== '')) as Said
  task.lastAnswer = { kind, ...kept, by: principalOfSource(source), at }
  return task.lastAnswer
}
