// The analysis panel: the Analyse button, and the analysis's principal variations (clicked to
// play them) with its depth, score, nodes and speed. The search itself is search.js's.

import { $ } from './dom.js';
import { app, current, sideName } from './state.js';
import { firstView, scoreText } from './search.js';
import { playLine } from './play.js';
import { lineTexts } from './notation.js';

/** The analysis drawn, `{s, msg}` (its search and last `info`), written again when the notation
 * or the states of its lines change; null when the panel is empty. */
let drawn = null;

/** Shows whether analysis runs on its button. */
export function updateAnalyseButton() {
  const b = $('analyse');
  b.textContent = app.analysing ? 'Stop' : 'Analyse';
  b.dataset.running = app.analysing ? '1' : '0';
}

/** An analysis was asked for: its lines so far are gone, and it is thinking. */
export function analysisAsked(spec) {
  if (spec.kind !== 'analyse') return;
  drawn = null;
  $('pv-lines').textContent = '';
  $('analysis-info').textContent = 'thinking…';
}

/** Shows an `info` of the analysis `s`: the best line's numbers and every line. */
export function renderAnalysis(s, msg) {
  if (s.kind !== 'analyse') return;
  drawn = { s, msg };
  drawAnalysis(s, msg);
}

/** Writes the analysis drawn again (the notation chosen, or a state of its lines, changed). */
export function redrawAnalysis() {
  if (drawn) drawAnalysis(drawn.s, drawn.msg);
}

/** Draws the analysis `s` at its `info` `msg`: its lines in the notation chosen (each also
 * carries its move strings, `data-pv`). */
function drawAnalysis(s, msg) {
  const best = s.lines[0] || msg;
  const entry = current();
  const shown = (score) => (score ? scoreText(firstView(score, s.side, s.game)) : '');
  // Every score is shown from the first mover's view, as the graph is.
  const view = sideName(entry ? entry.page.first : 'b') + "'s view";
  const info = $('analysis-info');
  info.textContent = 'depth ' + (best.depth || 0) + '/' + (best.seldepth || 0) + '  score (' + view + ') ' +
    shown(best.score) + '  nodes ' + (msg.nodes || 0) + '  nps ' + (msg.nps || 0);
  info.dataset.score = shown(best.score);
  const ol = $('pv-lines');
  ol.textContent = '';
  s.lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement('li');
    li.dataset.multipv = String(i + 1);
    li.dataset.pv = line.pv.join(' ');
    li.textContent = shown(line.score) + '  ' + lineTexts(s.game, s.start, s.moves, line.pv).join(' ');
    li.title = 'play these moves';
    li.addEventListener('click', () => playLine(line.pv));
    ol.appendChild(li);
  });
}

/** An analysis ended without its answer: says why. */
export function analysisEnded(s, why) {
  if (s.kind !== 'analyse') return;
  drawn = null;
  $('analysis-info').textContent = why;
}

/** Empties the panel (a new game). */
export function clearAnalysis() {
  drawn = null;
  $('pv-lines').textContent = '';
  $('analysis-info').textContent = '';
}
