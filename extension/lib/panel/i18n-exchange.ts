/** A question the task asked and the person's answer, as the timeline shows them between the steps. */
export const exchangeEn = {
  'exchange.asked': 'Tandem asked',
  'exchange.answered': 'You answered',
  'exchange.siteAsked': 'Tandem asked to act on {origin}',
  'exchange.siteAllowed': 'You allowed {origin}.',
  'exchange.siteRefused': 'You did not allow {origin}.',
}

export const exchangeZh: Record<keyof typeof exchangeEn, string> = {
  'exchange.asked': 'Tandem 问',
  'exchange.answered': '你回答',
  'exchange.siteAsked': 'Tandem 请求在 {origin} 上操作',
  'exchange.siteAllowed': '你允许了 {origin}。',
  'exchange.siteRefused': '你没有允许 {origin}。',
}
