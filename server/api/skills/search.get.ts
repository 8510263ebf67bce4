import { defineEventHandler, getValidatedQuery } from 'h3'
import { SkillsSearchQuery } from '#protocol'
import { useSkills } from '../../lib/app/use-skills'

export default defineEventHandler(async (event) => {
  const { q, site, limit } = await getValidatedQuery(event, SkillsSearchQuery.parse)
  return { ok: true, data: (await useSkills()).search(q, { site, limit }) }
})
