// Drawing the page from its state: the board and hands, the status line, the move list, the
// graph and the clocks.

import { $ } from './dom.js';
import { app, current, shownKey, shownState, otherSide, sideName } from './state.js';
import { parsePosition } from './position.js';
import { drawBoard } from './board.js';
import { clockRun, renderClocks } from './clock.js';
import { drawEvalGraph } from './graph.js';
import { drawHands } from './hands.js';
import { moveNote } from './input.js';
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
    text = sideName(st.side) + ' to move' + (st.check ? ', check' : '');
    const entry = current();
    if (entry) text += moveNote(entry.page, st);
    if (app.search && !app.search.cancelled && app.search.kind === 'play') text += ' — engine thinking…';
  }
  s.textContent = text + '  ·  ply ' + app.game.cursor;
  s.dataset.side = st.side;
}

function renderMoveList() {
  const ol = $('move-list');
  ol.textContent = '';
  const li0 = document.createElement('li');
  li0.dataset.ply = '0';
  li0.textContent = 'start';
  ol.appendChild(li0);
  app.game.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    li.textContent = m;
    ol.appendChild(li);
  });
  for (const li of ol.children) {
    const ply = Number(li.dataset.ply);
    if (ply === app.game.cursor) li.classList.add('current');
    li.addEventListener('click', () => goToPly(ply));
  }
  const cur = ol.querySelector('.current');
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
}
