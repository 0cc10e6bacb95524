// The evaluation graph: the engine's score at each ply it searched, from the first mover's view;
// a dot is clicked to go to its ply.

import { $, svg } from './dom.js';
import { app, current, sideName } from './state.js';
import { goToPly } from './play.js';

const W = 300;
const H = 80;

/** Draws the graph of the scores kept so far. */
export function drawEvalGraph() {
  const graph = $('eval-graph');
  graph.textContent = '';
  const n = Math.max(app.game.moves.length, 1);
  svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-axis' }, graph);
  const clamp = (v) => Math.max(-1500, Math.min(1500, v));
  let d = '';
  const dots = [];
  app.evals.forEach((v, ply) => {
    if (v === undefined || ply > app.game.moves.length) return;
    const x = (ply / n) * W;
    const y = H / 2 - (clamp(v) / 1500) * (H / 2 - 2);
    d += (d ? ' L' : 'M') + x.toFixed(1) + ' ' + y.toFixed(1);
    dots.push([x, y, ply, v]);
  });
  if (d) svg('path', { d, class: 'graph-line' }, graph);
  for (const [x, y, ply, v] of dots) {
    const c = svg('circle', { cx: x, cy: y, r: 2.5, class: 'graph-dot', 'data-ply': ply }, graph);
    svg('title', {}, c).textContent = 'ply ' + ply + ': ' + (Math.abs(v) > 9000 ? 'mate' : v);
    c.addEventListener('click', () => goToPly(ply));
  }
  const x = (app.game.cursor / n) * W;
  svg('line', { x1: x, y1: 0, x2: x, y2: H, class: 'graph-cursor' }, graph);
  graph.dataset.points = String(dots.length);
  const entry = current();
  graph.setAttribute('aria-label', 'evaluation from ' + sideName(entry ? entry.page.first : 'b') + "'s view");
}
