import type { AppTask } from '../types'
import { LEGACY } from './legacy'
import { TODOMVC } from './todomvc'

export const TASKS: AppTask[] = [...TODOMVC, ...LEGACY]
