/** antd 5 in Chinese: Select, two Switches, DatePicker, Upload, a confirm modal, a hover Dropdown, Radio buttons, a form. */
import { App, Button, ConfigProvider, DatePicker, Dropdown, Form, Input, Radio, Select, Switch, Upload } from 'antd'
import zhCN from 'antd/es/locale/zh_CN'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { CITIES, pick, post, zoo } from './zoo'

dayjs.locale('zh-cn')

const submit = (values: () => unknown, label = '提交') => h(Button, { type: 'primary', onClick: () => post('/submit', values()) }, label)

function CitySelect() {
  const [city, setCity] = useState<string>()
  return h(Form, { layout: 'vertical', style: { width: 320 } },
    h(Form.Item, { label: '城市', htmlFor: 'city' }, h(Select, { id: 'city', placeholder: '请选择城市', value: city, onChange: (v: unknown) => setCity(v as string), options: CITIES.map((c) => ({ value: c, label: c })) })),
    submit(() => ({ city })))
}

function SearchSelect() {
  const [person, setPerson] = useState<string>()
  const people = ['张伟', '王芳', '李娜', '刘洋', '陈静']
  return h(Form, { layout: 'vertical', style: { width: 320 } },
    h(Form.Item, { label: '负责人', htmlFor: 'owner' }, h(Select, { id: 'owner', showSearch: true, placeholder: '搜索负责人', value: person, onChange: (v: unknown) => setPerson(v as string), options: people.map((c) => ({ value: c, label: c })) })),
    submit(() => ({ owner: person })))
}

function Switches() {
  const [mail, setMail] = useState(true)
  const [sms, setSms] = useState(false)
  return h(Form, { layout: 'horizontal', style: { width: 320 } },
    h(Form.Item, { label: '邮件通知', htmlFor: 'mail' }, h(Switch, { id: 'mail', checked: mail, onChange: setMail, checkedChildren: '开', unCheckedChildren: '关' })),
    h(Form.Item, { label: '短信通知', htmlFor: 'sms' }, h(Switch, { id: 'sms', checked: sms, onChange: setSms, checkedChildren: '开', unCheckedChildren: '关' })),
    submit(() => ({ mail, sms }), '保存'))
}

function Dates() {
  const [date, setDate] = useState('')
  return h(Form, { layout: 'vertical', style: { width: 320 } },
    h(Form.Item, { label: '入住日期', htmlFor: 'checkin' }, h(DatePicker, { id: 'checkin', placeholder: '请选择日期', defaultPickerValue: dayjs('2026-12-01'), onChange: (_: unknown, s: string | string[]) => setDate(String(s)) })),
    submit(() => ({ date })))
}

function Uploads() {
  return h(Form, { layout: 'vertical' },
    h(Form.Item, { label: '合同附件' }, h(Upload, { action: `${zoo.base}/upload`, name: 'file' }, h(Button, null, '点击上传'))))
}

function Confirm() {
  const { modal } = App.useApp()
  const remove = () => modal.confirm({ title: '确定删除这个地址吗？', content: '删除后无法恢复。', onOk: () => post('/address/2', {}, 'DELETE') })
  return h('div', null, h('p', null, '北京市海淀区中关村大街 1 号'), h('p', null, '上海市浦东新区世纪大道 100 号 ', h(Button, { danger: true, onClick: remove }, '删除地址')))
}

function HoverMenu() {
  const items = [{ key: 'export', label: '导出报表' }, { key: 'print', label: '打印' }, { key: 'share', label: '分享' }]
  return h('div', { style: { display: 'flex', gap: 24 } }, h('span', null, '销售月报'),
    h(Dropdown, { menu: { items, onClick: ({ key }: { key: unknown }) => post(`/${key}`, { report: '销售月报' }) } }, h('a', { onClick: (e: { preventDefault(): void }) => e.preventDefault() }, '更多操作 ▾')))
}

function Radios() {
  const [way, setWay] = useState('标准配送')
  return h(Form, { layout: 'vertical' },
    h(Form.Item, { label: '配送方式' }, h(Radio.Group, { optionType: 'button', value: way, onChange: (e: { target: { value?: unknown } }) => setWay(String(e.target.value)), options: ['标准配送', '次日达', '门店自提'] })),
    submit(() => ({ delivery: way })))
}

function Address() {
  const [form] = Form.useForm()
  return h(Form, { form, layout: 'vertical', style: { width: 360 }, onFinish: (v: unknown) => post('/submit', v) },
    h(Form.Item, { label: '收件人', name: 'name' }, h(Input, { placeholder: '请输入收件人' })),
    h(Form.Item, { label: '手机号', name: 'phone' }, h(Input, { placeholder: '请输入手机号' })),
    h(Form.Item, { label: '详细地址', name: 'address' }, h(Input.TextArea, { placeholder: '街道、门牌号' })),
    h(Button, { type: 'primary', htmlType: 'submit' }, '保存地址'))
}

const PAGES: Record<string, () => ReactNode> = {
  'antd-select': CitySelect, 'antd-search-select': SearchSelect, 'antd-switches': Switches, 'antd-date': Dates, 'antd-upload': Uploads,
  'antd-confirm': Confirm, 'antd-hover-menu': HoverMenu, 'antd-radio': Radios, 'antd-form': Address,
}

createRoot(document.getElementById('app')!).render(h(ConfigProvider, { locale: zhCN }, h(App, null, h(pick(PAGES)))))
