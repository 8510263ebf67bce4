/** What the panel says about writes the person always allows on a site, in English and Simplified Chinese. */
export const allowedEn = {
  'confirm.always': 'Always allow this on this site',
  'confirm.alwaysHint': 'From now on these are sent without asking, * standing for any record. You can remove them under “Allowed on sites”.',
  'confirm.allowedFromNow': 'Approved. From now on these requests are sent without asking.',
  'confirm.forTask': 'Allow requests like this for the rest of this task',
  'confirm.forTaskHint': 'Only this task sends them without asking, * standing for any record; the next task asks again.',
  'confirm.allowedForTask': 'Approved. Requests like this are sent without asking for the rest of this task.',
  'allowed.title': 'Allowed on sites',
  'allowed.hint': 'Requests Tandem lets a page send without asking, because you ticked “Always allow this on this site”.',
  'allowed.empty': 'None. Tandem asks before every request that could change something.',
  'allowed.operation': 'operation {name}',
  'allowed.unnamed': 'an unnamed operation',
  'allowed.remove': 'Remove',
  'allowed.removed': 'Removed. Tandem asks again before a page sends {rule}.',
}

export const allowedZh: Record<keyof typeof allowedEn, string> = {
  'confirm.always': '以后在此网站上始终允许这类请求',
  'confirm.alwaysHint': '以后这些请求会直接发送，不再询问；* 代表任意一条记录。可以在“已允许的网站请求”中移除。',
  'confirm.allowedFromNow': '已批准。以后这类请求会直接发送，不再询问。',
  'confirm.forTask': '本任务中此类请求都允许',
  'confirm.forTaskHint': '只有本任务会直接发送这些请求，不再询问；* 代表任意一条记录。下一个任务会重新询问。',
  'confirm.allowedForTask': '已批准。本任务接下来的此类请求会直接发送，不再询问。',
  'allowed.title': '已允许的网站请求',
  'allowed.hint': '因为你勾选了“以后在此网站上始终允许这类请求”，Tandem 会让网页直接发送这些请求，不再询问。',
  'allowed.empty': '没有。网页发送任何可能改变数据的请求之前，Tandem 都会先问你。',
  'allowed.operation': '操作 {name}',
  'allowed.unnamed': '未命名的操作',
  'allowed.remove': '移除',
  'allowed.removed': '已移除。网页再发送 {rule} 之前，Tandem 会重新询问。',
}
