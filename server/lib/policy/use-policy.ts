// Placeholder until the policy module lands; replaced by the real rules.
const HIGH = /\b(place order|delete|submit|pay|send|publish|buy)\b|提交|删除|支付|下单|购买|发送|发布/i
export const usePolicy = () => ({
  assess(input: { type: string; params: Record<string, unknown>; target?: { by: string; value: unknown }; declared?: 'low' | 'medium' | 'high' }) {
    const text = String(input.target?.value ?? '')
    if (input.declared === 'high' || (input.type === 'click' && HIGH.test(text))) return { risk: 'high' as const, reasons: ['placeholder'] }
    return { risk: 'low' as const, reasons: [] }
  },
})
