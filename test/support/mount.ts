import { parseHTML } from 'linkedom'
import { render, type VNode } from 'preact'
import { afterEach } from 'vitest'

/**
 * Renders a component the way the panel, the console and the replay do, into a fresh linkedom document: Preact
 * renders into whatever `document` is global, so a test file that calls this gets the real one back after each test.
 */
export function useMount(): (node: VNode<any>) => HTMLElement {
  const saved = globalThis.document
  afterEach(() => {
    globalThis.document = saved
  })
  return (node) => {
    globalThis.document = parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document
    const root = document.createElement('div')
    document.body.appendChild(root)
    render(node, root)
    return root
  }
}
