import { defineEventHandler, getValidatedRouterParams } from 'h3'
import { SkillParams } from '#protocol'
import { useSkills } from '../../lib/app/use-skills'
import { notFound } from '../../lib/http/errors'

export default defineEventHandler(async (event) => {
  const { slug } = await getValidatedRouterParams(event, SkillParams.parse)
  const skill = (await useSkills()).get(slug)
  if (!skill) throw notFound(`No skill ${slug}.`)
  return { ok: true, data: skill }
})
