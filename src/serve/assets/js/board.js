// The board: its squares, coordinates, marks, the last move, the selection and the legal
// targets, in the layout of the game's board family (`page.board`), whose module draws the
// pieces. Each square is focusable in turn (one at a time, moved with the arrow keys: input.js)
// and named for assistive technology ("7f, Black pawn").

import { $, svg } from './dom.js';
import { app, bottomSide } from './state.js';
import { moveSquares, pieceInfo, pieceLetter, pieceWords, squareName } from './position.js';
import * as cubes from './board-cubes.js';
import * as discs from './board-discs.js';
import * as wedges from './board-wedges.js';
import { syntaxOf } from './play.js';
import { premoveSquares } from './premove.js';

/** The drawing module of a board family. */
export function familyOf(page) {
  return { wedges, cubes, discs }[page.board] || wedges;
}

const MARGIN = 22;

/** How long a move's glide lasts, in milliseconds (the style sheet's `arrive` animation). */
const GLIDE_MS = 180;

/** The game and ply the board showed when it was last drawn: a board drawn next one ply further
 * on the same game shows its last move arriving (a glide from its first square, unless the
 * reader prefers reduced motion, which the style sheet honours). */
let lastDrawn = null;

/** The screen position of a square: its column and row as drawn (the board may be flipped). Its
 * own inverse: `drawnAt(page, y, x)` of a drawn position is its square's row and column. */
export function drawnAt(page, row, col) {
  const flip = bottomSide() !== page.first;
  return { x: flip ? page.files - 1 - col : col, y: flip ? page.ranks - 1 - row : row };
}

/** Draws the board of the position `pos` (null: empty) with the server's state `st`. */
export function drawBoard(page, pos, st) {
  const board = $('board');
  const hadFocus = board.contains(document.activeElement);
  const family = familyOf(page);
  const files = page.files;
  const ranks = page.ranks;
  const fileNames = Array.from(page.file_names);
  const rankNames = Array.from(page.rank_names);
  const sq = Math.floor(family.BOARD_PIXELS / Math.max(files, ranks));
  const width = sq * files;
  const height = sq * ranks;
  board.setAttribute('viewBox', `0 0 ${width + 2 * MARGIN} ${height + 2 * MARGIN}`);
  board.dataset.game = app.game.name;
  board.dataset.flipped = app.flipped ? '1' : '0';
  board.textContent = '';
  const bottom = bottomSide();
  const last = st && app.game.cursor > 0 ? moveSquares(page, app.game.moves[app.game.cursor - 1]) : [];
  // While the player chooses between moves to one square (promote or not, the face dropped),
  // that square alone is lit, marked as chosen.
  const chosen = app.selected && app.selected.chosen;
  const targets = chosen ? [chosen] : app.selected && !app.selected.pre && st ? syntaxOf(page).targets(page, st, app.selected) : [];
  const selected = selectedSquares();
  const premove = premoveSquares();
  let checkSquare = null;
  if (st && st.check && pos) {
    pos.cells.forEach((row, r) => row.forEach((p, c) => {
      const info = p && pieceInfo(page, pieceLetter(p));
      if (info && info.royal && p.color === st.side) checkSquare = squareName(page, r, c);
    }));
  }
  if (!app.focus || !squareExists(page, app.focus)) app.focus = squareName(page, page.ranks - 1, 0);
  svg('rect', { x: 0, y: 0, width: width + 2 * MARGIN, height: height + 2 * MARGIN, class: 'board-frame' }, board);
  for (let r = 0; r < ranks; r++) {
    for (let c = 0; c < files; c++) {
      const at = drawnAt(page, r, c);
      const x = MARGIN + at.x * sq;
      const y = MARGIN + at.y * sq;
      const name = squareName(page, r, c);
      const g = svg('g', { 'data-square': name, class: 'square', role: 'button', tabindex: name === app.focus ? '0' : '-1' }, board);
      let cls = family.squareClass(r, c);
      if (last.includes(name)) cls += ' sq-last';
      if (selected.includes(name)) cls += ' sq-selected';
      if (chosen === name) cls += ' sq-chosen';
      if (checkSquare === name) cls += ' sq-check';
      if (premove.includes(name)) cls += ' sq-premove';
      svg('rect', { x, y, width: sq, height: sq, class: cls }, g);
      if (page.marked.includes(name)) {
        svg('circle', { cx: x + sq / 2, cy: y + sq / 2, r: sq * 0.42, class: 'square-mark' }, g);
      }
      const p = pos && pos.cells[r] ? pos.cells[r][c] : null;
      if (p) {
        family.drawPiece(g, page, p, { x, y, sq, upsideDown: p.color !== bottom });
        if (app.dragFrom === name) for (const pg of g.querySelectorAll('.piece')) pg.classList.add('dragging');
      }
      let label = name + ', ' + (p ? pieceWords(page, p) : 'empty');
      if (selected.includes(name)) label += ', selected';
      if (chosen === name) label += ', chosen';
      if (targets.includes(name)) {
        g.classList.add('target');
        g.setAttribute('data-target', '1');
        label += ', legal destination';
        svg('circle', { cx: x + sq / 2, cy: y + sq / 2, r: p ? sq * 0.46 : sq * 0.14, class: p ? 'target-ring' : 'target-dot' }, g);
      }
      if (checkSquare === name) label += ', in check';
      if (premove.includes(name)) label += ', premove';
      g.setAttribute('aria-label', label);
      svg('rect', { x: x + 3, y: y + 3, width: sq - 6, height: sq - 6, class: 'sq-focus', fill: 'none' }, g);
    }
  }
  // Coordinates, on the sides the family writes them.
  for (let i = 0; i < files; i++) {
    const x = MARGIN + drawnAt(page, 0, i).x * sq + sq / 2;
    const y = family.COORDS.files === 'bottom' ? height + MARGIN + 16 : 16;
    svg('text', { x, y, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, board).textContent = fileNames[i];
  }
  for (let i = 0; i < ranks; i++) {
    const x = family.COORDS.ranks === 'left' ? 11 : width + MARGIN + 11;
    const y = MARGIN + drawnAt(page, i, 0).y * sq + sq / 2 + 5;
    svg('text', { x, y, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, board).textContent = rankNames[i];
  }
  animateArrival(page);
  if (hadFocus) focusBoard();
}

/** Marks the piece of the move just played (the board shows the ply after the one it showed
 * last, in the same game) to glide in from its first square: the class `arrive` and the offset
 * `--dx`/`--dy` the style sheet's animation starts from, kept as `app.arrival` while the board
 * shows that position. A board drawn again while the glide runs carries it on where it was. A
 * drop has no first square on the board and arrives at once. */
function animateArrival(page) {
  const g = app.game;
  const now = { game: g.name, start: g.start, cursor: g.cursor, moves: g.moves.slice(0, g.cursor).join(' ') };
  const before = lastDrawn;
  lastDrawn = now;
  const same = (a) => a && a.game === now.game && a.start === now.start && a.moves === now.moves;
  const a = app.arrival;
  if (a && same(a.at)) {
    const elapsed = performance.now() - a.since;
    if (elapsed < GLIDE_MS) markArrival(a, elapsed);
    return;
  }
  app.arrival = null;
  if (!before || before.game !== now.game || before.start !== now.start || now.cursor !== before.cursor + 1) return;
  if (!now.moves.startsWith(before.moves)) return;
  const mv = g.moves[g.cursor - 1];
  if (mv.includes('*')) return;
  const squares = moveSquares(page, mv);
  if (squares.length < 2) return;
  const from = document.querySelector(`#board [data-square="${squares[0]}"] rect`);
  const to = document.querySelector(`#board [data-square="${squares[squares.length - 1]}"] rect`);
  if (!from || !to) return;
  const f = from.getBBox();
  const t = to.getBBox();
  app.arrival = { at: now, move: mv, square: squares[squares.length - 1], dx: f.x - t.x, dy: f.y - t.y, since: performance.now() };
  markArrival(app.arrival, 0);
}

/** Gives the arriving piece its glide, `elapsed` milliseconds into it. */
function markArrival(a, elapsed) {
  for (const piece of document.querySelectorAll(`#board [data-square="${a.square}"] .piece`)) {
    piece.style.setProperty('--dx', a.dx + 'px');
    piece.style.setProperty('--dy', a.dy + 'px');
    piece.style.animationDelay = -Math.round(elapsed) + 'ms';
    piece.classList.add('arrive');
  }
}

/** The squares drawn as selected. */
function selectedSquares() {
  const sel = app.selected;
  if (!sel) return [];
  if (sel.from) return [sel.from];
  if (sel.path) return sel.path.slice();
  return [];
}

function squareExists(page, name) {
  for (let r = 0; r < page.ranks; r++) for (let c = 0; c < page.files; c++) if (squareName(page, r, c) === name) return true;
  return false;
}

/** Moves the keyboard's focus to the board's focused square. */
export function focusBoard() {
  const g = document.querySelector(`#board [data-square="${app.focus}"]`);
  if (g) g.focus({ preventScroll: true });
}
