import { defineEventHandler, getValidatedQuery } from 'h3'
import { TasksQuery } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'

export default defineEventHandler(async (event) => {
  const query = await getValidatedQuery(event, TasksQuery.parse)
  return { ok: true, data: await useEngine().tasks(query) }
})
