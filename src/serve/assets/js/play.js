// The game on the page: starting one, playing moves (each kept in the variation tree,
// variations.js), the engine's turn, taking back, stepping through it and its variations,
// promoting and deleting them, analysis on and off, and asking the server for the state of each
// position shown;
// the server's answers about them (`state`, `error`, `bestmove`, `mate`) and a closed
// connection. The views are told by the page's events (state.js), never called from here.

import { $, showError } from './dom.js';
import { app, current, emit, gameEntry, key, lastKey, shownKey, shownMoves, shownState, sideName, startposOf } from './state.js';
import { moveSquares, parsePosition, pieceOn } from './position.js';
import { send } from './connection.js';
import * as fromTo from './input-from-to.js';
import * as route from './input-route.js';
import { clockMoved, clockUpdate, resetClock } from './clock.js';
import { cancelSearch, startAnalysis, startQueued, startSearch } from './search.js';
import { addLine, lineThrough, mainLine, makeMain, node, onMainLine, promote, remove, setTree } from './variations.js';

/** Starts a game of `name` from `sfen` (null: the game's start). */
export function newGame(name, sfen) {
  cancelSearch();
  app.game = { name, start: sfen || startposOf(name), moves: [], cursor: 0, tree: node(null) };
  app.evals = [];
  app.selected = null;
  app.note = null;
  app.recordEnded = false;
  app.mate = null;
  app.premove = null;
  emit('new-game', name);
  const human = sideSetting();
  const entry = gameEntry(name);
  app.flipped = (human === 'b' || human === 'w') && !!entry && human !== entry.page.first;
  app.refused = null;
  resetClock();
  showPosition();
}

/** Who plays: `b`, `w`, `both` (no engine) or `engine`. */
export function sideSetting() {
  return $('side-select').value;
}

/** Whether the engine plays this side. */
export function isEngineSide(side) {
  const s = sideSetting();
  if (s === 'both') return false;
  if (s === 'engine') return true;
  return s !== side;
}

/** Shows the position at the cursor: asks its state, redraws, restarts analysis. */
export function showPosition() {
  app.selected = null;
  emit('shown');
  requestShown();
  emit('render');
  if (app.analysing) startAnalysis();
  maybeEngineMove();
  premoveDue();
}

/** Tells (the `premove` event) that a premove may be due: the game's last position is shown and
 * its state is known. */
function premoveDue() {
  if (app.premove && shownKey() === lastKey() && shownState()) emit('premove');
}

/** Whether a move captures in the position `st` (a route's `:`, or a piece on its square of arrival). */
function captures(st, mv) {
  const entry = current();
  if (!st || !entry) return false;
  if (mv.includes(':')) return true;
  if (mv.includes('*') || mv === 'pass') return false;
  const to = moveSquares(entry.page, mv).pop();
  return !!pieceOn(entry.page, parsePosition(entry.page, st.sfen), to);
}

/** Whether a game against the engine goes on (not analysing, no result): a move played from an
 * earlier position then becomes the game's main line, the old one a variation. */
function inGame() {
  return sideSetting() !== 'both' && !app.analysing && !app.note;
}

/** Shows the line `moves` at ply `cursor`; the evaluations are kept as far as it agrees with
 * the line shown before. */
function setLine(moves, cursor) {
  const g = app.game;
  let same = 0;
  while (same < moves.length && moves[same] === g.moves[same]) same++;
  app.evals.length = Math.min(app.evals.length, same + 1);
  g.moves = moves;
  g.cursor = cursor;
}

/** The game's result (a resignation, a flag, the record's) belongs to its main line: dropped when
 * the main line changes. */
function mainLineChanged() {
  app.note = null;
  app.noteResult = null;
  app.recordEnded = false;
}

/** Plays a move in the position shown: the line's next move, a variation already played, or a
 * new variation (in a game against the engine, the game's new main line). */
export function playMove(mv) {
  const g = app.game;
  const st = shownState();
  emit('played', captures(st, mv) ? 'capture' : 'move');
  if (g.moves[g.cursor] === mv) {
    g.cursor++;
  } else {
    const line = g.moves.slice(0, g.cursor).concat([mv]);
    const game = inGame();
    addLine(line);
    if (game) makeMain(line);
    // In a game the line goes on from this move; in analysis a variation shows its own moves on.
    setLine(game ? line : lineThrough(line), line.length);
  }
  if (st && g.cursor === g.moves.length) clockMoved(st.side);
  showPosition();
}

/** The engine's move of a play search, played if the game is still where it was asked. */
export function enginePlayed(s, mv) {
  if (s.key !== lastKey()) return;
  if (mv === 'resign' || mv === 'win') {
    const side = s.side === 'b' ? 'Black' : 'White';
    app.note = mv === 'resign' ? side + ' (engine) resigns' : side + ' (engine) declares a win';
    const other = s.side === 'b' ? 'w' : 'b';
    app.noteResult = mv === 'resign' ? { winner: other, reason: 'resignation' } : { winner: s.side, reason: 'declaration' };
    emit('render');
    return;
  }
  if (app.game.cursor !== app.game.moves.length) {
    app.game.cursor = app.game.moves.length;
  }
  playMove(mv);
}

function limitsFor() {
  const kind = $('limit-kind').value;
  const v = Math.max(1, Number($('limit-value').value) || 1);
  if (kind === 'depth') return { depth: v };
  if (kind === 'nodes') return { nodes: v };
  if (kind === 'movetime') return { movetime: v };
  clockUpdate();
  const c = app.clock;
  const times = { btime: Math.max(0, Math.round(c.b)), wtime: Math.max(0, Math.round(c.w)) };
  if (kind === 'byoyomi') return Object.assign({ byoyomi: c.extra }, times);
  return Object.assign({ binc: c.extra, winc: c.extra }, times);
}

/** Starts the engine's search when it is to move in the game's last position. */
export function maybeEngineMove() {
  if (!app.connected || app.analysing || app.editing) return;
  const g = app.game;
  if (g.cursor !== g.moves.length || app.note) return;
  const k = shownKey();
  const st = app.states.get(k);
  if (!st || st.result || !isEngineSide(st.side)) return;
  if (app.search && !app.search.cancelled && app.search.kind === 'play' && app.search.key === k) return;
  if (app.queued && app.queued.kind === 'play' && app.queued.key === k) return;
  if (app.search && !app.search.cancelled && app.search.kind === 'mate') return;
  startSearch({
    kind: 'play', op: 'go', game: g.name, start: g.start, moves: g.moves.slice(),
    key: k, ply: g.cursor, side: st.side, limits: limitsFor(), level: Number($('level').value),
    elo: $('elo').value ? Number($('elo').value) : undefined,
  });
}

/** Takes back to the previous position where a human is to move (one or two moves). */
export function takeBack() {
  const g = app.game;
  cancelSearch();
  app.premove = null;
  if (g.cursor === 0) return;
  let c = g.cursor - 1;
  if (sideSetting() === 'b' || sideSetting() === 'w') {
    const human = sideSetting();
    const prev = app.states.get(key(g.name, g.start, g.moves.slice(0, c)));
    if (prev && prev.side !== human && c > 0) c--;
  }
  remove(g.moves.slice(0, c + 1));
  setLine(g.moves.slice(0, c), c);
  app.note = null;
  app.recordEnded = false;
  showPosition();
}

/** Shows the position after this many of the game's moves. */
export function goToPly(ply) {
  ply = Math.max(0, Math.min(app.game.moves.length, ply));
  if (ply === app.game.cursor) return;
  cancelSearch();
  app.game.cursor = ply;
  showPosition();
}

/** Shows the line `moves` (from the start) at its end, continued by its first moves: a move of
 * the move list clicked, in the main line or a variation. */
export function goToLine(moves) {
  cancelSearch();
  setLine(lineThrough(moves), moves.length);
  showPosition();
}

/** Plays a line of moves from the position shown (a variation, unless it is the line's own
 * continuation). */
export function playLine(pv) {
  const g = app.game;
  cancelSearch();
  const line = g.moves.slice(0, g.cursor).concat(pv);
  addLine(line);
  setLine(lineThrough(line), line.length);
  showPosition();
}

/** Shows the position after the `n`th move of the mate line found (the line is kept as a
 * variation unless the game has it). */
export function goToMateMove(n) {
  const g = app.game;
  cancelSearch();
  const prefix = app.mate.base.concat(app.mate.line);
  addLine(prefix);
  const has = g.moves.length >= prefix.length && prefix.every((mv, j) => g.moves[j] === mv);
  setLine(has ? g.moves : lineThrough(prefix), app.mate.base.length + n);
  showPosition();
}

/** Whether the line shown is a variation (which Promote moves up). */
export function canPromote() {
  return !app.editing && !onMainLine(app.game.moves);
}

/** Promotes the line shown one step among the lines of its branch (again, to the main line). */
export function promoteShown() {
  if (!canPromote()) return;
  const before = mainLine().join(' ');
  promote(app.game.moves);
  if (mainLine().join(' ') !== before) mainLineChanged();
  emit('render');
}

/** Deletes the move shown and every line after it; the position before it is shown. */
export function deleteShown() {
  const g = app.game;
  if (app.editing || g.cursor === 0) return;
  cancelSearch();
  const path = g.moves.slice(0, g.cursor);
  if (onMainLine(path)) mainLineChanged();
  remove(path);
  setLine(lineThrough(path.slice(0, -1)), path.length - 1);
  showPosition();
}

/** The Analyse button: starts or stops analysing. */
export function toggleAnalysis() {
  app.analysing = !app.analysing;
  if (app.analysing) {
    startAnalysis();
  } else {
    cancelSearch();
    maybeEngineMove();
  }
  emit('search');
  emit('render');
}

/** Whether the player may resign now: a game goes on at its last move and it is the player's
 * turn (a resignation is the move of the side to move, as the records write it). */
export function canResign() {
  const st = shownState();
  const g = app.game;
  if (!st || st.result || app.note || app.editing || g.cursor !== g.moves.length || !onMainLine(g.moves)) return false;
  return !isEngineSide(st.side);
}

/** The player to move resigns: the game ends as a resignation, which the records write (KIF and
 * CSA alike). */
export function resign() {
  if (!canResign()) return;
  const loser = shownState().side;
  const winner = loser === 'b' ? 'w' : 'b';
  app.note = sideName(winner) + ' wins: ' + sideName(loser) + ' resigned';
  app.noteResult = { winner, reason: 'resignation' };
  cancelSearch();
  emit('render');
}

/** Whether the game's result (`app.note`) is shown: at the end of the main line. */
export function atNote() {
  const g = app.game;
  return !!app.note && g.cursor === g.moves.length && onMainLine(g.moves);
}

/** Whether a move may be made in the position shown (open, and not the engine's turn to play;
 * after the game's end, in its earlier positions, as variations). */
export function canMoveHere(st) {
  if (!st || st.result || atNote()) return false;
  if (app.game.cursor === app.game.moves.length && isEngineSide(st.side) && !app.analysing) return false;
  return true;
}

/** The state of the position shown when a move may be entered in it, else null (also while the
 * page is not connected: a move is never shown half made). */
export function legalNow() {
  const st = shownState();
  if (!app.connected || !st || !canMoveHere(st) || app.editing) return null;
  return st;
}

/**
 * Asks the server whether a position (`game`, `sfen`, no moves) may be used; `ok` runs with its
 * state once it is accepted, `fail` with the reason when it is refused. The game shown is not
 * touched meanwhile: a refused position never replaces it.
 */
export function checkPosition(game, sfen, ok, fail) {
  const id = send({ op: 'state', game, sfen, moves: [] });
  if (id === null) {
    if (fail) fail('not connected to the server');
    return;
  }
  app.checks.set(id, { game, sfen, ok, fail });
}

/** Asks the server for the state of a position, unless it is known or asked already. */
export function requestState(game, start, moves) {
  const k = key(game, start, moves);
  if (app.states.has(k)) return;
  for (const v of app.pendingStates.values()) if (v === k) return;
  const id = send({ op: 'state', game, sfen: start, moves });
  if (id !== null) app.pendingStates.set(id, k);
}

/** How many states of a search's line the page asks for in a second: with the page's other
 * messages, well within the server's cap (`hello`'s caps, 50 a second by default). */
const LINE_STATES_PER_SECOND = 20;
const lineBudget = { since: 0, used: 0, retry: null };

/**
 * Asks for the states of the positions of a line (the moves `line` after `base`), before each of
 * its moves, as far as this second's share allows; the rest are asked for when the page writes
 * the line again: at the latest when the second is over (the `states` event).
 */
export function requestLineStates(game, start, base, line) {
  const now = Date.now();
  if (now - lineBudget.since >= 1000) {
    lineBudget.since = now;
    lineBudget.used = 0;
  }
  const asked = new Set(app.pendingStates.values());
  for (let i = 0; i < line.length; i++) {
    const moves = base.concat(line.slice(0, i));
    const k = key(game, start, moves);
    if (app.states.has(k) || asked.has(k)) continue;
    if (lineBudget.used >= LINE_STATES_PER_SECOND) {
      if (!lineBudget.retry) {
        lineBudget.retry = setTimeout(() => {
          lineBudget.retry = null;
          emit('states');
        }, 1000 - (now - lineBudget.since));
      }
      return;
    }
    lineBudget.used++;
    requestState(game, start, moves);
  }
}

/** Asks for the state of the position shown. */
export function requestShown() {
  requestState(app.game.name, app.game.start, shownMoves());
}

/** Shows a game's last position; its variations (each from the start) are kept in the tree.
 * The states of its other positions come as the move list asks for them (within the server's
 * cap of messages a second: a long record asked for all at once would lose some). */
export function showWholeGame(moves, variations) {
  setTree(moves, variations);
  app.game.moves = moves.slice();
  app.game.cursor = moves.length;
  showPosition();
}

/** The server's `state`: kept, drawn when shown, and the engine's turn checked. */
export function onState(msg) {
  const check = app.checks.get(msg.id);
  if (check) {
    app.checks.delete(msg.id);
    app.states.set(key(check.game, check.sfen, []), msg);
    check.ok(msg);
    return;
  }
  let k = app.pendingStates.get(msg.id);
  if (k === undefined && app.pendingStates.size) {
    const firstId = app.pendingStates.keys().next().value;
    k = app.pendingStates.get(firstId);
    app.pendingStates.delete(firstId);
  } else {
    app.pendingStates.delete(msg.id);
  }
  if (k === undefined) return;
  app.states.set(k, msg);
  emit('states');
  if (k === shownKey()) emit('render');
  if (k === lastKey()) {
    maybeEngineMove();
    premoveDue();
  }
}

/** The server's `error`: shown; a refused position is stepped back from, and a refused search
 * no longer says it is searching. */
export function onError(msg) {
  showError(msg.message || 'error');
  const check = app.checks.get(msg.id);
  if (check) {
    app.checks.delete(msg.id);
    if (check.fail) check.fail(msg.message || 'refused');
    return;
  }
  if (msg.id !== undefined && app.pendingStates.has(msg.id)) {
    const k = app.pendingStates.get(msg.id);
    app.pendingStates.delete(msg.id);
    // A position the server refused: go back to the last one it accepted.
    if (k === shownKey() && app.game.cursor === 0) {
      app.refused = k;
      emit('status', null);
    }
    if (k === shownKey() && app.game.cursor > 0) {
      const path = app.game.moves.slice(0, app.game.cursor);
      remove(path);
      setLine(path.slice(0, -1), path.length - 1);
      showPosition();
    }
  }
  if (app.search && msg.id === app.search.id) {
    searchEnded(app.search, 'refused: ' + (msg.message || 'error'));
    app.search = null;
    startQueued();
  }
}

/** A search that ended without its answer (refused, or the connection closed): an analysis is
 * off, and what said "searching…" or "thinking…" says why. */
function searchEnded(s, why) {
  if (s.kind === 'analyse') app.analysing = false;
  emit('ended', s, why);
  emit('search');
  emit('render');
}

/** The server's `bestmove` or `mate`: the search has ended. */
export function onSearchEnd(msg) {
  const s = app.search;
  app.search = null;
  if (s && !s.cancelled) {
    if (s.kind === 'play' && msg.op === 'bestmove') enginePlayed(s, msg.move);
    // A search that answers a question of its own (ending.js: a draw offered).
    if (s.done && msg.op === 'bestmove') s.done(s, msg);
    if (s.kind === 'mate' && msg.op === 'mate') {
      app.mate = { base: s.moves.slice(), key: s.key, line: msg.line || [] };
      emit('mate', s, msg);
    }
  }
  if (app.queued) startQueued();
  else {
    emit('search');
    maybeEngineMove();
  }
}

/** The connection closed: the running search, the states asked for and the positions being
 * checked have no answer coming. */
export function onClose() {
  const s = app.search;
  const q = app.queued;
  app.search = null;
  app.queued = null;
  app.pendingStates.clear();
  for (const check of app.checks.values()) if (check.fail) check.fail('the connection closed');
  app.checks.clear();
  const why = 'stopped: the connection closed';
  if (s && !s.cancelled) searchEnded(s, why);
  else if (q) searchEnded(q, why);
  // An analysis between two searches (the last one stopped, the next not yet started) is off too:
  // after reconnecting, the engine plays its turn again.
  if (app.analysing) searchEnded({ kind: 'analyse' }, why);
  emit('search');
  emit('render');
}

/** The module of a game's move syntax (`page.moves`): from-to moves with drops, or routes. */
export function syntaxOf(page) {
  return page.moves === 'route' ? route : fromTo;
}
