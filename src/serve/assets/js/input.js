// Move input: clicks on squares and on pieces in hand, read by the module of the game's move
// syntax (`page.moves`): from-to moves with drops, or routes entered stop by stop.

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

/** A click on a square: the editor's, or a step of a move. */
export function clickSquare(name) {
  if (app.editing) return editClick(name);
  const st = legalNow();
  const entry = current();
  if (!st || !entry) return;
  hideChooser();
  syntaxOf(entry.page).click(entry.page, st, name);
}

/** A click on a piece in hand: selects it to drop (again: drops the selection). */
export function clickHand(side, letter) {
  if (app.editing) return;
  const st = legalNow();
  const entry = current();
  if (!st || !entry || st.side !== side) return;
  hideChooser();
  const has = st.legal.some((m) => dropLetter(m) && handLetter(entry.page, dropLetter(m)) === letter);
  app.selected = has && !(app.selected && app.selected.hand === letter) ? { hand: letter } : null;
  render();
}

/** What the status line adds about the moves of the position (`(must capture)`), or ''. */
export function moveNote(page, st) {
  return syntaxOf(page).note(st);
}
