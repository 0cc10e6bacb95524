// Drawn over the board while analysing: the engine's best move as an arrow (a drop as a ring on
// its square, a route through its squares), from the analysis of the position shown.

import { svg } from './dom.js';
import { app, current, shownKey } from './state.js';
import { moveSquares } from './position.js';

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
  const boxes = moveSquares(entry.page, mv).map((name) => {
    const rect = board.querySelector(`[data-square="${name}"] rect`);
    return rect ? rect.getBBox() : null;
  });
  if (!boxes.length || boxes.some((b) => !b)) return;
  const size = boxes[0].width;
  const points = boxes.map((b) => [b.x + b.width / 2, b.y + b.height / 2]);
  const group = svg('g', { class: 'best-arrow', 'data-move': mv, 'aria-hidden': 'true' }, board);
  if (points.length === 1) {
    svg('circle', { cx: points[0][0], cy: points[0][1], r: size * 0.4, class: 'arrow-ring', 'stroke-width': size * 0.1 }, group);
    return;
  }
  // The shaft stops short of the last square's centre, where the head is drawn.
  const [x1, y1] = points[points.length - 2];
  const [x2, y2] = points[points.length - 1];
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const head = size * 0.35;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const shaft = points.slice(0, -1).concat([[x2 - ux * head, y2 - uy * head]]);
  svg('polyline', {
    points: shaft.map((p) => p.join(',')).join(' '),
    class: 'arrow-shaft',
    'stroke-width': size * 0.14,
  }, group);
  const side = head * 0.6;
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  svg('polygon', {
    points: [[x2, y2], [bx - uy * side, by + ux * side], [bx + uy * side, by - ux * side]].map((p) => p.join(',')).join(' '),
    class: 'arrow-head',
  }, group);
}
