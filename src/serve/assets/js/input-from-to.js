// Input of from-to moves (`7g7f`, `7c7b+`, `P*5e`): a square then another, or a piece in hand
// then a square; the chooser asks when several moves join them.

import { app } from './state.js';
import { dropLetter, handLetter, moveSquares } from './position.js';
import { choose } from './chooser.js';
import { playMove } from './play.js';
import { render } from './view.js';

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

/** A click on a square: the move's end when one is selected, else a new selection. */
export function click(page, st, name) {
  const sel = app.selected;
  if (sel && (sel.from || sel.hand)) {
    const cands = fromSelection(page, st, sel).filter(([, p]) => p.to === name).map(([m]) => m);
    if (cands.length === 1) return playMove(cands[0]);
    if (cands.length > 1) return choose(page, cands);
  }
  const from = st.legal.some((m) => {
    const p = parts(page, m);
    return !p.drop && p.from === name;
  });
  app.selected = from && !(sel && sel.from === name) ? { from: name } : null;
  render();
}

/** Whether a press on this square starts dragging its piece (else it is a click). */
export function canDrag(page, st, sel, name) {
  if (sel && (sel.from || sel.hand) && targets(page, st, sel).includes(name)) return false;
  return st.legal.some((m) => {
    const p = parts(page, m);
    return !p.drop && p.from === name;
  });
}

/** Selects the piece dragged from this square. */
export function startDrag(page, st, name) {
  app.selected = { from: name };
}

/** A dragged piece passes over squares: nothing changes until it is dropped. */
export function over() {
  return false;
}

/** The piece dragged from the selection is dropped on this square: its move, if it has one. */
export function drop(page, st, sel, name) {
  const cands = fromSelection(page, st, sel).filter(([, p]) => p.to === name).map(([m]) => m);
  if (cands.length === 1) return playMove(cands[0]);
  if (cands.length > 1) return choose(page, cands);
  app.selected = null;
  render();
}

/** Nothing to add to the status line. */
export function note() {
  return '';
}
