/** Step numbers, the person's own choices and typed text, as the panel words them. */
export const wordsEn = {
  'words.resultByYou': 'You stopped this task',
  'words.yourReason': 'Your reason: {reason}',
  'words.typed': 'typed “{text}”',
  'words.typedSecret': 'typed your password (not shown)',
  'words.typedNamedSecret': 'typed your saved secret “{name}” (not shown)',
  'words.code': 'code {code}',
  'words.yourPassword': 'your password',
  // The dictionary's own language: explain() words the server's errors through the protocol's describers by it.
  'words.lang': 'en',
  'words.yourSecret': 'your saved secret {name}',
}

export const wordsZh: Record<keyof typeof wordsEn, string> = {
  'words.resultByYou': '你停止了这个任务',
  'words.yourReason': '你的理由：{reason}',
  'words.typed': '输入了“{text}”',
  'words.typedSecret': '输入了你的密码（不显示）',
  'words.typedNamedSecret': '输入了你保存的机密“{name}”（不显示）',
  'words.code': '代码 {code}',
  'words.yourPassword': '你的密码',
  'words.lang': 'zh-CN',
  'words.yourSecret': '你保存的机密 {name}',
}
