/** Arco, TDesign and MUI (Chinese words). */
import type { Page } from 'playwright-core'
import type { Task } from '../types'

const press = (p: Page, name: string | RegExp) => p.getByRole('button', { name }).click()

export const ARCO: Task[] = [
  { id: 'arco-select', family: 'arco', entry: 'arco', lang: 'zh', title: '个人信息', goal: '所在城市选北京，然后提交', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: ['所在城市', '请选择城市'], option: '北京' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByText('请选择城市').first().click(); await p.getByRole('option', { name: '北京' }).click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { city: '北京' } } },
  { id: 'arco-date', family: 'date-picker', entry: 'arco', lang: 'zh', title: '预约', goal: '预约日期选 2026 年 12 月 15 日，然后提交', needs: ['container', 'settle'],
    plan: [{ type: 'click', find: ['请选择日期', '预约日期'] }, { type: 'click', find: '15' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByPlaceholder('请选择日期').click(); await p.locator('.arco-picker-cell-in-view').getByText('15', { exact: true }).click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { date: '2026-12-15' } } },
  { id: 'arco-switch', family: 'arco', entry: 'arco', lang: 'zh', title: '外观', goal: '打开夜间模式并保存', needs: ['names'],
    plan: [{ type: 'click', find: '夜间模式' }, { type: 'click', find: '保存' }],
    baseline: async (p) => { await p.getByRole('switch').click(); await press(p, '保存') },
    expect: { request: 'POST /submit', body: { night: true } } },
  { id: 'arco-form', family: 'arco', entry: 'arco', lang: 'zh', title: '编辑资料', goal: '把昵称改成“小林”，简介写“喜欢爬山”，保存资料', needs: [],
    plan: [{ type: 'type', find: ['请输入昵称', '昵称'], text: '小林' }, { type: 'type', find: ['介绍一下自己', '个人简介'], text: '喜欢爬山' }, { type: 'click', find: '保存资料' }],
    baseline: async (p) => { await p.getByPlaceholder('请输入昵称').fill('小林'); await p.getByPlaceholder('介绍一下自己').fill('喜欢爬山'); await press(p, '保存资料') },
    expect: { request: 'POST /submit', body: { nick: '小林', bio: '喜欢爬山' } } },
  { id: 'arco-popconfirm', family: 'arco', entry: 'arco', lang: 'zh', title: '草稿箱', goal: '发布草稿“年终总结”', needs: ['settle'],
    plan: [{ type: 'click', find: '发布文章' }, { type: 'click', find: '发布' }],
    baseline: async (p) => { await press(p, '发布文章'); await p.getByRole('button', { name: '发布', exact: true }).click() },
    expect: { request: 'POST /publish', body: { draft: '年终总结' } } },
]

export const TDESIGN: Task[] = [
  { id: 'td-select', family: 'tdesign', entry: 'tdesign', lang: 'zh', title: '收货信息', goal: '收货城市选广州，然后提交', needs: ['custom-select', 'settle'],
    plan: [{ type: 'select', find: ['收货城市', '请选择'], option: '广州' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByPlaceholder('请选择').click(); await p.getByText('广州', { exact: true }).click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { city: '广州' } } },
  { id: 'td-radio', family: 'tdesign', entry: 'tdesign', lang: 'zh', title: '支付', goal: '支付方式选支付宝，然后提交', needs: [],
    plan: [{ type: 'click', find: '支付宝' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByText('支付宝').click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { pay: '支付宝' } } },
  { id: 'td-form', family: 'tdesign', entry: 'tdesign', lang: 'zh', title: '意见反馈', goal: '反馈：标题“无法登录”，描述“输入验证码后页面没有反应”', needs: [],
    plan: [{ type: 'type', find: ['一句话概括', '标题'], text: '无法登录' }, { type: 'type', find: ['请详细描述', '问题描述'], text: '输入验证码后页面没有反应' }, { type: 'click', find: '提交反馈' }],
    baseline: async (p) => { await p.getByPlaceholder('一句话概括').fill('无法登录'); await p.getByPlaceholder('请详细描述').fill('输入验证码后页面没有反应'); await press(p, '提交反馈') },
    expect: { request: 'POST /submit', body: { title: '无法登录', body: '输入验证码后页面没有反应' } } },
  { id: 'td-switch', family: 'tdesign', entry: 'tdesign', lang: 'zh', title: '消息设置', goal: '打开消息免打扰并保存', needs: ['names'],
    plan: [{ type: 'click', find: '消息免打扰' }, { type: 'click', find: '保存' }],
    baseline: async (p) => { await p.getByRole('switch').click(); await press(p, '保存') },
    expect: { request: 'POST /submit', body: { quiet: true } } },
  { id: 'td-dialog', family: 'tdesign', entry: 'tdesign', lang: 'zh', title: '会员', goal: '退订会员', needs: ['settle'],
    plan: [{ type: 'click', find: '退订会员' }, { type: 'click', find: '确认退订' }],
    baseline: async (p) => { await press(p, '退订会员'); await press(p, '确认退订') },
    expect: { request: 'POST /unsubscribe', body: { plan: 'monthly' } } },
]

export const MUI: Task[] = [
  { id: 'mui-select', family: 'mui', entry: 'mui', lang: 'zh', title: '收货信息', goal: '城市选上海，然后提交', needs: ['names', 'custom-select', 'settle'],
    plan: [{ type: 'select', find: '城市', option: '上海' }, { type: 'click', find: '提交' }],
    baseline: async (p) => { await p.getByRole('combobox', { name: '城市' }).click(); await p.getByRole('option', { name: '上海' }).click(); await press(p, '提交') },
    expect: { request: 'POST /submit', body: { city: '上海' } } },
  { id: 'mui-switch', family: 'mui', entry: 'mui', lang: 'zh', title: '连接', goal: '打开蓝牙（无线网络不动），然后保存', needs: [],
    plan: [{ type: 'click', find: '蓝牙' }, { type: 'click', find: '保存' }],
    baseline: async (p) => { await p.getByLabel('蓝牙').click(); await press(p, '保存') },
    expect: { request: 'POST /submit', body: { wifi: true, bluetooth: true } } },
  { id: 'mui-autocomplete', family: 'mui', entry: 'mui', lang: 'zh', title: '火车票', goal: '到达车站选杭州东站，然后查询车次', needs: ['settle'],
    plan: [{ type: 'type', find: '到达车站', text: '杭州' }, { type: 'click', find: '杭州东站' }, { type: 'click', find: '查询车次' }],
    baseline: async (p) => { await p.getByLabel('到达车站').fill('杭州'); await p.getByRole('option', { name: '杭州东站' }).click(); await press(p, '查询车次') },
    expect: { request: 'POST /submit', body: { station: '杭州东站' } } },
  { id: 'mui-menu', family: 'mui', entry: 'mui', lang: 'zh', title: '文件', goal: '下载季度预算.xlsx 的副本', needs: ['settle'],
    plan: [{ type: 'click', find: '文件操作' }, { type: 'click', find: '下载副本' }],
    baseline: async (p) => { await press(p, '文件操作'); await p.getByRole('menuitem', { name: '下载副本' }).click() },
    expect: { request: 'POST /download', body: { file: '季度预算.xlsx' } } },
  { id: 'mui-dialog', family: 'mui', entry: 'mui', lang: 'zh', title: '团队', goal: '把王芳移出团队', needs: ['settle'],
    plan: [{ type: 'click', find: '移除成员' }, { type: 'click', find: '确认移除' }],
    baseline: async (p) => { await press(p, '移除成员'); await press(p, '确认移除') },
    expect: { request: 'POST /member/remove', body: { member: '王芳' } } },
]
