const sleep = (win: Window, ms: number) => new Promise<void>((done) => win.setTimeout(done, ms))

/**
 * Reads what an action left once the page's own handlers had their turn (a controlled input's re-render, a mask, a
 * toggle's state update), and keeps reading a little while it is not yet what was wanted: a framework that updates
 * a frame later is not a step without effect. Returns the last reading.
 */
export async function settledReading<T>(win: Window, read: () => T, wanted: (value: T) => boolean, waitMs = 250): Promise<T> {
  await sleep(win, 0)
  let value = read()
  const until = Date.now() + waitMs
  while (!wanted(value) && Date.now() < until) {
    await sleep(win, 25)
    value = read()
  }
  return value
}

/** Letters and digits only, lower-cased: a mask's "(123) 456-7890" is the "1234567890" that was typed. */
export const lettersAndDigits = (text: string) => text.normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, '').toLowerCase()

/** A value as the reader of an error sees it: quoted and short, or said to be empty. */
export const shown = (value: string) => (value.trim() === '' ? 'an empty field' : JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value))
