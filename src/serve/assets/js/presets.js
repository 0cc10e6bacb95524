// One-click positions: each game's start and its examples as `hello` lists them (games, mates,
// positions that show a rule), and a pasted position string, whose game is told by its ranks.

import { $, showError } from './dom.js';
import { app, sideName } from './state.js';
import { detectGame } from './position.js';
import { startMate } from './search.js';
import { checkPosition, newGame, showWholeGame } from './play.js';
import { loadRecord } from './records.js';

/** Makes the buttons of every game's start and examples: `GAME-start`, `GAME-INDEX`. */
export function buildPresets(games) {
  const box = $('presets');
  box.textContent = '';
  for (const entry of games) {
    const group = document.createElement('div');
    group.className = 'preset-group';
    group.dataset.game = entry.name;
    const title = document.createElement('span');
    title.className = 'preset-title';
    title.textContent = (entry.title || entry.name) + ':';
    group.appendChild(title);
    const start = { label: 'start', kind: 'position', sfen: null, moves: [], plies: null, exact: false, result: null };
    group.appendChild(presetButton(entry, start, entry.name + '-start'));
    // An example listed twice (the same kind, position and moves under two names) is offered once.
    const seen = new Set();
    entry.examples.forEach((example, i) => {
      const same = [example.kind, example.sfen, (example.moves || []).join(' ')].join('|');
      if (seen.has(same)) return;
      seen.add(same);
      group.appendChild(presetButton(entry, example, entry.name + '-' + i));
    });
    box.appendChild(group);
  }
}

function presetButton(entry, example, id) {
  const b = document.createElement('button');
  b.dataset.preset = id;
  b.textContent = example.label;
  if (example.kind === 'mate' && example.plies) b.title = 'mate in ' + example.plies + ' plies';
  b.addEventListener('click', () => usePreset(entry, example));
  return b;
}

/**
 * Sets up a one-click position: its start, its moves (shown at the end, stepped through with the
 * move list), a game's result as its source gives it, and for an example answered from the game's
 * exact table, the table's mating line (or what the server needs for one).
 */
function usePreset(entry, example) {
  const sfen = example.sfen || entry.startpos;
  $('position-input').value = sfen;
  newGame(entry.name, sfen);
  if (example.result) {
    // The game's end as its source gives it (a resignation): shown, and in its records; the
    // engine waits until asked to play on, as after a loaded record.
    const w = example.result.winner;
    app.note = (w ? sideName(w) + ' wins' : 'Draw') + ' (' + example.result.reason + ', as the example says)';
    app.noteResult = { winner: w, reason: example.result.reason };
    app.recordEnded = true;
  }
  if (example.moves && example.moves.length) showWholeGame(example.moves);
  if (example.exact && entry.exact) {
    if (entry.exact.loaded) {
      startMate();
    } else {
      $('mate-result').dataset.result = 'notable';
      $('mate-result').textContent =
        `start the server with --${entry.exact.flag} FILE (made by tsubame solve ${entry.name})`;
    }
  }
}

/** Loads a pasted position string (`sfen` before it is allowed, and a USI `position` line:
 * `position startpos|sfen … [moves …]`) as a new game of its game, once the server has accepted it: a
 * refused one is named and the game shown stays. Moves are read by the server as a USI record's
 * (`load`), in the game of the SFEN, or the game shown for `startpos`. */
export function loadPosition(text) {
  const [head, moves] = text.trim().replace(/^position\s+/, '').split(/\s+moves(?:\s+|$)/);
  const sfen = (head || '').trim().replace(/^sfen\s+/, '');
  if (!sfen || !app.hello) return;
  const games = app.hello.games;
  if (moves !== undefined && moves.trim()) {
    const named = sfen === 'startpos' ? app.game.name : detectGame(games, sfen);
    if (named) {
      loadRecord('position ' + (sfen === 'startpos' ? 'startpos' : 'sfen ' + sfen) + ' moves ' + moves.trim(), named);
      return;
    }
  }
  if (sfen === 'startpos') {
    newGame(app.game.name, null);
    return;
  }
  const game = detectGame(games, sfen);
  if (!game) {
    const ranks = (sfen.split(/\s+/)[0] || '').split('/').length;
    const same = games.filter((g) => g.page.ranks === ranks).map((g) => g.title || g.name);
    const counts = Array.from(new Set(games.map((g) => g.page.ranks))).join(', ').replace(/, (\d+)$/, ' or $1');
    showError(same.length
      ? 'cannot tell the game of this position string: ' + same.join(', ') + ' all have ' + ranks + ' ranks'
      : 'cannot tell the game of this position string (' + counts + ' ranks expected)');
    return;
  }
  checkPosition(game, sfen, () => newGame(game, sfen));
}
