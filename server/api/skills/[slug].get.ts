import { defineEventHandler, getValidatedRouterParams } from 'h3'
import { z } from 'zod'
import { SkillSlug } from '#protocol'
import { useSkills } from '../../lib/app/use-skills'
import { notFound } from '../../lib/http/errors'

const Params = z.strictObject({ slug: SkillSlug })

export default defineEventHandler(async (event) => {
  const { slug } = await getValidatedRouterParams(event, Params.parse)
  const skill = (await useSkills()).get(slug)
  if (!skill) throw notFound(`No skill ${slug}.`)
  return { ok: true, data: skill }
})
