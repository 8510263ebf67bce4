import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Cleanup {
  /** The one temporary folder of the run: server data and audit, browser profile, Chromium's own scratch. */
  root: string
  /** Registers a piece to stop, with an optional synchronous kill for when the process is already exiting. */
  add(close: () => unknown, kill?: () => void): void
  /** Stops every piece, newest first, then removes the folder. Safe to call more than once. */
  run(): Promise<void>
  /** The last resort on process exit: kills what is left and removes the folder, synchronously. */
  killNow(): void
}

const CLOSE_TIMEOUT_MS = 10_000

/**
 * Points TMPDIR at a fresh folder for the run, so that every temporary folder the pieces make for themselves
 * (the server's data, the browser profile) lands inside it and one removal leaves nothing behind, even when a
 * piece dies half-way.
 */
export function createCleanup(prefix = 'tandem-demo-'): Cleanup {
  const previous = process.env.TMPDIR
  const root = mkdtempSync(join(tmpdir(), prefix))
  process.env.TMPDIR = root
  const pieces: { close: () => unknown; kill?: () => void }[] = []
  let running: Promise<void> | null = null

  const restore = () => {
    if (process.env.TMPDIR !== root) return
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
  }

  // The piece being stopped stays killable: the process may exit (Chromium's driver exits on Ctrl-C) mid-way.
  let stopping: { close: () => unknown; kill?: () => void } | undefined

  async function stopAll() {
    while ((stopping = pieces.pop())) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))
      try {
        await Promise.race([Promise.resolve().then(stopping.close), timeout])
      } catch {
        // A piece that fails to close politely is killed below; the run's own error is what matters.
      } finally {
        clearTimeout(timer)
      }
      stopping.kill?.()
    }
    rmSync(root, { recursive: true, force: true })
    restore()
  }

  return {
    root,
    add(close, kill) {
      // A piece that finished starting after the stop began is stopped at once instead of outliving the run.
      if (running) return void Promise.resolve().then(close).catch(() => undefined).finally(() => kill?.())
      pieces.push({ close, kill })
    },
    run() {
      running ??= stopAll()
      return running
    },
    killNow() {
      for (const piece of [...(stopping ? [stopping] : []), ...pieces.splice(0).reverse()]) {
        try {
          piece.kill?.()
        } catch {}
      }
      rmSync(root, { recursive: true, force: true })
      restore()
    },
  }
}
