// The syntax of from-to moves (`7g7f`, `7c7b+`, `P*5e`): a square then another, or a piece in
// hand then a square; the player chooses when several moves join them. What a click, a drag or a
// drop means, as an action for input.js to take: `{play: move}`, `{choose: moves}` or
// `{select: selection}` (null: none). Nothing here changes the page.

import { dropLetter, handLetter, moveSquares } from './position.js';

/** A move's parts: the letter dropped (or null), its squares of departure and arrival. */
function parts(page, m) {
  const squares = moveSquares(page, m);
  const drop = dropLetter(m);
  return { drop, from: drop ? null : squares[0], to: squares[squares.length - 1] };
}

/** The legal moves from the selection (a square, or a piece in hand). */
function fromSelection(page, st, sel) {
  return st.legal.map((m) => [m, parts(page, m)]).filter(([, p]) => {
    if (sel.from) return !p.drop && p.from === sel.from && p.to !== undefined;
    if (sel.hand) return p.drop && handLetter(page, p.drop) === sel.hand;
    return false;
  });
}

/** The squares the selection may go to. */
export function targets(page, st, sel) {
  return fromSelection(page, st, sel).map(([, p]) => p.to);
}

/** A click on a square with the selection `sel`: the move's end when one is selected, else a new
 * selection. */
export function click(page, st, sel, name) {
  if (sel && (sel.from || sel.hand)) {
    const cands = fromSelection(page, st, sel).filter(([, p]) => p.to === name).map(([m]) => m);
    if (cands.length === 1) return { play: cands[0] };
    if (cands.length > 1) return { choose: cands };
  }
  const from = st.legal.some((m) => {
    const p = parts(page, m);
    return !p.drop && p.from === name;
  });
  return { select: from && !(sel && sel.from === name) ? { from: name } : null };
}

/** Whether a press on this square starts dragging its piece (else it is a click). */
export function canDrag(page, st, sel, name) {
  if (sel && (sel.from || sel.hand) && targets(page, st, sel).includes(name)) return false;
  return st.legal.some((m) => {
    const p = parts(page, m);
    return !p.drop && p.from === name;
  });
}

/** The selection of a drag from this square: its piece. */
export function startDrag(page, st, sel, name) {
  return { from: name };
}

/** A dragged piece passes over squares: nothing changes (null) until it is dropped. */
export function over() {
  return null;
}

/** The piece dragged from the selection is dropped on this square: its move, if it has one. */
export function drop(page, st, sel, name) {
  const cands = fromSelection(page, st, sel).filter(([, p]) => p.to === name).map(([m]) => m);
  if (cands.length === 1) return { play: cands[0] };
  if (cands.length > 1) return { choose: cands };
  return { select: null };
}

/** Nothing to add to the status line. */
export function note() {
  return '';
}
