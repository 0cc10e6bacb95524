// The game's lines of play as a tree (the variation tree): every line played, clicked from the
// analysis or the mate panel, or read from a record is kept. A node is a move (the root none) and
// the moves played after it, the main line's first. The line shown (`app.game.moves`) is one path
// from the root, usually to a leaf; the main line is the path of first moves.

import { app } from './state.js';

/** A new node for `move` (null: the root). */
export function node(move) {
  return { move, children: [] };
}

/** The node reached by playing `moves` from the start, or null when the tree lacks it. */
export function nodeAt(moves) {
  let n = app.game.tree;
  for (const m of moves) {
    n = n.children.find((c) => c.move === m);
    if (!n) return null;
  }
  return n;
}

/** Adds the line `moves` (from the start) to the tree, each move it lacks after the moves
 * already played there (a variation, unless it is the first). */
export function addLine(moves) {
  let n = app.game.tree;
  for (const m of moves) {
    let c = n.children.find((x) => x.move === m);
    if (!c) {
      c = node(m);
      n.children.push(c);
    }
    n = c;
  }
}

/** The first moves after `moves` to the end of their line (nothing when the tree lacks it). */
export function continuation(moves) {
  const out = [];
  let n = nodeAt(moves);
  while (n && n.children.length) {
    n = n.children[0];
    out.push(n.move);
  }
  return out;
}

/** The line `moves` continued to its end by first moves. */
export function lineThrough(moves) {
  return moves.concat(continuation(moves));
}

/** The main line: the first moves from the start. */
export function mainLine() {
  return continuation([]);
}

/** Whether `moves` (from the start) are the first moves of the main line. */
export function onMainLine(moves) {
  let n = app.game.tree;
  for (const m of moves) {
    if (!n.children.length || n.children[0].move !== m) return false;
    n = n.children[0];
  }
  return true;
}

/** Promotes the line `moves` one step: at the last place where it is not its parent's first
 * move, it becomes the first (done again, it becomes the main line). False when it is the main
 * line already. */
export function promote(moves) {
  const path = [app.game.tree];
  for (const m of moves) path.push(path[path.length - 1].children.find((c) => c.move === m));
  for (let i = path.length - 1; i > 0; i--) {
    const kids = path[i - 1].children;
    const at = kids.indexOf(path[i]);
    if (at > 0) {
      kids.splice(at, 1);
      kids.unshift(path[i]);
      return true;
    }
  }
  return false;
}

/** Makes the line `moves` the main line at every place where it branches. */
export function makeMain(moves) {
  while (promote(moves));
}

/** Removes the last move of `moves` with every line after it. */
export function remove(moves) {
  if (!moves.length) return;
  const parent = nodeAt(moves.slice(0, -1));
  if (parent) parent.children = parent.children.filter((c) => c.move !== moves[moves.length - 1]);
}

/** Every line but the main one, each whole from the start and ending at a leaf, in the tree's
 * order (the records' `variations`: the tree is rebuilt by adding the main line, then these). */
export function otherLines() {
  const out = [];
  const walk = (n, path, main) => {
    if (!n.children.length) {
      if (!main) out.push(path);
      return;
    }
    n.children.forEach((c, i) => walk(c, path.concat([c.move]), main && i === 0));
  };
  walk(app.game.tree, [], true);
  return out;
}

/** A new tree of the main line `moves` and the other lines `others` (each from the start). */
export function setTree(moves, others) {
  app.game.tree = node(null);
  addLine(moves);
  for (const line of others || []) addLine(line);
}
