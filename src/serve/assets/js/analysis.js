// Analysis: an infinite search of the position shown, its principal variations (clicked to play
// them) and its depth, score, nodes and speed.

import { $ } from './dom.js';
import { app, current, shownKey, shownMoves, shownState, sideName } from './state.js';
import { cancelSearch, firstView, scoreText, startSearch } from './search.js';
import { maybeEngineMove, playLine } from './play.js';
import { render } from './view.js';

/** Starts analysing the position shown. */
export function startAnalysis() {
  const st = shownState();
  const g = app.game;
  startSearch({
    kind: 'analyse', op: 'go', game: g.name, start: g.start, moves: shownMoves(), key: shownKey(),
    ply: g.cursor, side: st ? st.side : null, limits: { infinite: true }, multipv: Number($('multipv').value),
  });
  $('pv-lines').textContent = '';
  $('analysis-info').textContent = 'thinking…';
}

/** The Analyse button: starts or stops analysing. */
export function toggleAnalysis() {
  app.analysing = !app.analysing;
  if (app.analysing) {
    startAnalysis();
  } else {
    cancelSearch();
    maybeEngineMove();
  }
  updateAnalyseButton();
  render();
}

/** Shows whether analysis runs on its button. */
export function updateAnalyseButton() {
  const b = $('analyse');
  b.textContent = app.analysing ? 'Stop' : 'Analyse';
  b.dataset.running = app.analysing ? '1' : '0';
}

/** Shows an `info` of the analysis: the best line's numbers and every line. */
export function renderAnalysis(msg) {
  const s = app.search;
  if (!s) return;
  // The side is known only once the state came; fill it in for the score's view.
  if (!s.side) {
    const st = app.states.get(s.key);
    if (st) s.side = st.side;
  }
  const best = s.lines[0] || msg;
  const entry = current();
  const shown = (score) => (score ? scoreText(firstView(score, s.side, s.game)) : '');
  // Every score is shown from the first mover's view, as the graph is.
  const view = sideName(entry ? entry.page.first : 'b') + "'s view";
  const info = $('analysis-info');
  info.textContent = 'depth ' + (best.depth || 0) + '/' + (best.seldepth || 0) + '  score (' + view + ') ' +
    shown(best.score) + '  nodes ' + (msg.nodes || 0) + '  nps ' + (msg.nps || 0);
  info.dataset.score = shown(best.score);
  app.lastAnalysis = best.score || null;
  const ol = $('pv-lines');
  ol.textContent = '';
  s.lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement('li');
    li.dataset.multipv = String(i + 1);
    li.dataset.pv = line.pv.join(' ');
    li.textContent = shown(line.score) + '  ' + line.pv.join(' ');
    li.title = 'play these moves';
    li.addEventListener('click', () => playLine(line.pv));
    ol.appendChild(li);
  });
}
