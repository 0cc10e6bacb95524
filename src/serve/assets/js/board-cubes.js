// The cubes board family: cubes that show one face and turn to the next after each board move,
// and pieces that never turn (the king) drawn as wedges. A cube's face is written upright with
// Latin letters (an M must not read as a W from the other side), turned for the side at the top
// with kanji; a small notch points at the opponent, and the face it turns to next is written
// small and upright inside its bottom corner. A cube in hand may be dropped as any of its faces.

import { svg } from './dom.js';
import { pieceInfo, pieceLabel, pieceLetter, sideLetter } from './position.js';
import * as wedges from './board-wedges.js';

/** The board's width or height in pixels, whichever is the longer. */
export const BOARD_PIXELS = 540;
/** Where the coordinates are written: the files' names above, the ranks' on the right. */
export const COORDS = { files: 'top', ranks: 'right' };

/** The class of a square at this row and column. */
export function squareClass() {
  return 'sq-plain';
}

/** Whether a piece turns to another face after a move. */
function turns(info) {
  return !!info && !!info.next && info.next !== info.letter;
}

/** The cube a face belongs to, counted in the order of the descriptor (its colour class). */
function cubeIndex(page, info) {
  const cubes = [];
  for (const q of page.pieces) if (turns(q) && !cubes.includes(q.hand)) cubes.push(q.hand);
  return Math.max(0, cubes.indexOf(info.hand));
}

/** Draws a piece `p` ({letter, color, promoted}) in the square at `box` ({x, y, sq, upsideDown}). */
export function drawPiece(g, page, p, box) {
  const info = pieceInfo(page, pieceLetter(p));
  if (!turns(info)) {
    wedges.drawPiece(g, page, p, box);
    return;
  }
  const { x, y, sq, upsideDown } = box;
  const cx = x + sq / 2;
  const cy = y + sq / 2;
  const turn = upsideDown ? `rotate(180 ${cx} ${cy})` : '';
  const pg = svg('g', { class: 'piece piece-' + p.color, 'data-piece': sideLetter(page, p.letter, p.color) }, g);
  const w = sq * 0.78;
  const h = sq * 0.86;
  const left = cx - w / 2;
  const top = cy - h / 2;
  const body = svg('g', { transform: turn }, pg);
  svg('rect', { x: left + 2, y: top + 4, width: w - 4, height: h - 8, rx: 6, class: 'cube cube-' + cubeIndex(page, info) }, body);
  // The notch at the edge that faces the opponent.
  const n = sq * 0.07;
  svg('polygon', { points: `${cx - n},${top + 4} ${cx + n},${top + 4} ${cx},${top + 4 + n}`, class: 'cube-pointer' }, body);
  const label = pieceLabel(page, p.letter);
  const face = svg('g', { transform: label.kanji ? turn : '' }, pg);
  wedges.drawLabel(face, label, cx - sq * 0.06, cy - sq * 0.02, sq * 0.9);
  const next = pieceInfo(page, info.next);
  const nextLabel = pieceLabel(page, info.next);
  const inset = 6 + sq * 0.03;
  const nx = svg('text', {
    x: left + w - inset, y: top + h - inset, 'text-anchor': 'end', 'font-size': sq * (nextLabel.text.length > 1 ? 0.11 : 0.14),
    class: 'next-face' + (nextLabel.kanji ? ' piece-kanji' : ''), 'data-next': info.next,
  }, pg);
  nx.textContent = '→' + nextLabel.text;
  svg('title', {}, pg).textContent = info.name + ', turns to ' + (next ? next.name : info.next);
}

/** The tooltip of a piece in hand: the faces it may be dropped as. */
export function handTitle(page, letter) {
  const faces = page.pieces.filter((q) => q.hand === letter);
  if (faces.length === 1) return faces[0].name;
  if (!faces.length) return letter;
  return 'cube: ' + faces.map((q) => q.name).join(', ');
}
