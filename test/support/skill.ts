import type { Skill } from '#protocol'

/** A skill with nothing but its slug and what is given: the rest as a SKILL.md that says no more would have it. */
export const skill = (slug: string, fields: Partial<Skill> = {}): Skill => ({
  slug,
  name: slug,
  description: `The ${slug} procedure.`,
  sites: [],
  tags: [],
  risk: 'low',
  'allowed-actions': [],
  'risky-steps': [],
  body: '',
  ...fields,
})
