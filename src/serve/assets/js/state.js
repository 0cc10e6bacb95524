// The page's state: the game shown, the server's answers, the searches, and the games the
// server described in its `hello` (every game's descriptor: the page holds no table of games);
// and the page's events, by which a module tells the modules above it what changed without
// importing them (docs/serve.md, "The page's modules").

export const app = {
  connected: false, // whether the engine can be sent a message (main.js follows the connection)
  hello: null, // the server's `hello`: its games and caps
  pendingRecord: null, // the `record` or `load` asked for: { id, op }
  pendingStates: new Map(), // id -> cache key
  states: new Map(), // cache key -> state message
  game: { name: '', start: '', moves: [], cursor: 0, tree: { move: null, children: [] } }, // the line shown (moves), the ply shown, every line played (variations.js)
  evals: [], // ply -> score from the first mover's view (cp; mates as ±(10000 - plies))
  flipped: false,
  selected: null, // {from: square} | {hand: letter} | {path: [squares]}, with `chosen` (the square of arrival) while the chooser asks, `pre` for a premove's
  search: null, // the running search
  queued: null, // the next search to start when the running one has answered
  analysing: false,
  mate: null, // {base: moves, line: [...]}
  note: null, // page-level game end (resignation, flag)
  arrival: null, // the move whose piece glides in (board.js): { at, move, square, dx, dy, since }
  noteResult: null, // the note's result for the records: {winner, reason} (`record`'s `result`)
  drawOffer: null, // the last draw offered (ending.js): {key, answer: 'asked' | 'accepted' | 'declined', score}
  clock: null, // {b, w, side, since, extra, used, mode, flag}
  editing: null, // position editor: {cells, hands, side}
  editPiece: null,
  refused: null, // the key of a start position the server refused
  lastPos: null, // the last position drawn: {name, pos}
  checks: new Map(), // id -> {game, sfen, ok, fail}: positions checked before they are used
  recordEnded: false, // the note is the result a loaded record gave (the engine waits for Play on)
  focus: null, // the square the keyboard's focus is on (or goes back to)
  dragFrom: null, // the square whose piece is being dragged
  sounds: [], // the sounds played ('move', 'capture'), for the tests
  lastAnalysis: null, // the best line's score as the engine gave it (the side to move's view)
  shapes: [], // the circles and arrows the user drew (right button): {from, to, color}; a circle's `to` is its `from`
  drawing: null, // the shape being drawn: {from, to, color}
  premove: null, // the player's move entered during the engine's turn: {key, ply, from | hand, to} (premove.js)
};

/** The cache key of a position: game, start and moves. */
export function key(game, start, moves) {
  return game + '|' + start + '|' + moves.join(' ');
}

/** The moves up to the position shown. */
export function shownMoves() {
  return app.game.moves.slice(0, app.game.cursor);
}

/** The cache key of the position shown. */
export function shownKey() {
  return key(app.game.name, app.game.start, shownMoves());
}

/** The cache key of the game's last position. */
export function lastKey() {
  return key(app.game.name, app.game.start, app.game.moves);
}

/** The server's `state` of the position shown, once it came. */
export function shownState() {
  return app.states.get(shownKey()) || null;
}

/** The `hello` entry of the game of this name, or null. */
export function gameEntry(name) {
  return (app.hello && app.hello.games.find((g) => g.name === name)) || null;
}

/** The `hello` entry of the game shown, or null before the `hello`. */
export function current() {
  return gameEntry(app.game.name);
}

/** The start position of the game of this name. */
export function startposOf(name) {
  const g = gameEntry(name);
  return g ? g.startpos : '';
}

/** The side drawn at the bottom: the first mover, or the other when the board is flipped. */
export function bottomSide() {
  const entry = current();
  const first = entry ? entry.page.first : 'b';
  return app.flipped ? otherSide(first) : first;
}

/** The other side. */
export function otherSide(side) {
  return side === 'b' ? 'w' : 'b';
}

/** A side's name for people. */
export function sideName(side) {
  return side === 'b' ? 'Black' : 'White';
}

/*
 * The page's events. A module of the game model emits one when something changed that the views
 * show; main.js has each view listen to the events it answers. Listeners run at once, in the
 * order they were added, before `emit` returns.
 *
 *   render            the position shown or anything drawn with it changed: redraw it all
 *   status (st)       only the status line changed (`st`: the state shown, or null)
 *   shown             the page went to another position (a pending choice of moves is dropped)
 *   played (kind)     a move was played: 'move', or 'capture'
 *   new-game (name)   a game of `name` started: the panels of the last one are cleared
 *   clock             the clocks were set anew
 *   search            a search started or ended, or the analysis was switched on or off
 *   asked (spec)      a search was asked for (`spec`: its kind, position and limits)
 *   info (s, msg)     an `info` of the search `s` (analysis or mate) came
 *   states            a position's `state` came (a search's line may now be written in the
 *                     notation chosen)
 *   notation          the notation chosen changed (main.js)
 *   evals             a score was added to the evaluations of the game's plies
 *   mate (s, msg)     the mate search `s` answered `msg`
 *   ended (s, why)    the search `s` ended without its answer (refused, or the connection closed)
 *   premove           the game's last position is shown and its state known: a premove may be due
 */
const listeners = new Map();

/** Has `fn` called with the event's arguments each time `event` is emitted. */
export function listen(event, fn) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(fn);
}

/** Tells the listeners of `event`. */
export function emit(event, ...args) {
  for (const fn of listeners.get(event) || []) fn(...args);
}
