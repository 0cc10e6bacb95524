// The ends of a game that the player asks for, besides resigning (play.js): aborting a game
// against the engine before the player's second move, which ends it with no result (the records
// write KIF chudan, CSA `%CHUDAN`), and offering the engine a draw, in a game whose descriptor
// allows one (`page.agreed_draw`): the engine judges it by a short search of the position and
// accepts when it expects no more than a small edge (the records write the draw agreed).

import { app, current, emit, lastKey, shownKey, shownState } from './state.js';
import { isEngineSide, sideSetting } from './play.js';
import { cancelSearch, startSearch } from './search.js';

/** The nodes of the search by which the engine judges a draw offered. */
const DRAW_NODES = 30000;

/** The most the engine may expect (centipawns, from its own side) and still accept a draw. */
const DRAW_MARGIN = 100;

/** Whether the game shown goes on at its last move, the player against the engine. */
function playing() {
  const st = shownState();
  const g = app.game;
  const human = sideSetting();
  return !!st && !st.result && !app.note && !app.editing && g.cursor === g.moves.length && (human === 'b' || human === 'w');
}

/** How many moves the player has made in the game (the sides take turns from the start's). */
function playerMoves() {
  const g = app.game;
  const first = g.start.split(' ')[1] === sideSetting();
  return first ? Math.ceil(g.moves.length / 2) : Math.floor(g.moves.length / 2);
}

/** Whether the player may abort the game: against the engine, before their second move. */
export function canAbort() {
  return playing() && playerMoves() < 2;
}

/** Aborts the game: it ends with no result (the engine's search, if any, is stopped). */
export function abort() {
  if (!canAbort()) return;
  cancelSearch();
  app.note = 'Game aborted (no result)';
  app.noteResult = { winner: null, reason: 'abort' };
  emit('render');
}

/** Whether the engine is judging a draw offered. */
function drawAsked() {
  const s = app.search;
  return !!(s && !s.cancelled && s.kind === 'draw') || !!(app.queued && app.queued.kind === 'draw');
}

/** Whether the player may offer a draw: the game allows one, it is the player's turn (no
 * analysis running), and the engine has not declined one in this position. */
export function canOfferDraw() {
  const entry = current();
  const st = shownState();
  if (!entry || !entry.page.agreed_draw || !playing() || isEngineSide(st.side) || app.analysing) return false;
  return !drawAsked() && !(app.drawOffer && app.drawOffer.key === lastKey());
}

/** Offers the engine a draw: it answers once its search of the position has ended. */
export function offerDraw() {
  if (!canOfferDraw()) return;
  const g = app.game;
  app.drawOffer = { key: lastKey(), answer: 'asked', score: null };
  startSearch({
    kind: 'draw', op: 'go', game: g.name, start: g.start, moves: g.moves.slice(), key: lastKey(),
    ply: g.cursor, side: shownState().side, limits: { nodes: DRAW_NODES }, done: drawAnswered,
  });
  emit('render');
}

/** The engine's answer to a draw offered, from its search's score (the player's view, the player
 * being to move): accepted when the engine expects at most DRAW_MARGIN, or worse. */
function drawAnswered(s) {
  const offer = app.drawOffer;
  if (!offer || offer.key !== s.key || s.key !== lastKey() || app.note) return;
  const score = s.lines[0] && s.lines[0].score;
  let engine = null;
  if (score) engine = score.mate !== undefined ? (score.mate > 0 ? -10000 : 10000) : -(score.cp || 0);
  offer.score = engine;
  offer.answer = engine !== null && engine <= DRAW_MARGIN ? 'accepted' : 'declined';
  if (offer.answer === 'accepted') {
    app.note = 'Draw agreed: the engine accepts the offer';
    app.noteResult = { winner: null, reason: 'agreement' };
  }
  emit('render');
}

/** Forgets the draw offered (a new game). */
export function clearDrawOffer() {
  app.drawOffer = null;
}

/** What the status line adds about a draw offered in the position shown, or ''. */
export function drawNote() {
  if (drawAsked()) return ' — draw offered: the engine is thinking…';
  const offer = app.drawOffer;
  return offer && offer.key === shownKey() && offer.answer === 'declined' ? ' — the engine declines the draw' : '';
}
