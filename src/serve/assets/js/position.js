// Position strings, square names and move strings, read with a game's page descriptor (the
// `page` of its `hello` entry): the board's size and square names, which side moves first (its
// letters are upper case), whether it has hands, and its pieces.

import { otherSide, sideName } from './state.js';
import { settings } from './settings.js';

/** The name of the square at this row and column of the position string (row 0 its first rank). */
export function squareName(page, row, col) {
  return Array.from(page.file_names)[col] + Array.from(page.rank_names)[row];
}

/** The row and column of a square by its name, or null. */
export function squareAt(page, name) {
  const files = Array.from(page.file_names);
  const ranks = Array.from(page.rank_names);
  for (let row = 0; row < ranks.length; row++) {
    for (let col = 0; col < files.length; col++) if (files[col] + ranks[row] === name) return { row, col };
  }
  return null;
}

/** The piece on a square of a parsed position, or null. */
export function pieceOn(page, pos, name) {
  const at = pos && squareAt(page, name);
  return at && pos.cells[at.row] ? pos.cells[at.row][at.col] || null : null;
}

/** What a piece shows in the piece set chosen: its kanji (when the game has them) or its letter. */
export function pieceLabel(page, letter) {
  const info = pieceInfo(page, letter);
  if (settings.pieces === 'kanji' && info && info.kanji) return { text: info.kanji, kanji: true };
  return { text: letter, kanji: false };
}

/** A piece for people: "Black pawn". */
export function pieceWords(page, p) {
  const info = pieceInfo(page, pieceLetter(p));
  return sideName(p.color) + ' ' + (info ? info.name : pieceLetter(p));
}

const squarePatterns = new WeakMap();

/** A pattern that finds square names in a move string (longest names first). */
function squarePattern(page) {
  let re = squarePatterns.get(page);
  if (!re) {
    const names = [];
    for (const f of Array.from(page.file_names)) for (const r of Array.from(page.rank_names)) names.push(f + r);
    names.sort((a, b) => b.length - a.length);
    re = new RegExp(names.map((n) => n.replace(/[^\w]/g, '\\$&')).join('|'), 'g');
    squarePatterns.set(page, re);
  }
  return re;
}

/** The letter a drop names (before its `*`), or null when the move is no drop. */
export function dropLetter(mv) {
  const star = mv.indexOf('*');
  return star > 0 ? mv.slice(0, star) : null;
}

/** The squares a move touches, in order (its stops, or its squares of departure and arrival). */
export function moveSquares(page, mv) {
  const star = mv.indexOf('*');
  return mv.slice(star + 1).match(squarePattern(page)) || [];
}

/** The descriptor of a kind of piece, by its letter as the first mover writes it (`+` first). */
export function pieceInfo(page, letter) {
  return page.pieces.find((p) => p.letter === letter) || null;
}

/** The letter of a drawn piece (`{letter, promoted}`), as the descriptor writes it. */
export function pieceLetter(p) {
  return (p.promoted ? '+' : '') + p.letter;
}

/** The letter a dropped piece is held in hand as. */
export function handLetter(page, letter) {
  const info = pieceInfo(page, letter);
  return (info && info.hand) || letter;
}

/** A piece's letter as its side writes it: upper case for the side that moves first. */
export function sideLetter(page, letter, color) {
  return color === page.first ? letter : letter.toLowerCase();
}

/**
 * Parses a position string into {cells: [row][col] piece|null, hands: {b: [[letter, count]], w},
 * side, number, last}, rows and columns in the string's order; a piece is {letter, color,
 * promoted}; `last` is the square where the last move ended (`-`: none) of a game whose third
 * field names it (`page.last_square`).
 */
export function parsePosition(page, sfen) {
  const words = sfen.trim().split(/\s+/);
  const second = otherSide(page.first);
  const cells = (words[0] || '').split('/').map((rowText) => {
    const row = [];
    let promoted = false;
    for (let i = 0; i < rowText.length; i++) {
      const ch = rowText[i];
      if (ch >= '0' && ch <= '9') {
        let n = ch;
        while (i + 1 < rowText.length && rowText[i + 1] >= '0' && rowText[i + 1] <= '9') n += rowText[++i];
        for (let k = 0; k < Number(n); k++) row.push(null);
      } else if (ch === '+') {
        promoted = true;
      } else {
        const upper = ch === ch.toUpperCase();
        row.push({ letter: ch.toUpperCase(), color: upper ? page.first : second, promoted });
        promoted = false;
      }
    }
    return row;
  });
  const hands = { b: [], w: [] };
  if (page.hands && words[2] && words[2] !== '-') {
    const re = /(\d*)([A-Za-z])/g;
    let m;
    while ((m = re.exec(words[2]))) {
      const color = m[2] === m[2].toUpperCase() ? page.first : second;
      hands[color].push([m[2].toUpperCase(), m[1] ? Number(m[1]) : 1]);
    }
  }
  const number = Math.max(1, Number(words[3]) || 1);
  const last = page.last_square && words[2] ? words[2] : '-';
  return { cells, hands, side: words[1] || page.first, number, last };
}

/** The position string of a parsed position with this side to move. */
export function writePosition(page, pos, side) {
  const third = page.last_square ? pos.last || '-' : handText(page, pos);
  return boardText(page, pos) + ' ' + side + ' ' + third + ' ' + (pos.number || 1);
}

/** The hands' field of a position string (`-` when both are empty). */
function handText(page, pos) {
  let hand = '';
  if (page.hands) {
    for (const color of [page.first, otherSide(page.first)]) {
      for (const [l, c] of pos.hands[color]) if (c > 0) hand += (c > 1 ? c : '') + sideLetter(page, l, color);
    }
  }
  return hand || '-';
}

/** The board's field of a position string. */
function boardText(page, pos) {
  const rows = pos.cells.map((row) => {
    let s = '';
    let empty = 0;
    for (const p of row) {
      if (!p) {
        empty++;
        continue;
      }
      if (empty) s += empty;
      empty = 0;
      s += (p.promoted ? '+' : '') + sideLetter(page, p.letter, p.color);
    }
    return s + (empty ? empty : '');
  });
  return rows.join('/');
}

/** The game of a pasted position string, told by its number of ranks when one game alone has it. */
export function detectGame(games, sfen) {
  const board = sfen.trim().split(/\s+/)[0] || '';
  const ranks = board.split('/').length;
  const matching = games.filter((g) => g.page.ranks === ranks);
  return matching.length === 1 ? matching[0].name : null;
}
