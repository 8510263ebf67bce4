import { defineEventHandler, getValidatedQuery } from 'h3'
import { TaskIdQuery } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'

export default defineEventHandler(async (event) => {
  const { taskId } = await getValidatedQuery(event, TaskIdQuery.parse)
  return { ok: true, data: await useEngine().status(taskId) }
})
