/** What the panel says about saving a finished task as a skill, in English and Simplified Chinese. */
export const saveSkillEn = {
  'save.offer': 'Save as skill',
  'save.title': 'Save this task as a skill',
  'save.hint': 'The steps that worked become one of your own skills, which Tandem can run again without an LLM, asking for the same approvals. What you typed is not kept: it is asked for at each run.',
  'save.name': 'Name',
  'save.submit': 'Save skill',
  'save.cancel': 'Cancel',
  'save.overwrite': 'Replace it',
  'save.keepBoth': 'Keep both',
  'save.conflict': 'You have a skill called “{name}” already. Replace it with this one, or keep both.',
  'save.saved': 'Saved as the skill “{name}”.',
  'save.scripted': 'It runs its script without an LLM.',
}

export const saveSkillZh: Record<keyof typeof saveSkillEn, string> = {
  'save.offer': '保存为技能',
  'save.title': '把这个任务保存为技能',
  'save.hint': '成功的步骤会成为你自己的技能，Tandem 之后无需 LLM 即可再次执行，并照样请你批准。你输入的内容不会保存，每次运行时再询问。',
  'save.name': '名称',
  'save.submit': '保存技能',
  'save.cancel': '取消',
  'save.overwrite': '替换它',
  'save.keepBoth': '两个都保留',
  'save.conflict': '你已有名为“{name}”的技能。可以用这个替换它，或两个都保留。',
  'save.saved': '已保存为技能“{name}”。',
  'save.scripted': '它按脚本运行，不需要 LLM。',
}
