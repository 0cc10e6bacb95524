// The board: its squares, coordinates, marks, the last move, the selection and the legal
// targets, in the layout of the game's board family (`page.board`), whose module draws the
// pieces.

import { $, svg } from './dom.js';
import { app } from './state.js';
import { moveSquares, pieceInfo, pieceLetter, squareName } from './position.js';
import * as cubes from './board-cubes.js';
import * as discs from './board-discs.js';
import * as wedges from './board-wedges.js';
import { clickSquare, selectedSquares, targetSquares } from './input.js';
import { bottomSide } from './view.js';

/** The drawing module of a board family. */
export function familyOf(page) {
  return { wedges, cubes, discs }[page.board] || wedges;
}

const MARGIN = 22;

/** Draws the board of the position `pos` (null: empty) with the server's state `st`. */
export function drawBoard(page, pos, st) {
  const board = $('board');
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
  const flip = bottom !== page.first;
  const last = st && app.game.cursor > 0 ? moveSquares(page, app.game.moves[app.game.cursor - 1]) : [];
  const targets = targetSquares(page, st);
  const selected = selectedSquares();
  let checkSquare = null;
  if (st && st.check && pos) {
    pos.cells.forEach((row, r) => row.forEach((p, c) => {
      const info = p && pieceInfo(page, pieceLetter(p));
      if (info && info.royal && p.color === st.side) checkSquare = squareName(page, r, c);
    }));
  }
  svg('rect', { x: 0, y: 0, width: width + 2 * MARGIN, height: height + 2 * MARGIN, class: 'board-frame' }, board);
  for (let r = 0; r < ranks; r++) {
    for (let c = 0; c < files; c++) {
      const x = MARGIN + (flip ? files - 1 - c : c) * sq;
      const y = MARGIN + (flip ? ranks - 1 - r : r) * sq;
      const name = squareName(page, r, c);
      const g = svg('g', { 'data-square': name, class: 'square' }, board);
      let cls = family.squareClass(r, c);
      if (last.includes(name)) cls += ' sq-last';
      if (selected.includes(name)) cls += ' sq-selected';
      if (checkSquare === name) cls += ' sq-check';
      svg('rect', { x, y, width: sq, height: sq, class: cls }, g);
      if (page.marked.includes(name)) {
        svg('circle', { cx: x + sq / 2, cy: y + sq / 2, r: sq * 0.42, class: 'square-mark' }, g);
      }
      const p = pos && pos.cells[r] ? pos.cells[r][c] : null;
      if (p) family.drawPiece(g, page, p, { x, y, sq, upsideDown: p.color !== bottom });
      if (targets.includes(name)) {
        g.classList.add('target');
        g.setAttribute('data-target', '1');
        svg('circle', { cx: x + sq / 2, cy: y + sq / 2, r: p ? sq * 0.46 : sq * 0.14, class: p ? 'target-ring' : 'target-dot' }, g);
      }
      g.addEventListener('click', () => clickSquare(name));
    }
  }
  // Coordinates, on the sides the family writes them.
  for (let i = 0; i < files; i++) {
    const x = MARGIN + (flip ? files - 1 - i : i) * sq + sq / 2;
    const y = family.COORDS.files === 'bottom' ? height + MARGIN + 16 : 16;
    svg('text', { x, y, class: 'coord', 'text-anchor': 'middle' }, board).textContent = fileNames[i];
  }
  for (let i = 0; i < ranks; i++) {
    const x = family.COORDS.ranks === 'left' ? 11 : width + MARGIN + 11;
    const y = MARGIN + (flip ? ranks - 1 - i : i) * sq + sq / 2 + 5;
    svg('text', { x, y, class: 'coord', 'text-anchor': 'middle' }, board).textContent = rankNames[i];
  }
}
