// The move list's notations: Japanese (☗7六歩) and Western (P-7f) for the games whose descriptor
// offers them (`page.notation`), and the move strings themselves (USI). A move is written from
// the position before it (its pieces and its legal moves, the server's `state`).

import { dropLetter, moveSquares, parsePosition, pieceInfo, pieceLetter, pieceOn, squareAt } from './position.js';
import { app, gameEntry, key } from './state.js';
import { settings } from './settings.js';
import { requestLineStates } from './play.js';

/** Whether a game can be written in this notation (`usi` always). */
export function hasNotation(page, notation) {
  if (notation === 'japanese') return !!page.notation.japanese_files;
  if (notation === 'western') return page.notation.western;
  return true;
}

/**
 * A search's line (the analysis's, the mate's) in the notation chosen: the moves `line` played
 * after `base` from `start` in `game`, each written from the server's state of the position
 * before it. The states not known yet are asked for (a few a second, play.js); until one comes,
 * its move is written as its move string, and the line is written again when it comes (the
 * `states` event).
 */
export function lineTexts(game, start, base, line) {
  const entry = gameEntry(game);
  if (!entry || settings.notation === 'usi' || !hasNotation(entry.page, settings.notation)) return line.slice();
  requestLineStates(game, start, base, line);
  return line.map((mv, i) => {
    const before = app.states.get(key(game, start, base.concat(line.slice(0, i)))) || null;
    const previous = i > 0 ? line[i - 1] : base.length ? base[base.length - 1] : null;
    return moveText(entry.page, mv, before, previous, settings.notation);
  });
}

/** The parts of a from-to move: the letter dropped (or null), its squares, promotion. */
function parts(page, mv) {
  const squares = moveSquares(page, mv);
  const drop = dropLetter(mv);
  return { drop, from: drop ? null : squares[0], to: squares[squares.length - 1], promote: mv.endsWith('+') };
}

/**
 * `mv` written in `notation` for the position `before` (a `state`) that it is played in;
 * `previous` is the move before it (for 同), or null. The move string when the game has no such
 * notation or the position is not known yet.
 */
export function moveText(page, mv, before, previous, notation) {
  if (!before || !hasNotation(page, notation) || notation === 'usi' || page.moves !== 'from-to') return mv;
  if (mv === 'pass') return notation === 'japanese' ? (before.side === 'b' ? '☗' : '☖') + 'パス' : 'pass';
  const pos = parsePosition(page, before.sfen);
  const m = parts(page, mv);
  const piece = m.drop ? { letter: m.drop, color: before.side, promoted: false } : pieceOn(page, pos, m.from);
  if (!piece || !m.to) return mv;
  const letter = m.drop || pieceLetter(piece);
  // Other pieces of the same kind that could go to the same square.
  const rivals = [];
  for (const other of before.legal) {
    const o = parts(page, other);
    if (o.drop || o.to !== m.to || o.from === m.from || rivals.includes(o.from)) continue;
    const q = pieceOn(page, pos, o.from);
    if (q && pieceLetter(q) === letter) rivals.push(o.from);
  }
  const mayPromote = !m.drop && !m.promote && before.legal.includes(mv + '+');
  if (notation === 'western') {
    const capture = !m.drop && !!pieceOn(page, pos, m.to);
    const sep = m.drop ? '*' : capture ? 'x' : '-';
    return letter + (rivals.length && !m.drop ? m.from : '') + sep + m.to + (m.promote ? '+' : mayPromote ? '=' : '');
  }
  return japanese(page, pos, before, m, letter, rivals, mayPromote, previous);
}

/** The Japanese notation of a move (its parts `m` in `pos`). */
function japanese(page, pos, before, m, letter, rivals, mayPromote, previous) {
  const n = page.notation;
  const at = squareAt(page, m.to);
  const prevTo = previous && previous !== 'pass' ? moveSquares(page, previous).pop() : null;
  const square = prevTo === m.to ? '同' : Array.from(n.japanese_files)[at.col] + Array.from(n.japanese_ranks)[at.row];
  const info = pieceInfo(page, letter);
  let text = (before.side === 'b' ? '☗' : '☖') + square + (info && info.kanji ? info.kanji : letter);
  if (m.drop) {
    // 打 only when a piece of the kind on the board could go there too.
    if (rivals.length) text += '打';
    return text;
  }
  text += relative(page, before.side, m.from, m.to, rivals);
  if (m.promote) text += '成';
  else if (mayPromote) text += '不成';
  return text;
}

/** The words that tell a piece from others of its kind going to the same square (右, 上, 直…). */
function relative(page, side, from, to, rivals) {
  if (!rivals.length) return '';
  const t = squareAt(page, to);
  // Seen from the mover: forward is towards the first rank for Black, right is the last column.
  const view = (sq) => {
    const s = squareAt(page, sq);
    const dy = side === 'b' ? s.row - t.row : t.row - s.row;
    const x = side === 'b' ? s.col : -s.col;
    return { sq, dy, x, dx: x - (side === 'b' ? t.col : -t.col) };
  };
  const me = view(from);
  const all = [me].concat(rivals.map(view));
  const vertical = (v) => (v.dy > 0 ? '上' : v.dy < 0 ? '引' : '寄');
  if (all.filter((v) => vertical(v) === vertical(me)).length === 1) return vertical(me);
  const group = all.filter((v) => vertical(v) === vertical(me));
  let horizontal = '';
  if (me.dx === 0 && me.dy > 0 && group.every((v) => v === me || v.dx !== 0)) horizontal = '直';
  else if (group.every((v) => v === me || v.x < me.x)) horizontal = '右';
  else if (group.every((v) => v === me || v.x > me.x)) horizontal = '左';
  const alone = horizontal && all.every((v) => v === me || (horizontal === '直' ? v.dx !== 0 : horizontal === '右' ? v.x < me.x : v.x > me.x));
  return alone ? horizontal : horizontal + vertical(me);
}
