// The wedges board family: five-sided pieces pointing at the opponent on plain squares, with
// pieces in hand; a promoted piece is drawn in red. With kanji a piece is written as wooden sets
// are, turned with its wedge for the side at the top; with Latin letters the letter stays
// upright on both sides (`+` before a promoted piece's), so that it reads the same from either.

import { svg } from './dom.js';
import { pieceInfo, pieceLabel, pieceLetter, sideLetter } from './position.js';

/** The board's width or height in pixels, whichever is the longer. */
export const BOARD_PIXELS = 540;
/** Where the coordinates are written: the files' names above, the ranks' on the right. */
export const COORDS = { files: 'top', ranks: 'right' };

/** The class of a square at this row and column. */
export function squareClass() {
  return 'sq-plain';
}

/**
 * Writes a piece's label (`{text, kanji}`) centred on (cx, cy) in a box `size` wide: one
 * character large, two stacked (kanji) or side by side (letters) smaller.
 */
export function drawLabel(parent, label, cx, cy, size) {
  const chars = Array.from(label.text);
  const cls = 'piece-letter' + (label.kanji ? ' piece-kanji' : '');
  if (label.kanji && chars.length > 1) {
    const fs = size * 0.3;
    chars.slice(0, 2).forEach((ch, i) => {
      svg('text', { x: cx, y: cy - fs * 0.08 + i * fs * 0.98, 'text-anchor': 'middle', 'font-size': fs, class: cls }, parent).textContent = ch;
    });
    return;
  }
  const fs = size * (label.kanji ? 0.5 : chars.length > 1 ? 0.34 : 0.42);
  svg('text', { x: cx, y: cy + fs * 0.36, 'text-anchor': 'middle', 'font-size': fs, class: cls }, parent).textContent = label.text;
}

/** Draws a piece `p` ({letter, color, promoted}) in the square at `box` ({x, y, sq, upsideDown}). */
export function drawPiece(g, page, p, box) {
  const { x, y, sq, upsideDown } = box;
  const cx = x + sq / 2;
  const cy = y + sq / 2;
  const turn = upsideDown ? `rotate(180 ${cx} ${cy})` : '';
  const pg = svg('g', {
    class: 'piece piece-' + p.color + (p.promoted ? ' promoted' : ''),
    'data-piece': (p.promoted ? '+' : '') + sideLetter(page, p.letter, p.color),
  }, g);
  const w = sq * 0.78;
  const h = sq * 0.86;
  const left = cx - w / 2;
  const top = cy - h / 2;
  const pts = [
    [cx, top], [left + w * 0.85, top + h * 0.2], [left + w, top + h], [left, top + h], [left + w * 0.15, top + h * 0.2],
  ].map((q) => q.join(',')).join(' ');
  svg('polygon', { points: pts, class: 'wedge', transform: turn }, pg);
  const letter = pieceLetter(p);
  const label = pieceLabel(page, letter);
  const text = svg('g', { transform: label.kanji ? turn : '' }, pg);
  // The label sits on the wide part of the wedge: a little below the centre, or above it for an
  // upright label on a turned piece.
  const shift = label.kanji || !upsideDown ? sq * 0.06 : -sq * 0.04;
  drawLabel(text, label, cx, cy + shift, sq);
  const info = pieceInfo(page, letter);
  svg('title', {}, pg).textContent = info ? info.name : letter;
}

/** The tooltip of a piece in hand. */
export function handTitle(page, letter) {
  const info = pieceInfo(page, letter);
  return info ? info.name : letter;
}
