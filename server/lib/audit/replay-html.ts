import type { ExportContext, ExportExtra } from './export'
import { createChainVerifier, serializeEvent } from './chain'

/** The offline replay renderer: the script and stylesheet built from ui/replay by vite.replay.config.ts. */
export interface ReplayAssets {
  script: string
  style: string
}

/**
 * JSON that is safe inside a <script> element: no `<` can start `</script>` or `<!--`, and the line separators
 * JavaScript once treated as newlines are escaped too. JSON.parse reads it back unchanged.
 */
export const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** Code inlined as-is must not end its own element early; `<\/` means the same inside JS strings and regexes. */
const inlineSafe = (code: string, tag: 'script' | 'style') =>
  code.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1').replace(/<!--/g, '<\\!--')

const escapeText = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

// Nothing may be fetched from the network; screenshots come from the artifacts/ folder beside the page.
const CSP = "default-src 'none'; img-src 'self' file: data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

/**
 * replay.html, written as it goes: the events are inlined one at a time as they are read, so a task of any
 * length needs memory for one event, and the chain is verified on the way (its verdict follows the events).
 */
export async function* renderReplayHtml(context: ExportContext, assets: ReplayAssets): AsyncIterable<string> {
  yield (
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">\n` +
    `<meta name="referrer" content="no-referrer">\n` +
    `<title>Tandem replay ${escapeText(context.taskId)}</title>\n` +
    `<style>${inlineSafe(assets.style, 'style')}</style>\n</head>\n<body>\n<div id="app"></div>\n` +
    `<script type="application/json" id="tandem-events">[`
  )
  const verifier = createChainVerifier()
  let first = true
  for await (const event of context.events()) {
    verifier.line(serializeEvent(event))
    yield (first ? '\n' : ',\n') + scriptSafeJson(event)
    first = false
  }
  yield '\n]</script>\n'
  yield `<script type="application/json" id="tandem-verified">${scriptSafeJson(verifier.end(''))}</script>\n`
  yield `<script type="application/json" id="tandem-export">${scriptSafeJson({ taskId: context.taskId, exportedAt: context.exportedAt.toISOString() })}</script>\n`
  // Who signs the export's manifest, which lists this page's own sha256: the page can say it, not check it.
  if (context.signer) yield `<script type="application/json" id="tandem-signer">${scriptSafeJson(context.signer)}</script>\n`
  yield `<script>${inlineSafe(assets.script, 'script')}</script>\n</body>\n</html>\n`
}

/** Without its renderer the page still carries the events, and says so instead of breaking the export. */
const MISSING_RENDERER: ReplayAssets = {
  style: 'body{font:14px system-ui,sans-serif;margin:16px}',
  script:
    "document.getElementById('app').textContent='This Tandem build has no replay renderer (run npm run build:ui). " +
    "The events are inline in this page and in events.jsonl.'",
}

async function* encoded(context: ExportContext, loadAssets: () => Promise<ReplayAssets>): AsyncIterable<Uint8Array> {
  const assets = await loadAssets().catch((error: unknown) => {
    console.error('[tandem] the replay renderer could not be loaded; replay.html will only carry the events', error)
    return MISSING_RENDERER
  })
  const encoder = new TextEncoder()
  for await (const text of renderReplayHtml(context, assets)) yield encoder.encode(text)
}

/** replay.html as an extra file of the export; the assets are loaded on first use. */
export function createReplayExtra(loadAssets: () => Promise<ReplayAssets>): ExportExtra {
  return {
    name: 'replay.html',
    deflate: true,
    content: (context) => encoded(context, loadAssets),
  }
}
