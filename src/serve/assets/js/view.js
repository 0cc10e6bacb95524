// Drawing the page from its state: the board and hands, the status line, the move list, the
// graph and the clocks.

import { $ } from './dom.js';
import { app, current, key, shownKey, shownState, otherSide, sideName } from './state.js';
import { parsePosition } from './position.js';
import { drawBoard } from './board.js';
import { clockRun, renderClocks } from './clock.js';
import { drawEvalGraph } from './graph.js';
import { drawHands } from './hands.js';
import { moveNote } from './input.js';
import { hasNotation, moveText } from './notation.js';
import { settings } from './settings.js';
import { canMoveHere, goToPly } from './play.js';

/** The side drawn at the bottom: the first mover, or the other when the board is flipped. */
export function bottomSide() {
  const entry = current();
  const first = entry ? entry.page.first : 'b';
  return app.flipped ? otherSide(first) : first;
}

/** Redraws everything that shows the position at the cursor. */
export function render() {
  const entry = current();
  if (!entry) return;
  const page = entry.page;
  const st = shownState();
  const name = app.game.name;
  let pos = null;
  if (app.editing) pos = app.editing;
  else if (st) pos = parsePosition(page, st.sfen);
  else if (app.game.cursor === 0) pos = parsePosition(page, app.game.start);
  else if (app.lastPos && app.lastPos.name === name) pos = app.lastPos.pos;
  if (pos) app.lastPos = { name, pos };
  drawBoard(page, pos, st);
  drawHands(page, pos, st);
  renderStatus(st);
  renderMoveList();
  drawEvalGraph();
  clockRun(st);
  renderClocks();
  $('pass').hidden = !(st && !app.editing && st.legal.includes('pass') && canMoveHere(st));
  $('play-on').hidden = !(app.recordEnded && app.note);
  for (const o of $('notation').options) o.disabled = !hasNotation(page, o.value);
}

/** The status line: the side to move, check, the result, or why there is no state. */
export function renderStatus(st) {
  const s = $('status');
  delete s.dataset.result;
  if (!st) {
    s.textContent = !app.connected ? 'not connected' : app.refused === shownKey() ? 'the server refused this position (see the error above)' : 'asking the server…';
    s.dataset.side = '';
    return;
  }
  let text;
  if (st.result) {
    const w = st.result.winner;
    text = (w ? sideName(w) + ' wins' : 'Draw') + ' (' + st.result.reason + ')';
    s.dataset.result = w || 'draw';
  } else if (app.note && app.game.cursor === app.game.moves.length) {
    text = app.note;
    s.dataset.result = 'note';
  } else {
    const entry = current();
    // Only a game with a royal piece has check (a capture obligation is no check).
    const royal = entry && entry.page.pieces.some((p) => p.royal);
    text = sideName(st.side) + ' to move' + (st.check && royal ? ', check' : '');
    if (entry) text += moveNote(entry.page, st);
    if (app.search && !app.search.cancelled && app.search.kind === 'play') text += ' — engine thinking…';
  }
  if (!app.connected) text += ' — not connected: press Reconnect to move';
  s.textContent = text + '  ·  ply ' + app.game.cursor;
  s.dataset.side = st.side;
}

/** The move list, in the notation chosen (each move also carries its move string, `data-usi`);
 * it scrolls itself to the current move, never the page. */
function renderMoveList() {
  const ol = $('move-list');
  const entry = current();
  ol.textContent = '';
  const li0 = document.createElement('li');
  li0.dataset.ply = '0';
  li0.textContent = 'start';
  ol.appendChild(li0);
  const g = app.game;
  g.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    li.dataset.usi = m;
    const before = app.states.get(key(g.name, g.start, g.moves.slice(0, i)));
    li.textContent = entry ? moveText(entry.page, m, before, i > 0 ? g.moves[i - 1] : null, settings.notation) : m;
    ol.appendChild(li);
  });
  for (const li of ol.children) {
    const ply = Number(li.dataset.ply);
    if (ply === g.cursor) {
      li.classList.add('current');
      li.setAttribute('aria-current', 'step');
    }
    li.addEventListener('click', () => goToPly(ply));
  }
  const cur = ol.querySelector('.current');
  if (cur) {
    const top = cur.offsetTop - ol.offsetTop;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = top + cur.offsetHeight - ol.clientHeight;
  }
}
