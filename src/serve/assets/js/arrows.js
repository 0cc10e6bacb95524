// Drawn over the board: while analysing, the engine's best move as a pale arrow (a drop as a ring
// on its square, a route through its squares), from the analysis of the position shown; and the
// circles and arrows the user draws with the right button (drag.js), in the colour of the
// modifier keys held (none: green, Shift or Ctrl: red, Alt: blue, both: yellow), as lishogi's.

import { svg } from './dom.js';
import { app, current, shownKey } from './state.js';
import { moveSquares } from './position.js';

/** The colours of the user's shapes, by modifier keys (drag.js). */
export const COLORS = ['green', 'red', 'blue', 'yellow'];

/** The centres of these squares as drawn, and a square's size; null when one is not drawn. */
function centres(board, names) {
  const boxes = names.map((name) => {
    const rect = board.querySelector(`[data-square="${name}"] rect`);
    return rect ? rect.getBBox() : null;
  });
  if (!boxes.length || boxes.some((b) => !b)) return null;
  return { size: boxes[0].width, points: boxes.map((b) => [b.x + b.width / 2, b.y + b.height / 2]) };
}

/** Draws in `group` a ring (one point) or an arrow through the points; `width`: the line's, in
 * squares. */
function shape(group, { size, points }, width) {
  if (points.length === 1) {
    svg('circle', { cx: points[0][0], cy: points[0][1], r: size * 0.4, class: 'arrow-ring', 'stroke-width': size * width * 0.7 }, group);
    return;
  }
  // The shaft stops short of the last square's centre, where the head is drawn.
  const [x1, y1] = points[points.length - 2];
  const [x2, y2] = points[points.length - 1];
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const head = size * 0.35;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  const shaft = points.slice(0, -1).concat([[bx, by]]);
  svg('polyline', { points: shaft.map((p) => p.join(',')).join(' '), class: 'arrow-shaft', 'stroke-width': size * width }, group);
  const side = head * 0.6;
  svg('polygon', {
    points: [[x2, y2], [bx - uy * side, by + ux * side], [bx + uy * side, by - ux * side]].map((p) => p.join(',')).join(' '),
    class: 'arrow-head',
  }, group);
}

/** Draws the best move of the running analysis of the position shown over the board (and takes
 * down the one drawn before); nothing when no analysis of it has a line yet. */
export function drawBestArrow() {
  const board = document.getElementById('board');
  if (!board) return;
  for (const old of board.querySelectorAll('.best-arrow')) old.remove();
  const s = app.search;
  const entry = current();
  if (!app.analysing || !entry || !s || s.cancelled || s.kind !== 'analyse' || s.key !== shownKey()) return;
  const line = s.lines[0];
  if (!line || !line.pv || !line.pv.length) return;
  const mv = line.pv[0];
  const at = centres(board, moveSquares(entry.page, mv));
  if (at) shape(svg('g', { class: 'best-arrow', 'data-move': mv, 'aria-hidden': 'true' }, board), at, 0.14);
}

/** Draws the user's circles and arrows (and the one being drawn) over the board, in place of
 * those drawn before. */
export function drawShapes() {
  const board = document.getElementById('board');
  if (!board) return;
  for (const old of board.querySelectorAll('.user-shapes')) old.remove();
  const all = app.drawing ? app.shapes.concat([Object.assign({ now: 1 }, app.drawing)]) : app.shapes;
  if (!all.length) return;
  const layer = svg('g', { class: 'user-shapes', 'aria-hidden': 'true' }, board);
  for (const s of all) {
    const at = centres(board, s.from === s.to ? [s.from] : [s.from, s.to]);
    const g = svg('g', { class: 'user-shape shape-' + s.color + (s.now ? ' drawing' : ''), 'data-from': s.from, 'data-to': s.to, 'data-color': s.color }, layer);
    if (at) shape(g, at, 0.1);
  }
}

/** Draws a shape, or takes it down when it is drawn in that colour (another colour replaces it). */
export function toggleShape(from, to, color) {
  const i = app.shapes.findIndex((s) => s.from === from && s.to === to);
  const same = i >= 0 && app.shapes[i].color === color;
  if (i >= 0) app.shapes.splice(i, 1);
  if (!same) app.shapes.push({ from, to, color });
  drawShapes();
}

/** Takes down the user's shapes (a left click on the board, another position shown). */
export function clearShapes() {
  app.drawing = null;
  if (!app.shapes.length) return;
  app.shapes = [];
  drawShapes();
}
