// Input of routes (`c3-c4`, `c4:c6:c8`): the squares a move stops on, clicked one by one until
// one legal move is left or the route clicked is a whole move.

import { app } from './state.js';
import { moveSquares } from './position.js';
import { playMove } from './play.js';
import { render } from './view.js';

/** The squares the route clicked so far may go on to. */
export function targets(page, st, sel) {
  const path = sel.path;
  if (!path) return [];
  const out = [];
  for (const m of st.legal) {
    const stops = moveSquares(page, m);
    if (stops.length > path.length && path.every((p, i) => stops[i] === p)) out.push(stops[path.length]);
  }
  return out;
}

/** A click on a square: the route's next stop, or a new start. */
export function click(page, st, name) {
  const sel = app.selected;
  const again = sel && sel.path && sel.path.length === 1 && sel.path[0] === name;
  let path = sel && sel.path ? sel.path.concat([name]) : [name];
  let cands = st.legal.filter((m) => {
    const stops = moveSquares(page, m);
    return path.every((p, i) => stops[i] === p);
  });
  if (!cands.length || again) {
    // Start again from this square, or drop the selection.
    path = [name];
    cands = again ? [] : st.legal.filter((m) => moveSquares(page, m)[0] === name);
    app.selected = cands.length ? { path } : null;
    render();
    return;
  }
  const exact = cands.find((m) => moveSquares(page, m).length === path.length);
  if (path.length > 1 && (cands.length === 1 || exact)) return playMove(exact || cands[0]);
  app.selected = { path };
  render();
}

/** `(must capture)` when every legal move is a capture (`:` between its stops). */
export function note(st) {
  return st.legal.length && st.legal.every((m) => m.includes(':')) ? ' (must capture)' : '';
}
