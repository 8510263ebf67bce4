/** antd 5, Element Plus and Vant, in Chinese. */
import type { Page } from 'playwright-core'
import type { Task } from '../types'

const CN = /提\s*交/
const press = (p: Page, name: string | RegExp) => p.getByRole('button', { name }).click()

/**
 * Opens a picker by its field and clicks a day in it, opening it again when the popup did not come up or closed
 * before the click (a person clicks the field again): a popup that misses one click must not fail the baseline.
 */
async function pickDay(p: Page, field: string, day: string) {
  for (let attempt = 1; ; attempt++) {
    await p.getByPlaceholder(field).click()
    try {
      return await p.getByTitle(day).click({ timeout: 2500 })
    } catch (error) {
      if (attempt === 3) throw error
      await p.keyboard.press('Escape')
    }
  }
}
/** The file a person picks in the chooser the button opens. */
const choose = async (p: Page, button: string | RegExp, file: string) => {
  const [chooser] = await Promise.all([p.waitForEvent('filechooser'), p.getByRole('button', { name: button }).first().click()])
  await chooser.setFiles(file)
}

export const ANTD: Task[] = [
  { id: 'antd-select', family: 'antd', entry: 'antd', lang: 'zh', title: '收货信息', goal: '把城市选为上海，然后提交', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: ['城市', '请选择城市'], option: '上海' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByLabel('城市').click(); await p.getByTitle('上海', { exact: true }).click(); await press(p, CN) },
    expect: { request: 'POST /submit', body: { city: '上海' } } },
  { id: 'antd-search-select', family: 'antd', entry: 'antd', lang: 'zh', title: '分派工单', goal: '把负责人设为李娜并提交', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: ['负责人', '搜索负责人'], option: '李娜' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByLabel('负责人').fill('李'); await p.getByTitle('李娜', { exact: true }).click(); await press(p, CN) },
    expect: { request: 'POST /submit', body: { owner: '李娜' } } },
  { id: 'antd-switches', family: 'antd', entry: 'antd', lang: 'zh', title: '通知设置', goal: '打开短信通知（邮件通知保持不变），然后保存', needs: ['names'],
    plan: [{ type: 'click', find: '短信通知' }, { type: 'click', find: '保存' }],
    baseline: async (p) => { await p.getByLabel('短信通知').click(); await press(p, /保\s*存/) },
    expect: { request: 'POST /submit', body: { mail: true, sms: true } } },
  { id: 'antd-date', family: 'date-picker', entry: 'antd', lang: 'zh', title: '酒店预订', goal: '把入住日期选为 2026 年 12 月 15 日，然后提交', needs: ['container', 'settle'],
    plan: [{ type: 'click', find: ['入住日期', '请选择日期'] }, { type: 'click', find: '15' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await pickDay(p, '请选择日期', '2026-12-15'); await press(p, CN) },
    expect: { request: 'POST /submit', body: { date: '2026-12-15' } } },
  { id: 'antd-upload', family: 'upload', entry: 'antd', lang: 'zh', title: '上传合同', goal: '把合同 contract.pdf 上传为合同附件', needs: ['upload'],
    plan: [{ type: 'upload', find: '点击上传', file: 'contract.pdf' }],
    baseline: (p, files) => choose(p, '点击上传', `${files}/contract.pdf`),
    expect: { request: 'POST /upload', contains: ['filename="contract.pdf"'] } },
  { id: 'antd-confirm', family: 'antd', entry: 'antd', lang: 'zh', title: '收货地址', goal: '删除上海的那个收货地址', needs: ['settle'],
    plan: [{ type: 'click', find: '删除地址' }, { type: 'click', find: '确定' }],
    baseline: async (p) => { await press(p, '删除地址'); await press(p, /确\s*定/) },
    expect: { request: 'DELETE /address/2' } },
  { id: 'antd-hover-menu', family: 'hover', entry: 'antd', lang: 'zh', title: '报表', goal: '导出销售月报', needs: ['hover', 'settle'],
    plan: [{ type: 'hover', find: '更多操作' }, { type: 'click', find: '导出报表' }],
    baseline: async (p) => { await p.getByText('更多操作').hover(); await p.getByText('导出报表').click() },
    expect: { request: 'POST /export', body: { report: '销售月报' } } },
  { id: 'antd-radio', family: 'antd', entry: 'antd', lang: 'zh', title: '确认订单', goal: '配送方式选次日达，然后提交', needs: [],
    plan: [{ type: 'click', find: '次日达' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByText('次日达').click(); await press(p, CN) },
    expect: { request: 'POST /submit', body: { delivery: '次日达' } } },
  { id: 'antd-form', family: 'antd', entry: 'antd', lang: 'zh', title: '新增地址', goal: '新增收件人张三、手机号 13912345678、地址“中关村大街 27 号”的收货地址', needs: [],
    plan: [{ type: 'type', find: ['收件人', '请输入收件人'], text: '张三' }, { type: 'type', find: ['手机号', '请输入手机号'], text: '13912345678' },
      { type: 'type', find: ['详细地址', '街道、门牌号'], text: '中关村大街 27 号' }, { type: 'click', find: '保存地址' }],
    baseline: async (p) => {
      await p.getByLabel('收件人').fill('张三'); await p.getByLabel('手机号').fill('13912345678'); await p.getByLabel('详细地址').fill('中关村大街 27 号'); await press(p, '保存地址')
    },
    expect: { request: 'POST /submit', body: { name: '张三', phone: '13912345678', address: '中关村大街 27 号' } } },
]

export const ELEMENT: Task[] = [
  { id: 'el-select', family: 'element-plus', entry: 'element', lang: 'zh', title: '收货信息', goal: '把城市选为深圳，然后提交', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: ['城市', '请选择城市'], option: '深圳' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByText('请选择城市').click(); await p.getByRole('option', { name: '深圳' }).click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { city: '深圳' } } },
  { id: 'el-date', family: 'date-picker', entry: 'element', lang: 'zh', title: '出行计划', goal: '出发日期选 2026 年 12 月 15 日，然后提交', needs: ['container', 'settle'],
    plan: [{ type: 'click', find: ['选择日期', '出发日期'] }, { type: 'click', find: '15' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByPlaceholder('选择日期').click(); await p.locator('.el-date-table').getByText('15', { exact: true }).click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { date: '2026-12-15' } } },
  { id: 'el-upload', family: 'upload', entry: 'element', lang: 'zh', title: '实名认证', goal: '上传身份证照片 id-photo.png', needs: ['upload'],
    plan: [{ type: 'upload', find: '点击上传', file: 'id-photo.png' }],
    baseline: (p, files) => choose(p, '点击上传', `${files}/id-photo.png`),
    expect: { request: 'POST /upload', contains: ['filename="id-photo.png"'] } },
  { id: 'el-switch', family: 'element-plus', entry: 'element', lang: 'zh', title: '会员设置', goal: '打开自动续费（电子发票不动），然后保存', needs: ['names'],
    plan: [{ type: 'click', find: '自动续费' }, { type: 'click', find: '保存' }],
    baseline: async (p) => { await p.locator('.el-form-item', { hasText: '自动续费' }).locator('.el-switch').click(); await press(p, '保存') },
    expect: { request: 'POST /submit', body: { renew: true, invoice: true } } },
  { id: 'el-hover-menu', family: 'hover', entry: 'element', lang: 'zh', title: '仓库', goal: '导出库存清单', needs: ['hover', 'settle'],
    plan: [{ type: 'hover', find: '更多' }, { type: 'click', find: '导出' }],
    baseline: async (p) => { await p.getByText('更多', { exact: true }).hover(); await p.getByRole('menuitem', { name: '导出' }).click() },
    expect: { request: 'POST /export', body: { list: '库存清单' } } },
  { id: 'el-checkbox', family: 'element-plus', entry: 'element', lang: 'zh', title: '课程报名', goal: '上课时间选周二和周四，然后提交', needs: [],
    plan: [{ type: 'click', find: '周二' }, { type: 'click', find: '周四' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByText('周二').click(); await p.getByText('周四').click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { days: ['周二', '周四'] } } },
  { id: 'el-message-box', family: 'element-plus', entry: 'element', lang: 'zh', title: '我的订单', goal: '取消订单 A1024', needs: ['settle'],
    plan: [{ type: 'click', find: '取消订单' }, { type: 'click', find: '确定' }],
    baseline: async (p) => { await press(p, '取消订单'); await press(p, '确定') },
    expect: { request: 'POST /order/cancel', body: { order: 'A1024' } } },
]

export const VANT: Task[] = [
  { id: 'vant-picker', family: 'vant', entry: 'vant', lang: 'zh', title: '选择城市', goal: '城市选广州，然后提交', needs: ['settle'],
    plan: [{ type: 'click', find: ['选择城市', '城市'] }, { type: 'click', find: '广州' }, { type: 'click', find: '确认' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByPlaceholder('选择城市').click(); await p.getByText('广州').click(); await p.getByText('确认').click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { city: '广州' } } },
  { id: 'vant-checkbox', family: 'vant', entry: 'vant', lang: 'zh', title: '注册', goal: '同意用户协议并注册', needs: [],
    plan: [{ type: 'click', find: '我已阅读并同意用户协议' }, { type: 'click', find: '注册' }],
    baseline: async (p) => { await p.getByText('我已阅读并同意用户协议').click(); await press(p, '注册') },
    expect: { request: 'POST /submit', body: { agreed: true } } },
  { id: 'vant-action-sheet', family: 'vant', entry: 'vant', lang: 'zh', title: '确认订单', goal: '配送方式选京东物流，然后提交', needs: ['settle'],
    plan: [{ type: 'click', find: '配送方式' }, { type: 'click', find: '京东物流' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByText('配送方式').click(); await p.getByText('京东物流').click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { delivery: '京东物流' } } },
  { id: 'vant-switch', family: 'vant', entry: 'vant', lang: 'zh', title: '通用设置', goal: '打开深色模式并保存设置', needs: ['names'],
    plan: [{ type: 'click', find: '深色模式' }, { type: 'click', find: '保存设置' }],
    baseline: async (p) => { await p.getByRole('switch').click(); await press(p, '保存设置') },
    expect: { request: 'POST /submit', body: { dark: true } } },
  { id: 'vant-field', family: 'vant', entry: 'vant', lang: 'zh', title: '收货人', goal: '收货人填王伟，联系电话 13700001111，保存', needs: [],
    plan: [{ type: 'type', find: ['收货人', '请填写收货人姓名'], text: '王伟' }, { type: 'type', find: ['联系电话', '请填写手机号'], text: '13700001111' }, { type: 'click', find: '保存' }],
    baseline: async (p) => { await p.getByLabel('收货人').fill('王伟'); await p.getByLabel('联系电话').fill('13700001111'); await press(p, '保存') },
    expect: { request: 'POST /submit', body: { name: '王伟', tel: '13700001111' } } },
]
