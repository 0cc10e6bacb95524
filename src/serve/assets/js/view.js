// Drawing the page from its state: the board and hands, the status line, the move list, the
// graph, the clocks and the connection's state.

import { $ } from './dom.js';
import { app, bottomSide, current, key, shownKey, shownState, sideName } from './state.js';
import { parsePosition } from './position.js';
import { drawBoard } from './board.js';
import { clockRun, clockUpdate, flagFall } from './clock.js';
import { drawEvalGraph } from './graph.js';
import { drawBestArrow, drawShapes } from './arrows.js';
import { drawEvalBar } from './evalbar.js';
import { drawHands } from './hands.js';
import { hasNotation, moveText } from './notation.js';
import { settings } from './settings.js';
import { atNote, canMoveHere, canPromote, canResign, goToLine, requestLineStates, syntaxOf } from './play.js';
import { mainLine, onMainLine } from './variations.js';
import { canAbort, canOfferDraw, drawNote } from './ending.js';

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
  drawEvalBar();
  drawBestArrow();
  drawShapes();
  clockRun(st);
  renderClocks();
  $('pass').hidden = !(st && !app.editing && st.legal.includes('pass') && canMoveHere(st));
  $('play-on').hidden = !(app.recordEnded && app.note);
  $('resign').disabled = !canResign();
  $('promote-line').disabled = !canPromote();
  $('delete-line').disabled = !!app.editing || app.game.cursor === 0;
  $('abort').disabled = !canAbort();
  $('offer-draw').disabled = !canOfferDraw();
  $('offer-draw').hidden = !page.agreed_draw;
  renderChoices(page);
}

/** The piece sets and notations offered: only those the game has (its pieces' `kanji`, its
 * `page.notation`); the choice remembered stays for the games that have it, and the select shows
 * what is drawn. */
function renderChoices(page) {
  const notation = $('notation');
  for (const o of notation.options) o.hidden = o.disabled = !hasNotation(page, o.value);
  notation.value = hasNotation(page, settings.notation) ? settings.notation : 'usi';
  const kanji = page.pieces.some((p) => p.kanji);
  const pieces = $('piece-set');
  for (const o of pieces.options) if (o.value === 'kanji') o.hidden = o.disabled = !kanji;
  pieces.value = kanji ? settings.pieces : 'latin';
}

/** The status line: the side to move, check, the result, or why there is no state. */
export function renderStatus(st) {
  const s = $('status');
  delete s.dataset.result;
  if (!st) {
    s.textContent = !app.connected ? 'not connected' : app.refused === shownKey() ? 'the server refused this position (see the error message)' : 'asking the server…';
    s.dataset.side = '';
    return;
  }
  let text;
  if (st.result) {
    const w = st.result.winner;
    const entry = current();
    // No legal move while the royal piece is in check: a checkmate, named so.
    const mated = st.result.reason === 'no legal move' && st.check && entry && entry.page.pieces.some((p) => p.royal);
    text = (w ? sideName(w) + ' wins' : 'Draw') + ' (' + (mated ? 'checkmate' : st.result.reason) + ')';
    s.dataset.result = w || 'draw';
  } else if (atNote()) {
    text = app.note;
    s.dataset.result = 'note';
  } else {
    const entry = current();
    // Only a game with a royal piece has check (a capture obligation is no check).
    const royal = entry && entry.page.pieces.some((p) => p.royal);
    text = sideName(st.side) + ' to move' + (st.check && royal ? ', check' : '');
    // What the game's move syntax adds about the moves of the position (`(must capture)`), or ''.
    if (entry) text += syntaxOf(entry.page).note(st);
    if (app.search && !app.search.cancelled && app.search.kind === 'play') text += ' — engine thinking…';
    text += drawNote();
  }
  if (!app.connected) text += ' — not connected: press Reconnect to move';
  s.textContent = text + '  ·  ply ' + app.game.cursor;
  s.dataset.side = st.side;
}

/** The text of the last move of `line` (from the start), in the notation chosen, with its
 * mover (`data-side`) and move string (`data-usi`) set on `el`. */
function writeMove(el, line) {
  const g = app.game;
  const entry = current();
  const i = line.length - 1;
  const m = line[i];
  el.dataset.usi = m;
  const before = app.states.get(key(g.name, g.start, line.slice(0, i)));
  if (before) el.dataset.side = before.side;
  el.textContent = entry ? moveText(entry.page, m, before, i > 0 ? line[i - 1] : null, settings.notation) : m;
}

/** Marks the move list's entry of the position shown. */
function markCurrent(el) {
  el.classList.add('current');
  el.setAttribute('aria-current', 'step');
}

/** A variation: the move `first` after `base` and the first moves after it, each a button-like
 * span (`data-line`: its whole line), the alternatives to each of those moves nested in it, in
 * brackets. The position shown, when in it, is marked. */
function variationLine(base, first, shown) {
  const box = document.createElement('span');
  box.className = 'variation';
  let path = base.concat([first.move]);
  let n = first;
  const add = (line, lead) => {
    const el = document.createElement('span');
    el.className = 'vmove';
    el.dataset.line = line.join(' ');
    el.dataset.ply = String(line.length);
    writeMove(el, line);
    // The number before the first mover's moves, and before a variation's first move.
    const number = Math.ceil(line.length / 2);
    if (line.length % 2 === 1) el.dataset.num = number + '.';
    else if (lead) el.dataset.num = number + '…';
    if (shown.length === line.length && el.dataset.line === shown.join(' ')) markCurrent(el);
    el.addEventListener('click', () => goToLine(line));
    box.appendChild(el);
  };
  add(path, true);
  while (n.children.length) {
    const [next, ...alternatives] = n.children;
    const at = path;
    path = path.concat([next.move]);
    add(path, false);
    for (const a of alternatives) box.appendChild(variationLine(at, a, shown)).classList.add('nested');
    n = next;
  }
  const g = app.game;
  requestLineStates(g.name, g.start, base, path.slice(base.length));
  return box;
}

/** The move list, in the notation chosen: the main line in numbered pairs (each pair's first
 * move carries its number, `data-num`; each move its move string, `data-usi`, and its mover,
 * `data-side`), and after a move that has alternatives, its variations (`li.variations`), as
 * lishogi's analysis board lists them. It scrolls itself to the current move, never the page. */
export function renderMoveList() {
  const ol = $('move-list');
  ol.textContent = '';
  const g = app.game;
  const shown = g.moves.slice(0, g.cursor);
  const shownOnMain = onMainLine(shown);
  const li0 = document.createElement('li');
  li0.dataset.ply = '0';
  li0.textContent = 'start';
  if (g.cursor === 0) markCurrent(li0);
  li0.addEventListener('click', () => goToLine([]));
  ol.appendChild(li0);
  const main = mainLine();
  // The positions' states, for the moves written in Japanese and their movers.
  requestLineStates(g.name, g.start, [], main);
  let n = g.tree;
  main.forEach((m, i) => {
    const line = main.slice(0, i + 1);
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    if (i % 2 === 0) li.dataset.num = String(i / 2 + 1);
    writeMove(li, line);
    if (shownOnMain && g.cursor === i + 1) markCurrent(li);
    li.addEventListener('click', () => goToLine(line));
    ol.appendChild(li);
    const alternatives = n.children.slice(1);
    n = n.children[0];
    if (!alternatives.length) return;
    const box = document.createElement('li');
    box.className = 'variations';
    for (const a of alternatives) box.appendChild(variationLine(main.slice(0, i), a, shown));
    ol.appendChild(box);
    // The pair's second move, after the variations, keeps its column behind a numbered gap.
    if (i % 2 === 0 && i + 1 < main.length) {
      const gap = document.createElement('li');
      gap.className = 'gap';
      gap.dataset.num = String(i / 2 + 1);
      gap.textContent = '…';
      ol.appendChild(gap);
    }
  });
  const cur = ol.querySelector('.current');
  if (cur) {
    const top = cur.offsetTop - ol.offsetTop;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = top + cur.offsetHeight - ol.clientHeight;
  }
}

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

/** Draws both clocks (hidden without a clock) and ends the game of a side out of time. */
export function renderClocks() {
  const c = app.clock;
  const bottom = bottomSide();
  const top = bottom === 'b' ? 'w' : 'b';
  for (const [id, side] of [['clock-top', top], ['clock-bottom', bottom]]) {
    const el = $(id);
    if (!c) {
      el.textContent = '';
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    let text = sideName(side) + ' ' + fmt(c[side]);
    if (c.mode === 'byoyomi' && c[side] <= 0) {
      const left = c.side === side ? c.extra - (c.used - c.mainAtStart) : c.extra;
      text += ' byoyomi ' + fmt(left);
    }
    el.textContent = text;
    el.dataset.side = side;
    el.classList.toggle('running', c.side === side);
  }
  if (flagFall()) renderStatus(shownState());
}

/** Redraws the running clock five times a second. */
export function startClockTicker() {
  setInterval(() => {
    if (app.clock && app.clock.side) {
      clockUpdate();
      renderClocks();
    }
  }, 200);
}

/** Shows the connection's state (connection.js's `onStatus`), and the Reconnect button while it
 * is closed (unless it could not even start). */
export function showConnection(status) {
  const el = $('connection');
  el.dataset.state = status.state;
  const kept = '(the game on the page is kept)';
  if (status.state === 'connecting') el.textContent = 'connecting…';
  else if (status.state === 'open') el.textContent = 'connected';
  else if (status.why === 'error') el.textContent = 'cannot connect: ' + status.message;
  else if (status.why === 'idle') el.textContent = 'closed by the server after a while without use: press Reconnect ' + kept;
  else el.textContent = `connection closed: reconnecting in ${status.retryIn} s, or press Reconnect ` + kept;
  // The whole text, where a phone's header cuts it short (the status line says it too).
  el.title = el.textContent;
  if (status.state !== 'closed') $('reconnect').hidden = true;
  else if (status.why !== 'error') $('reconnect').hidden = false;
}
