// The wedges board family: five-sided pieces pointing at the opponent on plain squares, with
// pieces in hand; a promoted piece is written with `+` and drawn in red.

import { svg } from './dom.js';
import { pieceInfo, pieceLetter, sideLetter } from './position.js';

/** The board's width or height in pixels, whichever is the longer. */
export const BOARD_PIXELS = 540;
/** Where the coordinates are written: the files' names above, the ranks' on the right. */
export const COORDS = { files: 'top', ranks: 'right' };

/** The class of a square at this row and column. */
export function squareClass() {
  return 'sq-plain';
}

/** Draws a piece `p` ({letter, color, promoted}) in the square at `box` ({x, y, sq, upsideDown}). */
export function drawPiece(g, page, p, box) {
  const { x, y, sq, upsideDown } = box;
  const cx = x + sq / 2;
  const cy = y + sq / 2;
  const pg = svg('g', {
    class: 'piece piece-' + p.color + (p.promoted ? ' promoted' : ''),
    transform: upsideDown ? `rotate(180 ${cx} ${cy})` : '',
    'data-piece': (p.promoted ? '+' : '') + sideLetter(page, p.letter, p.color),
  }, g);
  const w = sq * 0.78;
  const h = sq * 0.86;
  const left = cx - w / 2;
  const top = cy - h / 2;
  const pts = [
    [cx, top], [left + w * 0.85, top + h * 0.2], [left + w, top + h], [left, top + h], [left + w * 0.15, top + h * 0.2],
  ].map((q) => q.join(',')).join(' ');
  svg('polygon', { points: pts, class: 'wedge' }, pg);
  const label = pieceLetter(p);
  svg('text', { x: cx, y: cy + sq * 0.16, 'text-anchor': 'middle', 'font-size': sq * (p.promoted ? 0.34 : 0.42), class: 'piece-letter' }, pg).textContent = label;
  const info = pieceInfo(page, label);
  svg('title', {}, pg).textContent = info ? info.name : label;
}

/** The tooltip of a piece in hand. */
export function handTitle(page, letter) {
  const info = pieceInfo(page, letter);
  return info ? info.name : letter;
}
