// Built by `npm run build:ui` (vite.replay.config.ts) before the server, and bundled into it as text.
import script from 'raw:../../../dist/replay/replay.js'
import style from 'raw:../../../dist/replay/replay.css'
import type { ReplayAssets } from './replay-html'

export const REPLAY_ASSETS: ReplayAssets = { script, style }
