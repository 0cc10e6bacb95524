// The position editor: a palette of the game's pieces for each side and an eraser; a click on a
// square puts the chosen piece there (or takes it away), and the position string follows.

import { $ } from './dom.js';
import { app, current, shownState } from './state.js';
import { parsePosition, sideLetter, squareName, writePosition } from './position.js';
import { newGame } from './play.js';
import { cancelSearch } from './search.js';
import { render } from './view.js';

/** The position string of the position shown (its start until the server's state came). */
export function currentSfen() {
  const st = shownState();
  return st ? st.sfen : app.game.cursor === 0 ? app.game.start : '';
}

/** Opens the editor on the position shown. */
export function startEditor() {
  const entry = current();
  if (!entry) return;
  const page = entry.page;
  const sfen = currentSfen() || app.game.start;
  cancelSearch();
  app.editing = parsePosition(page, sfen);
  app.editPiece = null;
  $('edit-side').value = app.editing.side;
  const pal = $('palette');
  pal.textContent = '';
  for (const color of ['b', 'w']) {
    for (const piece of page.pieces) {
      const p = piece.letter;
      const b = document.createElement('button');
      const letter = p.replace('+', '');
      b.textContent = (p.startsWith('+') ? '+' : '') + sideLetter(page, letter, color);
      b.dataset.palette = color + '-' + p;
      b.addEventListener('click', () => {
        app.editPiece = { letter, color, promoted: p.startsWith('+') };
        for (const x of pal.children) x.classList.toggle('selected', x === b);
      });
      pal.appendChild(b);
    }
  }
  const eraser = document.createElement('button');
  eraser.textContent = 'erase';
  eraser.dataset.palette = 'erase';
  eraser.addEventListener('click', () => {
    app.editPiece = 'erase';
    for (const x of pal.children) x.classList.toggle('selected', x === eraser);
  });
  pal.appendChild(eraser);
  $('editor').hidden = false;
  render();
}

/** A click on a square while editing: puts the chosen piece there, or takes it away. */
export function editClick(name) {
  const page = current().page;
  const e = app.editing;
  for (let r = 0; r < page.ranks; r++) {
    for (let c = 0; c < page.files; c++) {
      if (squareName(page, r, c) !== name) continue;
      const cur = e.cells[r][c];
      const want = app.editPiece;
      if (want === 'erase' || !want) e.cells[r][c] = null;
      else if (cur && cur.letter === want.letter && cur.color === want.color && cur.promoted === want.promoted) e.cells[r][c] = null;
      else e.cells[r][c] = Object.assign({}, want);
    }
  }
  $('position-input').value = editorSfen();
  render();
}

/** The position string of the board being edited. */
export function editorSfen() {
  return writePosition(current().page, app.editing, $('edit-side').value);
}

/** Empties the board being edited (the hands stay). */
export function clearEditor() {
  if (!app.editing) return;
  app.editing.cells = app.editing.cells.map((row) => row.map(() => null));
  $('position-input').value = editorSfen();
  render();
}

/** Closes the editor; with `use`, a new game starts from the position edited. */
export function stopEditor(use) {
  const sfen = use ? editorSfen() : null;
  app.editing = null;
  $('editor').hidden = true;
  if (use) {
    $('position-input').value = sfen;
    newGame(app.game.name, sfen);
  } else {
    render();
  }
}
