// The discs board family: men and kings as discs on a board of dark and light squares, White's
// light and Black's dark; a king (what a man becomes) wears a crown. There are no hands.

import { svg } from './dom.js';
import { sideLetter } from './position.js';

/** The board's width or height in pixels, whichever is the longer. */
export const BOARD_PIXELS = 480;
/** Where the coordinates are written: the files' names below, the ranks' on the left. */
export const COORDS = { files: 'bottom', ranks: 'left' };

/** The class of a square at this row and column. */
export function squareClass(r, c) {
  return (r + c) % 2 ? 'sq-dark' : 'sq-light';
}

/** Whether a letter is a king: a piece that another becomes. */
function isKing(page, letter) {
  return page.pieces.some((q) => q.next === letter && q.letter !== letter);
}

/** Draws a piece `p` ({letter, color}) in the square at `box` ({x, y, sq}). */
export function drawPiece(g, page, p, box) {
  const { x, y, sq } = box;
  const cx = x + sq / 2;
  const cy = y + sq / 2;
  const pg = svg('g', { class: 'piece disc-piece disc-' + p.color, 'data-piece': sideLetter(page, p.letter, p.color) }, g);
  svg('circle', { cx, cy, r: sq * 0.38, class: 'disc-body' }, pg);
  svg('circle', { cx, cy, r: sq * 0.26, class: 'disc-inner' }, pg);
  if (isKing(page, p.letter)) {
    svg('text', { x: cx, y: cy + sq * 0.12, 'text-anchor': 'middle', class: 'disc-crown', 'font-size': sq * 0.34 }, pg).textContent = '♛';
  }
}

/** The tooltip of a piece in hand (the family has no hands). */
export function handTitle(page, letter) {
  return letter;
}
