// The mate search of the position shown, and its line (a move is clicked to go to it).

import { $ } from './dom.js';
import { app, gameEntry, shownKey, shownMoves } from './state.js';
import { cancelSearch, startSearch } from './search.js';
import { showPosition } from './play.js';
import { updateAnalyseButton } from './analysis.js';

/** Starts a mate search of the position shown (analysis stops). */
export function startMate() {
  const g = app.game;
  if (app.analysing) {
    app.analysing = false;
    updateAnalyseButton();
  }
  $('mate-result').textContent = 'searching…';
  $('mate-result').dataset.result = '';
  $('mate-line').textContent = '';
  startSearch({
    kind: 'mate', op: 'mate', game: g.name, start: g.start, moves: shownMoves(), key: shownKey(),
    ply: g.cursor, ms: Math.max(100, Number($('mate-ms').value) || 10000),
  });
}

/** Shows the server's `mate` answer and its line. */
export function mateFound(s, msg) {
  const res = $('mate-result');
  res.dataset.result = msg.result;
  const line = msg.line || [];
  res.textContent = msg.result === 'mate' ? 'mate in ' + line.length + ' plies' : msg.result === 'nomate' ? 'no mate' : 'timeout';
  // A solved game without its table: the search alone cannot see its long wins, so its "no mate"
  // says nothing; the page says what is missing instead.
  const entry = gameEntry(s.game);
  if (msg.result !== 'mate' && entry && entry.exact && !entry.exact.loaded) {
    res.dataset.result = 'notable';
    res.textContent = `the exact table is not loaded, and the search alone cannot tell: start the server with ` +
      `--${entry.exact.flag} FILE (made by tsubame solve ${entry.name})`;
  }
  app.mate = { base: s.moves.slice(), key: s.key, line };
  const ol = $('mate-line');
  ol.textContent = '';
  line.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.matePly = String(i + 1);
    li.textContent = m;
    li.addEventListener('click', () => {
      const g = app.game;
      cancelSearch();
      const prefix = app.mate.base.concat(app.mate.line);
      if (g.moves.length < prefix.length || !prefix.every((mv, j) => g.moves[j] === mv)) g.moves = prefix;
      g.cursor = app.mate.base.length + i + 1;
      showPosition();
    });
    ol.appendChild(li);
  });
}
