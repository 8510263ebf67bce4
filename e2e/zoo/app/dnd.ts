/** Drag and drop: a dnd-kit sortable list (pointer events) and an HTML5 draggable board, each posting its order. */
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core'
import { SortableContext, arrayMove, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { createElement as h, useState, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { pick, post } from './zoo'

document.head.append(Object.assign(document.createElement('style'), { textContent:
  '.row{padding:10px 14px;border:1px solid #bbb;border-radius:6px;background:#fff;margin:6px 0;width:280px;cursor:grab;touch-action:none}.col{border:2px dashed #aaa;min-height:140px;width:220px;padding:8px}.board{display:flex;gap:24px}' }))

function Row({ id }: { id: string }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id })
  return h('div', { ref: setNodeRef, className: 'row', style: { transform: CSS.Transform.toString(transform), transition }, ...attributes, ...listeners }, id)
}

function Sortable() {
  const [items, setItems] = useState(['写周报', '回复客户邮件', '整理发票', '预订会议室'])
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }))
  const end = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) setItems((xs) => arrayMove(xs, xs.indexOf(String(active.id)), xs.indexOf(String(over.id))))
  }
  return h('div', null, h('p', null, '今日待办（拖动排序）'),
    h(DndContext, { sensors, collisionDetection: closestCenter, onDragEnd: end }, h(SortableContext, { items, strategy: verticalListSortingStrategy, children: items.map((id) => h(Row, { key: id, id })) })),
    h('button', { type: 'button', onClick: () => post('/submit', { order: items }) }, '保存顺序'))
}

function Board() {
  const [cols, setCols] = useState<Record<string, string[]>>({ 待处理: ['合同审批', '报销单', '请假申请'], 已完成: [] })
  const drop = (to: string) => (e: { preventDefault(): void; dataTransfer: DataTransfer }) => {
    e.preventDefault()
    const card = e.dataTransfer.getData('text/plain')
    setCols((c) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, k === to ? [...v.filter((x) => x !== card), card] : v.filter((x) => x !== card)])))
  }
  return h('div', null, h('div', { className: 'board' }, Object.entries(cols).map(([name, cards]) =>
    h('section', { key: name, className: 'col', 'aria-label': name, onDragOver: (e: { preventDefault(): void }) => e.preventDefault(), onDrop: drop(name) },
      h('h3', null, name), cards.map((c) => h('div', { key: c, className: 'row', draggable: true, onDragStart: (e: { dataTransfer: DataTransfer }) => e.dataTransfer.setData('text/plain', c) }, c))))),
    h('button', { type: 'button', onClick: () => post('/submit', cols) }, '保存看板'))
}

const PAGES: Record<string, () => ReactNode> = { 'dnd-kit': Sortable, 'html5-drag': Board }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))
