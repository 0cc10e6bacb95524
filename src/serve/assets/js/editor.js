// The position editor, below the board: a palette of the game's pieces for each side (a named
// row each) and an eraser (a click on a square puts the chosen piece there, or takes it away), the pieces in hand of both sides
// (bounded by the game's set, `page.set`, as the engine counts it), the side to move, the move
// number and, for a game whose position names it, the square where the last move ended. The
// position string follows every change; a set-up the page can see is illegal is named at once,
// and the server checks the rest before the position replaces the game.

import { $ } from './dom.js';
import { app, bottomSide, current, otherSide, shownState, sideName } from './state.js';
import { parsePosition, pieceInfo, pieceLabel, squareAt, squareName, writePosition } from './position.js';
import { checkPosition, newGame } from './play.js';
import { cancelSearch } from './search.js';
import { render } from './view.js';

/** The position string of the position shown (its start until the server's state came). */
export function currentSfen() {
  const st = shownState();
  return st ? st.sfen : app.game.cursor === 0 ? app.game.start : '';
}

/** The letters a game's pieces are held in hand as, in the descriptor's order. */
function handKinds(page) {
  const kinds = [];
  for (const p of page.pieces) if (p.hand && !kinds.includes(p.hand)) kinds.push(p.hand);
  return kinds;
}

/** Opens the editor on the position shown. */
export function startEditor() {
  const entry = current();
  if (!entry) return;
  const page = entry.page;
  cancelSearch();
  app.editing = parsePosition(page, currentSfen() || app.game.start);
  app.editPiece = null;
  buildPalette(page);
  buildHandInputs(page);
  $('edit-last-label').hidden = !page.last_square;
  $('editor').hidden = false;
  editorChanged();
  // The editor opens below the board: the board and the palette are brought into view together
  // (on a phone the Edit button is far below them), so that no piece placed needs a scroll.
  const board = $('board-area').getBoundingClientRect();
  if (board.top < 0 || $('palette').getBoundingClientRect().bottom > window.innerHeight) {
    $('board-area').scrollIntoView({ block: 'start' });
  }
}

/**
 * The palette: a row for each side, named, with a button for each of the game's pieces (drawn as
 * on the board: the side drawn at the top has its pieces upside down, kanji and all, a Latin letter
 * upright and in its side's case), and the eraser.
 */
function buildPalette(page) {
  const pal = $('palette');
  pal.textContent = '';
  const pick = (b, what) => {
    app.editPiece = what;
    for (const x of pal.querySelectorAll('button')) x.classList.toggle('selected', x === b);
  };
  for (const color of [page.first, otherSide(page.first)]) {
    const row = document.createElement('div');
    row.className = 'palette-row';
    row.dataset.side = color;
    const name = document.createElement('span');
    name.className = 'palette-side';
    name.textContent = sideName(color);
    row.appendChild(name);
    for (const piece of page.pieces) {
      const p = piece.letter;
      const letter = p.replace('+', '');
      const shown = pieceLabel(page, p);
      const b = document.createElement('button');
      // The piece's shape (a wedge in the games of wedges, else a box) points at the opponent: the
      // top side's is upside down, with its kanji; a Latin letter stays upright, as on the board.
      const top = color !== bottomSide();
      const shape = document.createElement('span');
      shape.className = 'palette-piece palette-' + page.board + (top ? ' upside-down' : '');
      const glyph = document.createElement('span');
      glyph.className = 'palette-glyph' + (shown.kanji ? ' kanji' : top ? ' upside-down' : '');
      glyph.textContent = shown.kanji ? shown.text : (p.startsWith('+') ? '+' : '') + (color === page.first ? letter : letter.toLowerCase());
      shape.appendChild(glyph);
      b.appendChild(shape);
      b.classList.toggle('promoted', p.startsWith('+'));
      b.setAttribute('aria-label', sideName(color) + ' ' + piece.name);
      b.title = sideName(color) + ' ' + piece.name;
      b.dataset.palette = color + '-' + p;
      b.addEventListener('click', () => pick(b, { letter, color, promoted: p.startsWith('+') }));
      row.appendChild(b);
    }
    pal.appendChild(row);
  }
  const eraser = document.createElement('button');
  eraser.textContent = 'erase';
  eraser.dataset.palette = 'erase';
  eraser.addEventListener('click', () => pick(eraser, 'erase'));
  pal.lastChild.appendChild(eraser);
}

/** One number input per side and kind held in hand (games with hands). */
function buildHandInputs(page) {
  const box = $('edit-hands');
  box.textContent = '';
  box.hidden = !page.hands;
  if (!page.hands) return;
  for (const side of [page.first, otherSide(page.first)]) {
    const title = document.createElement('span');
    title.textContent = sideName(side) + ' in hand';
    box.appendChild(title);
    const row = document.createElement('span');
    row.className = 'hand-inputs';
    for (const letter of handKinds(page)) {
      const info = pieceInfo(page, letter);
      const label = document.createElement('label');
      label.textContent = pieceLabel(page, letter).text + ' ';
      const input = document.createElement('input');
      input.type = 'number';
      input.min = '0';
      input.id = 'edit-hand-' + side + '-' + letter;
      input.setAttribute('aria-label', sideName(side) + ' ' + (info ? info.name : letter) + 's in hand');
      input.addEventListener('input', () => {
        const n = Math.max(0, Math.floor(Number(input.value) || 0));
        const hand = app.editing.hands[side].filter(([l]) => l !== letter);
        if (n > 0) hand.push([letter, n]);
        const order = handKinds(page);
        hand.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
        app.editing.hands[side] = hand;
        editorChanged(false);
      });
      label.appendChild(input);
      row.appendChild(label);
    }
    box.appendChild(row);
  }
}

/** Copies the position being edited into the controls (`all`: the hand inputs too). */
function showEditing(all) {
  const page = current().page;
  const e = app.editing;
  $('edit-side').value = e.side;
  $('edit-number').value = String(e.number || 1);
  $('edit-last').value = e.last || '-';
  if (page.hands && all) {
    for (const side of ['b', 'w']) {
      for (const letter of handKinds(page)) {
        const input = $('edit-hand-' + side + '-' + letter);
        const held = e.hands[side].find(([l]) => l === letter);
        if (input) input.value = String(held ? held[1] : 0);
      }
    }
  }
}

/** The problems the page can see in the position being edited: too many pieces of a kind for the
 * set, a bad last-move square, a bad move number. */
export function editorProblems() {
  const page = current().page;
  const e = app.editing;
  const problems = [];
  for (const count of page.set) {
    const tally = { b: 0, w: 0 };
    e.cells.forEach((row) => row.forEach((p) => {
      if (p && count.letters.includes((p.promoted ? '+' : '') + p.letter)) tally[p.color]++;
    }));
    for (const side of ['b', 'w']) for (const [l, n] of e.hands[side]) if (count.letters.includes(l)) tally[side] += n;
    const name = pieceInfo(page, count.letters[0]);
    const what = name ? name.name : count.letters[0];
    if (count.each) {
      for (const side of ['b', 'w']) {
        if (tally[side] > count.count) problems.push(`${sideName(side)} has ${tally[side]} of the ${what} kind, but the set has ${count.count} each`);
      }
    } else if (tally.b + tally.w > count.count) {
      problems.push(`${tally.b + tally.w} of the ${what} kind on the board and in hand, but the set has ${count.count}`);
    }
  }
  // The side not to move needs its royal piece (on the board, or in hand where kings are held):
  // without it nothing can be mated. The side to move, a mate problem's attacker, may lack its.
  const royal = page.pieces.find((p) => p.royal);
  if (royal) {
    const other = e.side === 'b' ? 'w' : 'b';
    const onBoard = e.cells.some((row) => row.some((p) => p && p.color === other && !p.promoted && p.letter === royal.letter));
    const inHand = e.hands[other].some(([l, n]) => l === royal.letter && n > 0);
    if (!onBoard && !inHand) {
      problems.push(`${sideName(other)} has no ${royal.name}: the side not to move needs one (only the side to move, as a mate problem's attacker, may have none)`);
    }
  }
  if (page.last_square && e.last !== '-' && !squareAt(page, e.last)) problems.push(`'${e.last}' is not a square (or - for none)`);
  if (!(e.number >= 1)) problems.push('the move number must be 1 or more');
  return problems;
}

/** Bounds the hand inputs by what the set leaves, and shows the position string and problems. */
function editorChanged(all = true) {
  const page = current().page;
  showEditing(all);
  if (page.hands) {
    for (const count of page.set.filter((c) => !c.each)) {
      let used = 0;
      app.editing.cells.forEach((row) => row.forEach((p) => {
        if (p && count.letters.includes((p.promoted ? '+' : '') + p.letter)) used++;
      }));
      for (const side of ['b', 'w']) for (const [l, n] of app.editing.hands[side]) if (count.letters.includes(l)) used += n;
      for (const side of ['b', 'w']) {
        for (const letter of count.letters) {
          const input = $('edit-hand-' + side + '-' + letter);
          if (!input) continue;
          const mine = Number(input.value) || 0;
          input.max = String(Math.max(mine, count.count - used + mine));
        }
      }
    }
  }
  $('position-input').value = editorSfen();
  $('edit-problem').textContent = editorProblems().join('; ');
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
  editorChanged();
}

/** The position string of the board being edited. */
export function editorSfen() {
  return writePosition(current().page, app.editing, app.editing.side);
}

/** Empties the board and both hands. */
export function clearEditor() {
  if (!app.editing) return;
  app.editing.cells = app.editing.cells.map((row) => row.map(() => null));
  app.editing.hands = { b: [], w: [] };
  app.editing.last = '-';
  editorChanged();
}

/** Sets the game's start position in the editor. */
export function editorStart() {
  if (!app.editing) return;
  app.editing = parsePosition(current().page, current().startpos);
  editorChanged();
}

/** The side to move, the move number or the last-move square was changed. */
export function editorFields() {
  if (!app.editing) return;
  app.editing.side = $('edit-side').value;
  app.editing.number = Math.floor(Number($('edit-number').value));
  app.editing.last = $('edit-last').value.trim() || '-';
  editorChanged(false);
}

/** Closes the editor; with `use`, a new game starts from the position edited once the server has
 * accepted it (a refusal is named, and the editor stays open). */
export function stopEditor(use) {
  if (!use) {
    app.editing = null;
    $('editor').hidden = true;
    render();
    return;
  }
  const problems = editorProblems();
  if (problems.length) {
    $('edit-problem').textContent = problems.join('; ');
    return;
  }
  const sfen = editorSfen();
  const game = app.game.name;
  $('edit-problem').textContent = 'checking…';
  checkPosition(game, sfen, () => {
    app.editing = null;
    $('editor').hidden = true;
    $('edit-problem').textContent = '';
    $('position-input').value = sfen;
    newGame(game, sfen);
  }, (why) => {
    $('edit-problem').textContent = 'refused: ' + why;
  });
}
