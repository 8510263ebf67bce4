/** MUI 7 (Chinese words): Select (named by aria-labelledby), Switch, Autocomplete, a Menu, a Dialog. */
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, InputLabel, Menu, MenuItem, Select, Switch, TextField } from '@mui/material'
import { createElement as h, Fragment, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { CITIES, pick, post } from './zoo'

const submit = (values: () => unknown, label = '提交') => h(Button, { variant: 'contained', onClick: () => post('/submit', values()) }, label)
const box = (...children: ReactNode[]) => h('div', { style: { width: 360, display: 'flex', flexDirection: 'column', gap: 16 } }, ...children)

function CitySelect() {
  const [city, setCity] = useState('')
  return box(h(FormControl, { fullWidth: true }, h(InputLabel, { id: 'city-label' }, '城市'),
    h(Select, { labelId: 'city-label', id: 'city', value: city, label: '城市', onChange: (e: { target: { value: unknown } }) => setCity(String(e.target.value)) }, CITIES.map((c) => h(MenuItem, { key: c, value: c }, c)))),
    submit(() => ({ city })))
}

function Switches() {
  const [wifi, setWifi] = useState(true)
  const [bt, setBt] = useState(false)
  return box(h(FormControlLabel, { control: h(Switch, { checked: wifi, onChange: (_: unknown, v: boolean) => setWifi(v) }), label: '无线网络' }),
    h(FormControlLabel, { control: h(Switch, { checked: bt, onChange: (_: unknown, v: boolean) => setBt(v) }), label: '蓝牙' }),
    submit(() => ({ wifi, bluetooth: bt }), '保存'))
}

function Auto() {
  const [value, setValue] = useState<string | null>(null)
  const stations = ['北京南站', '上海虹桥站', '广州南站', '深圳北站', '杭州东站', '南京南站']
  return box(h(Autocomplete, { options: stations, value, onChange: (_: unknown, v: unknown) => setValue(v as string | null), renderInput: (p: object) => h(TextField, { ...p, label: '到达车站' }) }),
    submit(() => ({ station: value }), '查询车次'))
}

function Menus() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const act = (what: string) => (setAnchor(null), post(`/${what}`, { file: '季度预算.xlsx' }))
  return h('div', null, h('span', null, '季度预算.xlsx '),
    h(Button, { id: 'more', 'aria-haspopup': 'true', 'aria-expanded': anchor ? 'true' : undefined, onClick: (e: { currentTarget: HTMLElement }) => setAnchor(e.currentTarget) }, '文件操作'),
    h(Menu, { anchorEl: anchor, open: !!anchor, onClose: () => setAnchor(null) }, h(MenuItem, { onClick: () => act('rename') }, '重命名'), h(MenuItem, { onClick: () => act('download') }, '下载副本'), h(MenuItem, { onClick: () => act('move') }, '移动到…')))
}

function Confirm() {
  const [open, setOpen] = useState(false)
  return h(Fragment, null, h('p', null, '团队成员：王芳（管理员）'), h(Button, { color: 'error', variant: 'outlined', onClick: () => setOpen(true) }, '移除成员'),
    h(Dialog, { open, onClose: () => setOpen(false) }, h(DialogTitle, null, '移除王芳？'), h(DialogContent, null, '她将无法再访问这个团队的文件。'),
      h(DialogActions, null, h(Button, { onClick: () => setOpen(false) }, '取消'), h(Button, { color: 'error', onClick: () => (setOpen(false), post('/member/remove', { member: '王芳' })) }, '确认移除'))))
}

const PAGES: Record<string, () => ReactNode> = { 'mui-select': CitySelect, 'mui-switch': Switches, 'mui-autocomplete': Auto, 'mui-menu': Menus, 'mui-dialog': Confirm }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))
