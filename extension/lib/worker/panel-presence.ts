import type { WxtBrowser as Browser } from 'wxt/browser'

export const PANEL_PORT = 'panel'

/**
 * Whether the side panel is open: the panel page keeps a runtime port named "panel" open while it lives.
 * A restarted worker has lost its ports, so it also asks Chrome for open side-panel contexts.
 */
export function createPanelPresence(runtime: Pick<Browser['runtime'], 'onConnect'> & { getContexts?: Browser['runtime']['getContexts'] }, extensionOrigin: string) {
  let open = 0
  runtime.onConnect.addListener((port) => {
    if (port.name !== PANEL_PORT || !port.sender?.url?.startsWith(extensionOrigin)) return
    open += 1
    port.onDisconnect.addListener(() => {
      open -= 1
    })
  })
  return {
    async isOpen(): Promise<boolean> {
      if (open > 0) return true
      try {
        const contexts = (await runtime.getContexts?.({ contextTypes: ['SIDE_PANEL' as never] })) ?? []
        return contexts.length > 0
      } catch {
        return false
      }
    },
  }
}
export type PanelPresence = ReturnType<typeof createPanelPresence>
