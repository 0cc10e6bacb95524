// The syntax of routes (`c3-c4`, `c4:c6:c8`): the squares a move stops on, clicked one by one
// until one legal move is left or the route clicked is a whole move. What a click, a drag or a
// drop means, as an action for input.js to take: `{play: move}` or `{select: selection}` (null:
// none). Nothing here changes the page.

import { moveSquares, squareAt } from './position.js';

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

/** A click on a square with the selection `sel`: the route's next stop, or a new start. */
export function click(page, st, sel, name) {
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
    return { select: cands.length ? { path } : null };
  }
  const exact = cands.find((m) => moveSquares(page, m).length === path.length);
  if (path.length > 1 && (cands.length === 1 || exact)) return { play: exact || cands[0] };
  return { select: { path } };
}

/** Whether a press on this square starts dragging a route (else it is a click). */
export function canDrag(page, st, sel, name) {
  if (sel && sel.path && targets(page, st, sel).includes(name)) return false;
  if (sel && sel.path && sel.path.length > 1 && sel.path[sel.path.length - 1] === name) return true;
  return st.legal.some((m) => moveSquares(page, m)[0] === name);
}

/** The selection of a route dragged from this square: a new route, or the route so far if it
 * ends here. */
export function startDrag(page, st, sel, name) {
  if (sel && sel.path && sel.path.length > 1 && sel.path[sel.path.length - 1] === name) return sel;
  return { path: [name] };
}

/** The squares where a dragged pointer turned (changed direction), from `from` over `squares`. */
function turns(page, from, squares) {
  const at = (name) => squareAt(page, name);
  const dir = (a, b) => [Math.sign(at(b).col - at(a).col), Math.sign(at(b).row - at(a).row)].join();
  const out = [];
  const all = [from].concat(squares);
  for (let i = 1; i + 1 < all.length; i++) if (dir(all[i - 1], all[i]) !== dir(all[i], all[i + 1])) out.push(all[i]);
  return out;
}

/** The stops of the route being dragged: the route when the drag began, then each square where
 * the pointer turned while the route may stop there. */
function draggedPath(page, st, base, visited) {
  const path = base.slice();
  for (const sq of turns(page, base[base.length - 1], visited)) {
    if (!targets(page, st, { path }).includes(sq)) break;
    path.push(sq);
  }
  return path;
}

/** The dragged route passes over squares (`visited`, in order, since `base`): its stops so far,
 * to be selected so that the next ones show; null when the selection stays as it is. */
export function over(page, st, sel, base, visited) {
  if (!base || !base.length) return null;
  const path = draggedPath(page, st, base, visited);
  const changed = !sel || !sel.path || sel.path.join() !== path.join();
  return changed ? { path } : null;
}

/**
 * The dragged route is dropped on a square: the move that ends there, from the route as it was
 * when the drag began (`base`), stopping where the pointer turned or, failing one such move,
 * on squares it passed over (`visited`). Several such moves, or none, keep the route so far
 * (and the square dropped on, when the route may stop there) for clicks or drags to go on with.
 */
export function drop(page, st, sel, name, base, visited) {
  const turned = turns(page, base[base.length - 1], visited);
  const ending = st.legal.filter((m) => {
    const stops = moveSquares(page, m);
    return stops.length > base.length && stops[stops.length - 1] === name && base.every((p, i) => stops[i] === p);
  });
  const middle = (m) => moveSquares(page, m).slice(base.length, -1);
  let cands = ending.filter((m) => middle(m).join() === turned.join());
  if (cands.length !== 1) {
    cands = ending.filter((m) => {
      let k = 0;
      for (const s of middle(m)) {
        k = visited.indexOf(s, k);
        if (k < 0) return false;
        k++;
      }
      return true;
    });
  }
  if (cands.length === 1) return { play: cands[0] };
  const path = draggedPath(page, st, base, visited);
  if (targets(page, st, { path }).includes(name)) path.push(name);
  return { select: path.length > base.length || cands.length ? { path } : null };
}

/** `(must capture)` when every legal move is a capture (`:` between its stops). */
export function note(st) {
  return st.legal.length && st.legal.every((m) => m.includes(':')) ? ' (must capture)' : '';
}
