import { isTag } from './dom'
import { copiedText, editState, isPassword, MOVE_WORDS, MOVES, selectable, type Editable, type EditState } from './editing-keys'
import { noEffect } from './errors'
import type { KeyChord } from './events'

/*
 * Whether a key did what it is for: the focused field's text and selection before and after, read as offsets and
 * lengths only (never the text itself), and what the page did of its own on the key.
 */

const where = (s: EditState) => (s.anchor < 0 ? 'outside the text' : s.anchor === s.focus ? `at ${s.focus}` : `at ${Math.min(s.anchor, s.focus)}–${Math.max(s.anchor, s.focus)}`)
const selectionMoved = (a: EditState, b: EditState) => a.anchor !== b.anchor || a.focus !== b.focus

/**
 * Watches what a key does besides editing its field: a page that cancels a plain key, or changes itself elsewhere
 * on it (a tag input's Backspace removes the last tag, a list's Delete removes a row), did something of its own
 * that the field's text does not show.
 */
export function watchKey(el: Element, editable: Editable | null): { handled(): boolean; stop(): void } {
  const doc = el.ownerDocument
  const win = doc.defaultView
  let seen: Event | undefined
  let elsewhere = false
  const listener = (event: Event) => (seen = event)
  win?.addEventListener('keydown', listener, true)
  const outside = (records: MutationRecord[]) => {
    if (!elsewhere) elsewhere = records.some((r) => !editable || !(editable.el === r.target || editable.el.contains(r.target)))
  }
  const observer = win ? new win.MutationObserver(outside) : undefined
  observer?.observe(doc, { childList: true, characterData: true, subtree: true })
  return {
    handled: () => (outside(observer?.takeRecords() ?? []), !!seen?.defaultPrevented || elsewhere),
    stop: () => (win?.removeEventListener('keydown', listener, true), observer?.disconnect()),
  }
}

/** What a key should have done to the text or selection, and whether `after` shows it; null when nothing is knowable. */
function expectation(target: Editable, chord: KeyChord, command: string | undefined, before: EditState, via: 'cdp' | 'dom'): { expected: string; done: (after: EditState) => boolean; found: (after: EditState) => string } | null {
  // Where the selection cannot be read, only what changes the text is judged.
  if (!selectable(target) && (command === 'selectAll' || command === 'copy' || (command && MOVES[command]))) return null
  const selected = before.anchor !== before.focus || !selectable(target)
  const unchanged = (why: string) => (after: EditState) => `the text unchanged (${after.text.length} characters)${why ? `: ${why}` : ''}`
  const move = command ? MOVES[command] : undefined
  if (move) {
    const [left, right] = MOVE_WORDS[move.unit]
    return {
      expected: `the selection extended ${move.backward ? left : right}`,
      done: (after) => selectionMoved(before, after),
      found: (after) => `the selection unchanged ${where(after)}${(move.backward ? after.focus === 0 : after.focus === after.text.length) ? ` (already at the ${move.backward ? 'start' : 'end'})` : ''}`,
    }
  }
  switch (command) {
    case 'selectAll':
      return {
        expected: 'all the text selected',
        done: (after) => after.text.length > 0 && Math.min(after.anchor, after.focus) === 0 && Math.max(after.anchor, after.focus) === after.text.length,
        found: (after) => (after.text.length === 0 ? 'the field is empty: there is nothing to select' : `the selection ${where(after)} of ${after.text.length} characters`),
      }
    case 'copy':
      return {
        expected: 'the selected text copied',
        done: () => selected && !isPassword(target),
        found: () => (isPassword(target) ? "a password field's text is never copied" : `nothing was selected to copy (the cursor ${where(before)})`),
      }
    case 'cut':
      return {
        expected: 'the selected text cut',
        done: (after) => selected && after.text !== before.text,
        found: (after) => (!selected ? `nothing was selected to cut (the cursor ${where(before)})` : isPassword(target) ? "a password field's text is never cut" : unchanged('')(after)),
      }
    case 'paste':
      return {
        expected: 'the copied text pasted',
        done: (after) => after.text !== before.text,
        found: unchanged(via === 'dom' && !copiedText() ? 'nothing was copied earlier in this task' : via === 'cdp' ? 'the clipboard may be empty' : ''),
      }
    case 'undo':
    case 'redo':
      return { expected: `the last edit ${command === 'undo' ? 'undone' : 'redone'}`, done: (after) => after.text !== before.text, found: unchanged(`nothing to ${command}`) }
  }
  if (chord.ctrlKey || chord.metaKey || chord.altKey) return null
  if (chord.key === 'Backspace' || chord.key === 'Delete') {
    const back = chord.key === 'Backspace'
    return {
      expected: selected ? 'the selected text deleted' : `the character ${back ? 'before' : 'after'} the cursor deleted`,
      done: (after) => after.text !== before.text,
      found: unchanged(before.text.length === 0 ? 'the field is empty' : !selected && before.focus === (back ? 0 : before.text.length) ? `nothing ${back ? 'before' : 'after'} the cursor` : ''),
    }
  }
  if (chord.key.length === 1 && !(target.kind === 'field' && isTag(target.el, 'input') && target.el.type === 'number')) {
    return { expected: 'the character typed', done: (after) => after.text !== before.text, found: unchanged('the field may be read-only or full') }
  }
  return null
}

/**
 * Checks a key's effect on the text or selection it should have changed, waiting briefly for editors that
 * apply it a moment later; ACTION_NO_EFFECT with what was expected and found when it did nothing. Offsets and
 * lengths only: the text itself may be a secret.
 */
export async function checkKeyEffect(target: Editable, chord: KeyChord, command: string | undefined, before: EditState, via: 'cdp' | 'dom', handled: () => boolean = () => false): Promise<void> {
  const expect = expectation(target, chord, command, before, via)
  if (!expect) return
  // A plain key the page took for itself is not judged by the field; an editing command is what the person asked for.
  const own = !command
  const win = target.el.ownerDocument.defaultView!
  for (let waited = 0; ; waited += 30) {
    const after = editState(target)
    if (expect.done(after) || (own && handled())) return
    if (waited >= 300) noEffect(expect.expected, expect.found(after))
    await new Promise((resolve) => win.setTimeout(resolve, 30))
  }
}
