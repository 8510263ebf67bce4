/** The banner at the top of the panel for every task that waits for the person. */
export const waitingEn = {
  'waiting.label': 'Waiting for you',
  'waiting.confirm': 'Waiting for your approval: {goal}',
  'waiting.ask': 'Waiting for your answer: {goal}',
  'waiting.site': 'Waiting for you to allow a site: {goal}',
  'waiting.open': 'Open',
  'waiting.shown': 'Show',
}

export const waitingZh: Record<keyof typeof waitingEn, string> = {
  'waiting.label': '等你处理',
  'waiting.confirm': '等你批准：{goal}',
  'waiting.ask': '等你回答：{goal}',
  'waiting.site': '等你允许一个网站：{goal}',
  'waiting.open': '打开',
  'waiting.shown': '查看',
}
