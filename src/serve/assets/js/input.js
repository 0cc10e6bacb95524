// Move input: clicks (or Enter on a focused square) and drags on squares and on pieces in hand,
// read by the module of the game's move syntax (`page.moves`: from-to moves with drops, or routes
// entered stop by stop), whose answer is taken here: a move played, a choice asked, or a new
// selection. And the keyboard on the board (arrows between squares, Enter or Space: a click) and
// on the pieces in hand (Enter or Space). While the engine is to move, the same input enters a
// premove (premove.js), played once the engine has moved if it is legal then.

import { $, showError } from './dom.js';
import { app, current } from './state.js';
import { handLetter, dropLetter, moveSquares, squareName } from './position.js';
import { legalNow, playMove, syntaxOf } from './play.js';
import { drawnAt, focusBoard } from './board.js';
import { choose, hideChooser } from './chooser.js';
import { render } from './view.js';
import { editClick } from './editor.js';
import { inHand, ownPiece, premoveClick, premoveMoves, premoveSide } from './premove.js';

/** Takes a move syntax's answer: plays the move, asks which of the moves (their square of
 * arrival marked as chosen, the only target lit meanwhile), or selects. */
function act(page, action) {
  if (action.play) return playMove(action.play);
  if (action.choose) {
    const to = moveSquares(page, action.choose[0]).pop();
    app.selected = Object.assign({}, app.selected, { chosen: to });
    render();
    return choose(page, action.choose);
  }
  app.selected = action.select;
  render();
}

/** The state of the position shown when a move may be entered now; says why not when the page is
 * not connected (a move is never shown half made). */
function movable() {
  if (!app.connected) {
    showError('not connected to the server: the move was not made (press Reconnect)');
    return null;
  }
  return legalNow();
}

/** Takes a premove click's answer (premove.js): the premove entered, a piece selected for it, or
 * neither (both dropped). */
function premoveAct(action) {
  if (action.premove || !('select' in action)) app.premove = action.premove || null;
  app.selected = action.select || null;
  render();
}

/** Drops the premove and its selection (Escape, a right click on the board). */
export function cancelPremove() {
  if (!app.premove && !(app.selected && app.selected.pre)) return;
  premoveAct({});
}

/** The premove, told that the game's last position is shown with its state: kept while the
 * engine is to move; else played when a legal move goes so (a choice asked when several do), or
 * dropped. */
export function takePremove() {
  const pm = app.premove;
  const entry = current();
  if (!pm || !entry || premoveSide()) return;
  app.premove = null;
  const st = legalNow();
  const moves = st ? premoveMoves(entry.page, st, pm) : [];
  if (moves.length === 1) return playMove(moves[0]);
  if (moves.length) return act(entry.page, { choose: moves });
  render();
}

/** A click on a square: the editor's, a step of a move, or of a premove. */
export function clickSquare(name) {
  if (app.editing) return editClick(name);
  const entry = current();
  if (entry && premoveSide()) {
    hideChooser();
    return premoveAct(premoveClick(entry.page, app.selected, name));
  }
  const st = movable();
  if (!st || !entry) return;
  hideChooser();
  act(entry.page, syntaxOf(entry.page).click(entry.page, st, app.selected, name));
}

/** A click on a piece in hand: selects it to drop (again: drops the selection). */
export function clickHand(side, letter) {
  if (app.editing) return;
  const entry = current();
  const pre = entry && premoveSide();
  const st = pre ? null : movable();
  if (!entry || (pre ? pre !== side : !st || st.side !== side)) return;
  hideChooser();
  const has = pre ? inHand(entry.page, side, letter) : st.legal.some((m) => dropLetter(m) && handLetter(entry.page, dropLetter(m)) === letter);
  app.selected = has && !(app.selected && app.selected.hand === letter) ? (pre ? { hand: letter, pre: true } : { hand: letter }) : null;
  render();
}

/** Redraws after the press's event has been dispatched: its touch events still find the element
 * that was pressed, which the redraw replaces. */
function renderSoon() {
  requestAnimationFrame(() => render());
}

/** A press on a square: true when it starts dragging a piece (selected now), false for a click. */
export function dragSquare(name) {
  if (app.editing || !app.connected) return false;
  const st = legalNow();
  const entry = current();
  if (entry && premoveSide()) {
    if (!ownPiece(entry.page, name)) return false;
    hideChooser();
    app.selected = { from: name, pre: true };
    renderSoon();
    return true;
  }
  if (!st || !entry) return false;
  const syntax = syntaxOf(entry.page);
  if (!syntax.canDrag(entry.page, st, app.selected, name)) return false;
  hideChooser();
  app.selected = syntax.startDrag(entry.page, st, app.selected, name);
  renderSoon();
  return true;
}

/** A press on a piece in hand: true when it starts dragging it (selected now). */
export function dragHand(side, letter) {
  if (app.editing || !app.connected) return false;
  const st = legalNow();
  const entry = current();
  if (entry && premoveSide()) {
    if (premoveSide() !== side || !inHand(entry.page, side, letter)) return false;
    hideChooser();
    app.selected = { hand: letter, pre: true };
    renderSoon();
    return true;
  }
  if (!st || !entry || st.side !== side) return false;
  if (!st.legal.some((m) => dropLetter(m) && handLetter(entry.page, dropLetter(m)) === letter)) return false;
  hideChooser();
  app.selected = { hand: letter };
  renderSoon();
  return true;
}

/** A dragged piece has passed over these squares (`visited`, in order) since the drag began with
 * the selection `base` (a route may stop on them): redrawn when the selection changed. */
export function dragOver(base, visited) {
  const st = legalNow();
  const entry = current();
  if (!st || !entry || !app.selected) return;
  const selected = syntaxOf(entry.page).over(entry.page, st, app.selected, base, visited);
  if (selected) {
    app.selected = selected;
    render();
  }
}

/** A dragged piece is dropped on a square (null: off the board); `base` is the selection when the
 * drag began and `visited` the stops it passed over. */
export function dragDrop(name, base, visited) {
  const st = legalNow();
  const entry = current();
  if (app.selected && app.selected.pre) {
    const a = name && entry && premoveSide() ? premoveClick(entry.page, app.selected, name) : {};
    return premoveAct(a.premove ? a : { select: null });
  }
  if (!st || !entry || !app.selected || !name) {
    app.selected = null;
    render();
    return;
  }
  act(entry.page, syntaxOf(entry.page).drop(entry.page, st, app.selected, name, base, visited));
}

/** The arrow keys move the focus between squares as they are drawn; Enter or Space clicks. */
function onBoardKey(e) {
  const g = e.target.closest && e.target.closest('[data-square]');
  const entry = current();
  if (!g || !entry) return;
  const page = entry.page;
  const name = g.dataset.square;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    app.focus = name;
    clickSquare(name);
    if (!$('chooser').hidden) {
      const first = $('chooser').querySelector('button');
      if (first) first.focus({ preventScroll: true });
    }
    return;
  }
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!step) return;
  e.preventDefault();
  e.stopPropagation();
  for (let r = 0; r < page.ranks; r++) {
    for (let c = 0; c < page.files; c++) {
      if (squareName(page, r, c) !== name) continue;
      const at = drawnAt(page, r, c);
      const x = Math.max(0, Math.min(page.files - 1, at.x + step[0]));
      const y = Math.max(0, Math.min(page.ranks - 1, at.y + step[1]));
      // drawnAt is its own inverse: a drawn position's square.
      const back = drawnAt(page, y, x);
      app.focus = squareName(page, back.y, back.x);
    }
  }
  for (const sqEl of document.querySelectorAll('#board [data-square]')) {
    sqEl.setAttribute('tabindex', sqEl.dataset.square === app.focus ? '0' : '-1');
  }
  focusBoard();
}

/** A click on a piece in hand by the keyboard (Enter or Space): selects it to drop, and the focus
 * goes to the board. A pointer's click (`detail` not 0) is drag.js's. */
function onHandClick(e) {
  const b = e.target.closest && e.target.closest('[data-hand]');
  if (!b || e.detail !== 0) return;
  const tag = b.dataset.hand;
  const side = tag.slice(0, tag.indexOf('-'));
  const letter = tag.slice(tag.indexOf('-') + 1);
  clickHand(side, letter);
  if (app.selected && app.selected.hand === letter) focusBoard();
}

/** Listens to the keys of the board and the hands (their elements stay; their contents are
 * redrawn). */
export function initKeys() {
  $('board').addEventListener('keydown', onBoardKey);
  for (const id of ['hand-top', 'hand-bottom']) $(id).addEventListener('click', onHandClick);
}
