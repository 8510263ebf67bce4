import type { Task } from '../types'
import { ANTD, ELEMENT, VANT } from './china'
import { HEADLESS, RADIX, REACT_SELECT } from './headless'
import { ARCO, MUI, TDESIGN } from './more-cn'
import { DND, EDITORS, HOVER, NEW_TAB, UPLOADS } from './widgets'

export const TASKS: Task[] = [...ANTD, ...ELEMENT, ...VANT, ...ARCO, ...TDESIGN, ...MUI, ...RADIX, ...HEADLESS, ...REACT_SELECT, ...EDITORS, ...DND, ...UPLOADS, ...NEW_TAB, ...HOVER]
