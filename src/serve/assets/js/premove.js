// Premoves: while the engine is to move in the game's last position, the player may enter their
// next move, as on lishogi. The page knows no piece's movement, so any of the player's pieces may
// go to any square it does not hold (in a game of routes: to an empty square, one stop), and a
// piece in hand to any empty square. It is kept (`app.premove`, drawn by board.js) and, once the
// engine has moved and the new position's state is known, played if a legal move of it goes so,
// else dropped without a word (input.js). Nothing here changes the page.

import { app, key, lastKey, shownKey, shownState } from './state.js';
import { dropLetter, handLetter, moveSquares, parsePosition, pieceOn } from './position.js';
import { sideSetting } from './play.js';

/** The player's side when a premove may be entered now (the engine is to move in the game's last
 * position, shown, and the player plays the other side), else null. */
export function premoveSide() {
  const st = shownState();
  const s = sideSetting();
  if (!app.connected || app.editing || app.analysing || app.note || !st || st.result || shownKey() !== lastKey()) return null;
  return (s === 'b' || s === 'w') && st.side !== s ? s : null;
}

/** The piece on a square of the position shown, if it is the player's. */
export function ownPiece(page, name) {
  const p = pieceOn(page, parsePosition(page, shownState().sfen), name);
  return !!p && p.color === premoveSide();
}

/** Whether the player has a piece of this letter in hand in the position shown. */
export function inHand(page, side, letter) {
  return parsePosition(page, shownState().sfen).hands[side].some(([l, n]) => l === letter && n > 0);
}

/** What a click on a square (or a piece dragged there) means with the selection `sel` while a
 * premove may be entered: `{premove}` the move entered, `{select}` a piece of the player's (null:
 * the one selected, deselected), or `{}`: the premove and the selection are dropped. */
export function premoveClick(page, sel, name) {
  const p = pieceOn(page, parsePosition(page, shownState().sfen), name);
  const own = !!p && p.color === premoveSide();
  if (sel && sel.pre && !own && (sel.hand || page.moves === 'route' ? !p : sel.from !== name)) {
    return { premove: { key: shownKey(), ply: app.game.moves.length, from: sel.from, hand: sel.hand, to: name } };
  }
  if (own) return { select: sel && sel.pre && sel.from === name ? null : { from: name, pre: true } };
  return {};
}

/** The legal moves of the position shown (its state `st`) that the premove `pm` names: none
 * unless the position is the one after the engine's reply to the position it was entered in. */
export function premoveMoves(page, st, pm) {
  const g = app.game;
  if (g.moves.length !== pm.ply + 1 || key(g.name, g.start, g.moves.slice(0, pm.ply)) !== pm.key) return [];
  return st.legal.filter((m) => {
    const sq = moveSquares(page, m);
    const d = dropLetter(m);
    if (d) return !!pm.hand && handLetter(page, d) === pm.hand && sq[0] === pm.to;
    return !!pm.from && sq.length === 2 && sq[0] === pm.from && sq[1] === pm.to;
  });
}

/** The squares the premove marks (none unless its position is shown, the engine to move). */
export function premoveSquares() {
  const pm = app.premove;
  return pm && pm.key === shownKey() && premoveSide() ? [pm.from, pm.to].filter(Boolean) : [];
}
