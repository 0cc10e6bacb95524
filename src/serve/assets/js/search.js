// The engine's searches: one runs at a time; a new one stops the running one and waits for its
// answer. Play, analysis and mate searches share this queue. What a search shows is drawn by the
// views, told by the page's events (`asked`, `search`, `info`, `evals`).

import { $ } from './dom.js';
import { app, emit, gameEntry, shownKey, shownMoves, shownState } from './state.js';
import { send } from './connection.js';

/** Starts a search, or queues it behind the running one (which is stopped). */
export function startSearch(spec) {
  emit('asked', spec);
  if (app.search) {
    app.queued = spec;
    if (!app.search.stopping) {
      app.search.stopping = true;
      app.search.cancelled = true;
      send({ op: 'stop' });
    }
    return;
  }
  launch(spec);
}

function launch(spec) {
  const msg = { op: spec.op, game: spec.game, sfen: spec.start, moves: spec.moves };
  if (spec.op === 'go') {
    msg.limits = spec.limits;
    if (spec.multipv) msg.multipv = spec.multipv;
    if (spec.level !== undefined) msg.level = spec.level;
    if (spec.elo !== undefined) msg.elo = spec.elo;
  } else {
    msg.ms = spec.ms;
  }
  const id = send(msg);
  if (id === null) {
    // Not connected: the search never starts, and nothing says that it runs.
    if (spec.kind === 'analyse') app.analysing = false;
    emit('ended', spec, 'not started: not connected to the server');
    emit('search');
    return;
  }
  app.search = Object.assign({ id, lines: [] }, spec);
  emit('search');
}

/** Stops the running search (its answer is then ignored) and drops the queued one. */
export function cancelSearch() {
  app.queued = null;
  if (app.search && !app.search.stopping) {
    app.search.stopping = true;
    app.search.cancelled = true;
    send({ op: 'stop' });
  }
}

/** Starts the queued search, if any. */
export function startQueued() {
  const q = app.queued;
  app.queued = null;
  if (q) launch(q);
  emit('search');
}

/** Starts analysing the position shown: an infinite search of as many lines as asked. */
export function startAnalysis() {
  const st = shownState();
  const g = app.game;
  startSearch({
    kind: 'analyse', op: 'go', game: g.name, start: g.start, moves: shownMoves(), key: shownKey(),
    ply: g.cursor, side: st ? st.side : null, limits: { infinite: true }, multipv: Number($('multipv').value),
  });
}

/** Starts a mate search of the position shown (analysis stops). */
export function startMate() {
  const g = app.game;
  if (app.analysing) {
    app.analysing = false;
    emit('search');
  }
  startSearch({
    kind: 'mate', op: 'mate', game: g.name, start: g.start, moves: shownMoves(), key: shownKey(),
    ply: g.cursor, ms: Math.max(100, Number($('mate-ms').value) || 10000),
  });
}

/** The server's `info`: the search's progress (its score at its ply, its lines). */
export function onInfo(msg) {
  const s = app.search;
  if (!s || s.cancelled) return;
  if (s.kind === 'mate') {
    emit('info', s, msg);
    return;
  }
  const k = msg.multipv || 1;
  if (msg.score && k === 1 && s.side) {
    app.evals[s.ply] = toFirstView(msg.score, s.side, s.game);
    emit('evals');
  }
  if (msg.pv && msg.pv.length) s.lines[k - 1] = msg;
  if (s.kind === 'analyse') {
    // The side is known only once the state came; fill it in for the score's view.
    if (!s.side) {
      const st = app.states.get(s.key);
      if (st) s.side = st.side;
    }
    app.lastAnalysis = (s.lines[0] || msg).score || null;
    emit('info', s, msg);
  }
}

/** A score of the side to move as seen by the side that moves first (mates as ±(10000 - plies)). */
function toFirstView(score, side, game) {
  const s = firstView(score, side, game);
  if (s.mate !== undefined) return s.mate >= 0 ? 10000 - s.mate : -10000 - s.mate;
  return s.cp || 0;
}

/** A score of the side to move (the engine's view) turned to the first mover's view, the one
 * fixed view in which the page shows every score (the analysis and the graph). */
export function firstView(score, side, game) {
  const entry = gameEntry(game);
  const same = !entry || !side || side === entry.page.first;
  if (score.mate !== undefined) return { mate: same ? score.mate : -score.mate };
  return { cp: same ? score.cp || 0 : -(score.cp || 0) };
}

/** A score as text: `mate N` (N plies; negative: the first mover is mated) or centipawns with
 * their sign. */
export function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined) return (score.mate < 0 ? '-' : '') + 'mate ' + Math.abs(score.mate);
  return (score.cp > 0 ? '+' : '') + score.cp;
}
