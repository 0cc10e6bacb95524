// The mate panel: the mate search's progress, its answer and its line (a move is clicked to go
// to it). The search itself is search.js's.

import { $ } from './dom.js';
import { app, gameEntry } from './state.js';
import { goToMateMove } from './play.js';
import { lineTexts } from './notation.js';

/** The mate search whose line is drawn, written again when the notation or the states of its
 * positions change; null when there is none. */
let drawn = null;

/** A mate search was asked for: the last answer is gone, and it is searching. */
export function mateAsked(spec) {
  if (spec.kind !== 'mate') return;
  $('mate-result').textContent = 'searching…';
  $('mate-result').dataset.result = '';
  $('mate-line').textContent = '';
  drawn = null;
}

/** An `info` of the mate search `s`: the nodes searched so far. */
export function mateProgress(s, msg) {
  if (s.kind === 'mate') $('mate-result').textContent = 'searching… ' + (msg.nodes || 0) + ' nodes';
}

/** Shows the server's `mate` answer to the search `s`, and its line (`app.mate`). */
export function mateFound(s, msg) {
  const res = $('mate-result');
  res.dataset.result = msg.result;
  const line = app.mate.line;
  res.textContent = msg.result === 'mate' ? 'mate in ' + line.length + ' plies' : msg.result === 'nomate' ? 'no mate' : 'timeout';
  // A solved game without its table: the search alone cannot see its long wins, so its "no mate"
  // says nothing; the page says what is missing instead.
  const entry = gameEntry(s.game);
  if (msg.result !== 'mate' && entry && entry.exact && !entry.exact.loaded) {
    res.dataset.result = 'notable';
    res.textContent = `the exact table is not loaded, and the search alone cannot tell: start the server with ` +
      `--${entry.exact.flag} FILE (made by tsubame solve ${entry.name})`;
  }
  drawn = s;
  drawMateLine(s, line);
}

/** Draws the mate line `line` of the search `s` in the notation chosen (each move also carries
 * its move string, `data-usi`). */
function drawMateLine(s, line) {
  const ol = $('mate-line');
  ol.textContent = '';
  const texts = lineTexts(s.game, s.start, s.moves, line);
  line.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.matePly = String(i + 1);
    li.dataset.usi = m;
    li.textContent = texts[i];
    li.addEventListener('click', () => goToMateMove(i + 1));
    ol.appendChild(li);
  });
}

/** Writes the mate line drawn again (the notation chosen, or a state of its positions, changed). */
export function redrawMateLine() {
  if (drawn && app.mate) drawMateLine(drawn, app.mate.line);
}

/** A mate search ended without its answer: says why. */
export function mateEnded(s, why) {
  if (s.kind !== 'mate') return;
  drawn = null;
  $('mate-result').textContent = why;
  $('mate-result').dataset.result = 'error';
}

/** Empties the panel (a new game). */
export function clearMate() {
  drawn = null;
  $('mate-line').textContent = '';
  $('mate-result').textContent = '';
}
