// The evaluation bar beside the board: the engine's score of the position shown as the share of
// the bar of the side at the bottom, and its number in pawns (+1.5) or as a mate (M5), from the
// first mover's view as the graph and the analysis give it.

import { $ } from './dom.js';
import { app, bottomSide, current, sideName } from './state.js';

/** Centipawns at which the bar stands at about three quarters (a logistic scale). */
const SCALE = 600;

/** Draws the bar for the score kept for the ply shown (an even bar without one). */
export function drawEvalBar() {
  const bar = $('eval-bar');
  const entry = current();
  if (!bar || !entry) return;
  const v = app.evals[app.game.cursor];
  const first = entry.page.first;
  // The first mover's expected share, 0 to 1 (a mate: all or nothing).
  let share = 0.5;
  let label = '';
  if (v !== undefined) {
    if (Math.abs(v) > 9000) {
      share = v > 0 ? 1 : 0;
      label = (v > 0 ? '' : '-') + 'M' + (10000 - Math.abs(v));
    } else {
      share = 1 / (1 + Math.exp(-v / SCALE));
      label = (v > 0 ? '+' : '') + (v / 100).toFixed(1);
    }
  }
  const bottomShare = bottomSide() === first ? share : 1 - share;
  $('eval-fill').style.height = (bottomShare * 100).toFixed(1) + '%';
  $('eval-label').textContent = label;
  const percent = Math.round(share * 100);
  bar.setAttribute('aria-valuenow', String(percent));
  bar.dataset.score = v === undefined ? '' : String(v);
  bar.title = v === undefined ? 'no evaluation of this position yet'
    : sideName(first) + ' ' + label + (Math.abs(v) > 9000 ? ' (mate)' : ' pawns') + ', ' + percent + '% for ' + sideName(first);
}
