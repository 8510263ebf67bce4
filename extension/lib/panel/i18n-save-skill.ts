/** What the panel says about saving a finished task as a skill, in English and Simplified Chinese. */
export const saveSkillEn = {
  'save.offer': 'Save as skill',
  'save.title': 'Save this task as a skill',
  'save.hint': 'The steps that worked become one of your own skills, which Tandem can run again without an LLM, asking for the same approvals. What you typed is not kept: it is asked for at each run.',
  'save.name': 'Name',
  'save.slug': 'Short name (optional)',
  'save.slugHint': 'Lowercase letters, digits and dashes; made from the name when left empty.',
  'save.submit': 'Save skill',
  'save.cancel': 'Cancel',
  'save.overwrite': 'Overwrite “{slug}”',
  'save.conflict': 'A skill called “{slug}” exists already. Overwrite it, or choose another short name.',
  'save.badSlug': 'The short name may hold only lowercase letters, digits and dashes, and starts with a letter or digit.',
  'save.saved': 'Saved as the skill “{slug}”.',
  'save.scripted': 'It runs its script without an LLM.',
  'save.shipped': '“{slug}” is a skill that comes with Tandem and is never overwritten: choose another short name.',
}

export const saveSkillZh: Record<keyof typeof saveSkillEn, string> = {
  'save.offer': '保存为技能',
  'save.title': '把这个任务保存为技能',
  'save.hint': '成功的步骤会成为你自己的技能，Tandem 之后无需 LLM 即可再次执行，并照样请你批准。你输入的内容不会保存，每次运行时再询问。',
  'save.name': '名称',
  'save.slug': '简称（可选）',
  'save.slugHint': '只用小写字母、数字和短横线；留空时由名称生成。',
  'save.submit': '保存技能',
  'save.cancel': '取消',
  'save.overwrite': '覆盖“{slug}”',
  'save.conflict': '已有名为“{slug}”的技能。可以覆盖它，或换一个简称。',
  'save.badSlug': '简称只能包含小写字母、数字和短横线，并以字母或数字开头。',
  'save.saved': '已保存为技能“{slug}”。',
  'save.scripted': '它按脚本运行，不需要 LLM。',
  'save.shipped': '“{slug}”是 Tandem 自带的技能，不会被覆盖：请换一个简称。',
}
