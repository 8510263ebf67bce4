import { planModel, type PlanModel } from '../support/plan-model'
import type { Task } from './types'

export type { Looks, PlanModel as ZooModel } from '../support/plan-model'
export { tabFor } from '../support/plan-model'

/** The shared scripted model on the zoo's pages, served under /z/<folder>/. */
export const zooModel = (tasks: Task[], siteUrl: () => string): PlanModel => planModel(tasks, siteUrl, 'z')
