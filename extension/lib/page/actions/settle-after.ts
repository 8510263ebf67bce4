import { watchSettle, type Settled } from '../settle'

/**
 * Does `act` and waits, up to `maxMs`, for what it set off (a popup sliding in, a value being drawn) to stand still.
 * The watch starts before `act`, so what its handlers change at once counts; an `act` that throws ends the watch.
 */
export async function settleAfter(win: Window, act: () => void, maxMs: number): Promise<Settled> {
  const watch = watchSettle(win)
  try {
    act()
  } catch (error) {
    watch.stop()
    throw error
  }
  return watch.settled({ maxMs })
}
