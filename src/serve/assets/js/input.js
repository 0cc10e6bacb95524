// Move input: clicks (or Enter on a focused square) and drags on squares and on pieces in hand,
// read by the module of the game's move syntax (`page.moves`): from-to moves with drops, or
// routes entered stop by stop.

import { showError } from './dom.js';
import { app, current } from './state.js';
import { handLetter, dropLetter } from './position.js';
import { hideChooser } from './chooser.js';
import { editClick } from './editor.js';
import * as fromTo from './input-from-to.js';
import * as route from './input-route.js';
import { legalNow } from './play.js';
import { render } from './view.js';

/** The input module of a move syntax. */
function syntaxOf(page) {
  return page.moves === 'route' ? route : fromTo;
}

/** The squares the selection may go to next. */
export function targetSquares(page, st) {
  if (!app.selected || !st) return [];
  return syntaxOf(page).targets(page, st, app.selected);
}

/** The squares drawn as selected. */
export function selectedSquares() {
  const sel = app.selected;
  if (!sel) return [];
  if (sel.from) return [sel.from];
  if (sel.path) return sel.path.slice();
  return [];
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

/** A click on a square: the editor's, or a step of a move. */
export function clickSquare(name) {
  if (app.editing) return editClick(name);
  const st = movable();
  const entry = current();
  if (!st || !entry) return;
  hideChooser();
  syntaxOf(entry.page).click(entry.page, st, name);
}

/** A click on a piece in hand: selects it to drop (again: drops the selection). */
export function clickHand(side, letter) {
  if (app.editing) return;
  const st = movable();
  const entry = current();
  if (!st || !entry || st.side !== side) return;
  hideChooser();
  const has = st.legal.some((m) => dropLetter(m) && handLetter(entry.page, dropLetter(m)) === letter);
  app.selected = has && !(app.selected && app.selected.hand === letter) ? { hand: letter } : null;
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
  if (!st || !entry) return false;
  const syntax = syntaxOf(entry.page);
  if (!syntax.canDrag(entry.page, st, app.selected, name)) return false;
  hideChooser();
  syntax.startDrag(entry.page, st, name);
  renderSoon();
  return true;
}

/** A press on a piece in hand: true when it starts dragging it (selected now). */
export function dragHand(side, letter) {
  if (app.editing || !app.connected) return false;
  const st = legalNow();
  const entry = current();
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
  if (syntaxOf(entry.page).over(entry.page, st, app.selected, base, visited)) render();
}

/** A dragged piece is dropped on a square (null: off the board); `base` is the selection when the
 * drag began and `visited` the stops it passed over. */
export function dragDrop(name, base, visited) {
  const st = legalNow();
  const entry = current();
  if (!st || !entry || !app.selected || !name) {
    app.selected = null;
    render();
    return;
  }
  syntaxOf(entry.page).drop(entry.page, st, app.selected, name, base, visited);
}

/** What the status line adds about the moves of the position (`(must capture)`), or ''. */
export function moveNote(page, st) {
  return syntaxOf(page).note(st);
}
