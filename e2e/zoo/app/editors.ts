/** Rich-text editors: TipTap (React, starter kit, a toolbar) and Quill 2 (snow theme), each posting its HTML. */
import { EditorContent, useEditor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import Quill from 'quill'
import 'quill/dist/quill.snow.css'
import { createElement as h, useEffect, useRef, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { pick, post } from './zoo'

document.head.append(Object.assign(document.createElement('style'), { textContent: '.tiptap{border:1px solid #aaa;min-height:120px;padding:8px;width:520px}.bar button{margin-right:6px}' }))

function Tiptap() {
  const editor = useEditor({ extensions: [StarterKit], content: '<p></p>', editorProps: { attributes: { 'aria-label': '正文' } } })
  return h('div', null, h('div', { className: 'bar' },
    h('button', { type: 'button', onClick: () => editor?.chain().focus().toggleBold().run() }, '加粗'),
    h('button', { type: 'button', onClick: () => editor?.chain().focus().toggleBulletList().run() }, '列表')),
    h(EditorContent, { editor }),
    h('p', null, h('button', { type: 'button', onClick: () => post('/submit', { html: editor?.getHTML() }) }, '发布')))
}

function QuillEditor() {
  const box = useRef<HTMLDivElement>(null)
  const quill = useRef<Quill | undefined>(undefined)
  useEffect(() => {
    if (box.current && !quill.current) quill.current = new Quill(box.current, { theme: 'snow', placeholder: 'Write your reply…' })
  }, [])
  return h('div', { style: { width: 560 } }, h('div', { ref: box, style: { height: 140 } }),
    h('p', null, h('button', { type: 'button', onClick: () => post('/submit', { html: quill.current?.getSemanticHTML(), text: quill.current?.getText() }) }, 'Post reply')))
}

const PAGES: Record<string, () => ReactNode> = { tiptap: Tiptap, quill: QuillEditor }

createRoot(document.getElementById('app')!).render(h(pick(PAGES)))
