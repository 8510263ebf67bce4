/** What the panel says about a skill's parameters and the person's own skills, in English and Simplified Chinese. */
export const skillParamsEn = {
  'start.params': 'Fill in for this run',
  'start.paramsHint': 'The skill asks for these each time; they are not saved in it.',
  'start.needParams': 'Fill in {names} for the skill first.',
  'start.skillOwn': 'Saved by you',
  'start.paramsSep': ', ',
}

export const skillParamsZh: Record<keyof typeof skillParamsEn, string> = {
  'start.params': '本次运行需填写',
  'start.paramsHint': '技能每次运行都会询问这些内容，它们不会保存在技能中。',
  'start.needParams': '请先为技能填写：{names}。',
  'start.skillOwn': '你保存的',
  'start.paramsSep': '、',
}
