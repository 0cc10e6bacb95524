// tsubame's page: boards for shogi, minishogi, nana shogi and Give and Take, talking to
// `tsubame serve` over the WebSocket protocol of docs/serve.md. The page knows no rule: legal
// moves, check and the result of every position shown come from the server's `state`.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

// ---------------------------------------------------------------- games (drawing only)

const NANA_NEXT = { K: 'K', R: 'C', C: 'W', W: 'I', I: 'R', B: 'T', T: 'M', M: 'D', D: 'B' };
const NANA_NAMES = {
  K: 'king', R: 'rook', C: 'chariot', W: "swallow's wings", I: 'go-between',
  B: 'bishop', T: 'tile general', M: "cat's sword", D: 'dog',
};
const NANA_FAMILY = { K: ['K'], R: ['R', 'C', 'W', 'I'], B: ['B', 'T', 'M', 'D'] };
const SHOGI_NAMES = {
  P: 'pawn', L: 'lance', N: 'knight', S: 'silver', G: 'gold', B: 'bishop', R: 'rook', K: 'king',
};

const GAME_INFO = {
  shogi: { size: 9, kind: 'shogi', first: 'b' },
  minishogi: { size: 5, kind: 'shogi', first: 'b' },
  nanashogi: { size: 3, kind: 'nana', first: 'b' },
  giveandtake: { size: 8, kind: 'gt', first: 'w' },
};

const PRESETS = [
  { id: 'start-shogi', label: 'shogi start', game: 'shogi', sfen: null },
  { id: 'start-minishogi', label: 'minishogi start', game: 'minishogi', sfen: null },
  { id: 'start-nanashogi', label: 'nana start', game: 'nanashogi', sfen: '3/3/3 b KRBkrb 1' },
  { id: 'start-giveandtake', label: 'Give and Take start', game: 'giveandtake', sfen: null },
  { id: 'shogi-mate1', label: 'shogi mate in 1', game: 'shogi', sfen: '4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1' },
  { id: 'minishogi-mate3', label: 'minishogi mate in 3', game: 'minishogi', sfen: '3k1/2bsg/p4/g2Kp/5 w RBSr 30' },
  { id: 'nana-mate1', label: 'nana mate in 1', game: 'nanashogi', sfen: '2k/M2/1CK b b 1' },
  { id: 'giveandtake-mate', label: 'Give and Take README win', game: 'giveandtake', sfen: 'K7/1m6/1m6/8/m7/m7/8/KK6 b - 1' },
  // The examples of the Give and Take rules (docs/rules.md section 6, the README's session).
  { id: 'gt-forced', label: 'Give and Take: c4:c6:c8 forced', game: 'giveandtake', sfen: null, moves: ['c3-c4', 'c6-c5'] },
  { id: 'gt-king-routes', label: 'Give and Take: king e5 takes 4 or 2', game: 'giveandtake', sfen: '8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1' },
  { id: 'gt-king-stops', label: 'Give and Take: king lands anywhere', game: 'giveandtake', sfen: '7k/8/8/8/8/8/8/Km3m2 w - 1' },
  // Nana shogi solved: the mate search answers from the server's table (--nana-tablebase).
  { id: 'nana-solved', label: 'nana solved start (125 plies)', game: 'nanashogi', sfen: '3/3/3 b KRBkrb 1', solved: true },
];

// What the page says when the nana solved start is asked of a server without a table.
const NO_NANA_TABLE = 'start the server with --nana-tablebase FILE (made by tsubame solve nanashogi)';

function detectGame(sfen) {
  const board = sfen.trim().split(/\s+/)[0] || '';
  const ranks = board.split('/').length;
  return { 9: 'shogi', 5: 'minishogi', 3: 'nanashogi', 8: 'giveandtake' }[ranks] || null;
}

// Parses a position string into {cells: [row][col] piece|null, hands: {b: [[letter,count]], w}, side}.
// Rows and columns are as drawn with Black (shogi) or White (Give and Take) at the bottom.
function parsePosition(gameName, sfen) {
  const info = GAME_INFO[gameName];
  const words = sfen.trim().split(/\s+/);
  const rows = words[0].split('/');
  const cells = [];
  for (const rowText of rows) {
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
        const black = info.kind === 'gt' ? ch === ch.toLowerCase() : ch === ch.toUpperCase();
        row.push({ letter: ch.toUpperCase(), color: black ? 'b' : 'w', promoted });
        promoted = false;
      }
    }
    cells.push(row);
  }
  const hands = { b: [], w: [] };
  if (info.kind !== 'gt' && words[2] && words[2] !== '-') {
    const re = /(\d*)([A-Za-z])/g;
    let m;
    while ((m = re.exec(words[2]))) {
      const color = m[2] === m[2].toUpperCase() ? 'b' : 'w';
      hands[color].push([m[2].toUpperCase(), m[1] ? Number(m[1]) : 1]);
    }
  }
  return { cells, hands, side: words[1] || 'b', last: info.kind === 'gt' ? words[2] : null };
}

// Square name of drawn row/column (unflipped).
function squareAt(gameName, row, col) {
  const info = GAME_INFO[gameName];
  if (info.kind === 'gt') return String.fromCharCode(97 + col) + String(8 - row);
  return String(info.size - col) + String.fromCharCode(97 + row);
}

// Splits a move into the squares it touches and, for drops, the piece.
function moveSquares(gameName, mv) {
  if (GAME_INFO[gameName].kind === 'gt') return mv.split(/[-:]/);
  if (mv === 'pass') return [];
  if (mv[1] === '*') return [mv.slice(2, 4)];
  return [mv.slice(0, 2), mv.slice(2, 4)];
}

// ---------------------------------------------------------------- page state

const app = {
  ws: null,
  connected: false,
  hello: null,
  nextId: 1,
  pendingRecord: null, // the `record` or `load` asked for: { id, op }
  pendingStates: new Map(), // id -> cache key
  states: new Map(), // cache key -> state message
  game: { name: 'shogi', start: '', moves: [], cursor: 0 },
  evals: [], // ply -> score from the first player's view (cp; mates as ±(10000 - plies))
  flipped: false,
  selected: null, // {from: square} | {hand: letter} | {path: [squares]}
  search: null, // the running search
  queued: null, // the next search to start when the running one has answered
  analysing: false,
  mate: null, // {base: moves, line: [...]}
  note: null, // page-level game end (resignation, flag)
  clock: null, // {b, w, running: side|null, since, byoyomi, inc, mode}
  editing: null, // position editor: {cells, hands, side}
  editPiece: null,
  examples: null, // the article positions of GET /examples.json, once fetched
};

function key(game, start, moves) {
  return game + '|' + start + '|' + moves.join(' ');
}
function shownMoves() {
  return app.game.moves.slice(0, app.game.cursor);
}
function shownKey() {
  return key(app.game.name, app.game.start, shownMoves());
}
function shownState() {
  return app.states.get(shownKey()) || null;
}

// ---------------------------------------------------------------- connection

function connect() {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
  setConnection('connecting', 'connecting…');
  let ws;
  try {
    ws = new WebSocket(url);
  } catch (e) {
    setConnection('closed', 'cannot connect: ' + e.message);
    return;
  }
  app.ws = ws;
  ws.onopen = () => {
    app.connected = true;
    setConnection('open', 'connected');
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      showError('unreadable message from the server');
      return;
    }
    onMessage(msg);
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.connected = false;
    app.search = null;
    app.queued = null;
    app.pendingStates.clear();
    setConnection('closed', 'connection closed: press Reconnect (the game on the page is kept)');
    $('reconnect').hidden = false;
    updateAnalyseButton();
  };
}

function setConnection(state, text) {
  const el = $('connection');
  el.dataset.state = state;
  el.textContent = text;
  if (state !== 'closed') $('reconnect').hidden = true;
}

function send(obj) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError('not connected to the server');
    return null;
  }
  const id = app.nextId++;
  app.ws.send(JSON.stringify(Object.assign({ id }, obj)));
  return id;
}

function showError(text) {
  const el = $('error');
  el.hidden = false;
  const line = document.createElement('div');
  line.className = 'error-line';
  line.textContent = text;
  el.appendChild(line);
  while (el.children.length > 4) el.removeChild(el.firstChild);
  clearTimeout(app.errorTimer);
  app.errorTimer = setTimeout(() => {
    el.hidden = true;
    el.textContent = '';
  }, 15000);
}

function onMessage(msg) {
  switch (msg.op) {
    case 'hello':
      onHello(msg);
      break;
    case 'state':
      onState(msg);
      break;
    case 'info':
      onInfo(msg);
      break;
    case 'bestmove':
    case 'mate':
      onSearchEnd(msg);
      break;
    case 'record':
    case 'load':
      onRecordAnswer(msg);
      break;
    case 'error':
      onError(msg);
      break;
    default:
      break;
  }
}

function onHello(msg) {
  const first = !app.hello;
  app.hello = msg;
  const sel = $('game-select');
  sel.textContent = '';
  for (const g of msg.games) {
    const o = document.createElement('option');
    o.value = g.name;
    o.textContent = g.title || g.name;
    sel.appendChild(o);
  }
  if (first) {
    const wanted = new URLSearchParams(location.search).get('game');
    const name = msg.games.some((g) => g.name === wanted) ? wanted : msg.games[0].name;
    newGame(name, null);
  } else {
    sel.value = app.game.name;
    app.states.clear();
    requestShown();
  }
  buildPresets();
}

function startposOf(name) {
  const g = app.hello && app.hello.games.find((x) => x.name === name);
  return g ? g.startpos : '';
}

function onState(msg) {
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
  if (k === shownKey()) render();
  if (k === key(app.game.name, app.game.start, app.game.moves)) maybeEngineMove();
}

function onError(msg) {
  showError(msg.message || 'error');
  if (msg.id !== undefined && app.pendingStates.has(msg.id)) {
    const k = app.pendingStates.get(msg.id);
    app.pendingStates.delete(msg.id);
    // A position the server refused: go back to the last one it accepted.
    if (k === shownKey() && app.game.cursor === 0) {
      app.refused = k;
      renderStatus(null);
    }
    if (k === shownKey() && app.game.cursor > 0) {
      app.game.moves = app.game.moves.slice(0, app.game.cursor - 1);
      app.game.cursor = app.game.moves.length;
      showPosition();
    }
  }
  if (app.search && msg.id === app.search.id) {
    app.search = null;
    startQueued();
  }
}

function requestState(game, start, moves) {
  const k = key(game, start, moves);
  if (app.states.has(k)) return;
  for (const v of app.pendingStates.values()) if (v === k) return;
  const id = send({ op: 'state', game, sfen: start, moves });
  if (id !== null) app.pendingStates.set(id, k);
}

function requestShown() {
  requestState(app.game.name, app.game.start, shownMoves());
}

// ---------------------------------------------------------------- searches

function startSearch(spec) {
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
  } else {
    msg.ms = spec.ms;
  }
  const id = send(msg);
  if (id === null) return;
  app.search = Object.assign({ id, lines: [] }, spec);
  updateAnalyseButton();
}

function cancelSearch() {
  app.queued = null;
  if (app.search && !app.search.stopping) {
    app.search.stopping = true;
    app.search.cancelled = true;
    send({ op: 'stop' });
  }
}

function startQueued() {
  const q = app.queued;
  app.queued = null;
  if (q) launch(q);
  updateAnalyseButton();
}

function onInfo(msg) {
  const s = app.search;
  if (!s || s.cancelled) return;
  if (s.kind === 'mate') {
    $('mate-result').textContent = 'searching… ' + (msg.nodes || 0) + ' nodes';
    return;
  }
  const k = msg.multipv || 1;
  if (msg.score && k === 1 && s.side) {
    app.evals[s.ply] = toFirstView(msg.score, s.side, s.game);
    drawEvalGraph();
  }
  if (msg.pv && msg.pv.length) s.lines[k - 1] = msg;
  if (s.kind === 'analyse') renderAnalysis(msg);
}

function toFirstView(score, side, game) {
  let v;
  if (score.mate !== undefined) v = score.mate >= 0 ? 10000 - score.mate : -10000 - score.mate;
  else v = score.cp || 0;
  return side === GAME_INFO[game].first ? v : -v;
}

function scoreText(score) {
  if (!score) return '';
  if (score.mate !== undefined) return 'mate ' + score.mate;
  return (score.cp > 0 ? '+' : '') + score.cp;
}

function onSearchEnd(msg) {
  const s = app.search;
  app.search = null;
  if (s && !s.cancelled) {
    if (s.kind === 'play' && msg.op === 'bestmove') enginePlayed(s, msg.move);
    if (s.kind === 'mate' && msg.op === 'mate') mateFound(s, msg);
  }
  if (app.queued) startQueued();
  else {
    updateAnalyseButton();
    maybeEngineMove();
  }
}

// ---------------------------------------------------------------- play

function newGame(name, sfen) {
  cancelSearch();
  app.game = { name, start: sfen || startposOf(name), moves: [], cursor: 0 };
  app.evals = [];
  app.selected = null;
  app.note = null;
  app.mate = null;
  $('mate-line').textContent = '';
  $('mate-result').textContent = '';
  $('pv-lines').textContent = '';
  $('analysis-info').textContent = '';
  $('game-select').value = name;
  updateRecordButtons();
  const human = sideSetting();
  app.flipped = (human === 'b' || human === 'w') && human !== GAME_INFO[name].first;
  app.refused = null;
  resetClock();
  showPosition();
}

function sideSetting() {
  return $('side-select').value;
}
function isEngineSide(side) {
  const s = sideSetting();
  if (s === 'both') return false;
  if (s === 'engine') return true;
  return s !== side;
}

// Shows the position at the cursor: asks its state, redraws, restarts analysis.
function showPosition() {
  app.selected = null;
  hideChooser();
  requestShown();
  render();
  if (app.analysing) startAnalysis();
  maybeEngineMove();
}

function playMove(mv) {
  const g = app.game;
  const st = shownState();
  if (g.moves[g.cursor] === mv) {
    g.cursor++;
  } else {
    g.moves = g.moves.slice(0, g.cursor);
    g.moves.push(mv);
    g.cursor = g.moves.length;
    app.evals.length = Math.min(app.evals.length, g.cursor);
    app.note = null;
  }
  if (st && g.cursor === g.moves.length) clockMoved(st.side);
  showPosition();
}

function enginePlayed(s, mv) {
  if (s.key !== key(app.game.name, app.game.start, app.game.moves)) return;
  if (mv === 'resign' || mv === 'win') {
    const side = s.side === 'b' ? 'Black' : 'White';
    app.note = mv === 'resign' ? side + ' (engine) resigns' : side + ' (engine) declares a win';
    render();
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

function maybeEngineMove() {
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
  });
}

function takeBack() {
  const g = app.game;
  cancelSearch();
  if (g.cursor === 0) return;
  // Back to the previous position where a human is to move (one or two moves).
  let c = g.cursor - 1;
  if (sideSetting() === 'b' || sideSetting() === 'w') {
    const human = sideSetting();
    const prev = app.states.get(key(g.name, g.start, g.moves.slice(0, c)));
    if (prev && prev.side !== human && c > 0) c--;
  }
  g.moves = g.moves.slice(0, c);
  g.cursor = c;
  app.evals.length = Math.min(app.evals.length, c + 1);
  app.note = null;
  showPosition();
}

// ---------------------------------------------------------------- clocks

function resetClock() {
  const kind = $('limit-kind').value;
  if (kind !== 'byoyomi' && kind !== 'fischer') {
    app.clock = null;
    renderClocks();
    return;
  }
  const main = Math.max(0, Number($('clock-main').value) || 0) * 1000;
  const extra = Math.max(0, Number($('clock-extra').value) || 0) * 1000;
  app.clock = { mode: kind, b: main, w: main, extra, used: 0, side: null, since: 0, flag: null };
  renderClocks();
}

// Charges the thinking time since the last update to the side whose clock runs.
function clockUpdate() {
  const c = app.clock;
  if (!c || !c.side) return;
  const now = performance.now();
  const dt = now - c.since;
  c.since = now;
  c.used += dt;
  if (c.mode === 'byoyomi') {
    if (c[c.side] > 0) c[c.side] -= dt;
    if (c[c.side] <= 0 && c.used > c.mainAtStart + c.extra && !c.flag) c.flag = c.side;
  } else {
    c[c.side] -= dt;
    if (c[c.side] <= 0 && !c.flag) c.flag = c.side;
  }
}

function clockMoved(side) {
  const c = app.clock;
  if (!c) return;
  clockUpdate();
  if (c.mode === 'fischer' && c.side === side) c[side] += c.extra;
  if (c[side] < 0) c[side] = 0;
  c.side = null;
}

// Starts the clock of the side to move when the shown position is the game's last and open.
function clockRun(st) {
  const c = app.clock;
  if (!c) return;
  const open = st && !st.result && !app.note && app.game.cursor === app.game.moves.length && !c.flag;
  if (open && c.side !== st.side) {
    clockUpdate();
    c.side = st.side;
    c.since = performance.now();
    c.used = 0;
    c.mainAtStart = Math.max(0, c[st.side]);
  } else if (!open && c.side) {
    clockUpdate();
    c.side = null;
  }
}

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

function renderClocks() {
  const c = app.clock;
  const bottom = bottomSide();
  const top = bottom === 'b' ? 'w' : 'b';
  for (const [id, side] of [['clock-top', top], ['clock-bottom', bottom]]) {
    const el = $(id);
    if (!c) {
      el.textContent = '';
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    let text = (side === 'b' ? 'Black ' : 'White ') + fmt(c[side]);
    if (c.mode === 'byoyomi' && c[side] <= 0) {
      const left = c.side === side ? c.extra - (c.used - c.mainAtStart) : c.extra;
      text += ' byoyomi ' + fmt(left);
    }
    el.textContent = text;
    el.dataset.side = side;
    el.classList.toggle('running', c.side === side);
  }
  if (c && c.flag && !app.note) {
    app.note = (c.flag === 'b' ? 'Black' : 'White') + ' lost on time';
    cancelSearch();
    renderStatus(shownState());
  }
}

setInterval(() => {
  if (app.clock && app.clock.side) {
    clockUpdate();
    renderClocks();
  }
}, 200);

// ---------------------------------------------------------------- drawing

function bottomSide() {
  const first = GAME_INFO[app.game.name].first;
  const other = first === 'b' ? 'w' : 'b';
  return app.flipped ? other : first;
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function render() {
  const st = shownState();
  const name = app.game.name;
  let pos = null;
  if (app.editing) pos = app.editing;
  else if (st) pos = parsePosition(name, st.sfen);
  else if (app.game.cursor === 0) pos = parsePosition(name, app.game.start);
  else if (app.lastPos && app.lastPos.name === name) pos = app.lastPos.pos;
  if (pos) app.lastPos = { name, pos };
  drawBoard(pos, st);
  drawHands(pos, st);
  renderStatus(st);
  renderMoveList();
  drawEvalGraph();
  clockRun(st);
  renderClocks();
  $('pass').hidden = !(st && !app.editing && st.legal.includes('pass') && canMoveHere(st));
}

function canMoveHere(st) {
  if (!st || st.result || app.note) return false;
  if (app.game.cursor === app.game.moves.length && isEngineSide(st.side) && !app.analysing) return false;
  return true;
}

function drawBoard(pos, st) {
  const svg = $('board');
  const name = app.game.name;
  const info = GAME_INFO[name];
  const n = info.size;
  const sq = info.kind === 'gt' ? 60 : Math.floor(540 / n);
  const margin = 22;
  const size = sq * n;
  svg.setAttribute('viewBox', `0 0 ${size + 2 * margin} ${size + 2 * margin}`);
  svg.dataset.game = name;
  svg.dataset.flipped = app.flipped ? '1' : '0';
  svg.textContent = '';
  const flip = bottomSide() !== info.first;
  const last = st && app.game.cursor > 0 ? moveSquares(name, app.game.moves[app.game.cursor - 1]) : [];
  const targets = targetSquares(st);
  const selSquares = selectedSquares();
  let checkSquare = null;
  if (st && st.check && pos && info.kind !== 'gt') {
    pos.cells.forEach((row, r) => row.forEach((p, c) => {
      if (p && p.letter === 'K' && p.color === st.side) checkSquare = squareAt(name, r, c);
    }));
  }
  el('rect', { x: 0, y: 0, width: size + 2 * margin, height: size + 2 * margin, class: 'board-frame' }, svg);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const dr = flip ? n - 1 - r : r;
      const dc = flip ? n - 1 - c : c;
      const x = margin + dc * sq;
      const y = margin + dr * sq;
      const name2 = squareAt(name, r, c);
      const g = el('g', { 'data-square': name2, class: 'square' }, svg);
      let cls = info.kind === 'gt' ? ((r + c) % 2 ? 'sq-dark' : 'sq-light') : 'sq-shogi';
      if (last.includes(name2)) cls += ' sq-last';
      if (selSquares.includes(name2)) cls += ' sq-selected';
      if (checkSquare === name2) cls += ' sq-check';
      el('rect', { x, y, width: sq, height: sq, class: cls }, g);
      if (info.kind === 'nana' && name2 === '2b') {
        el('circle', { cx: x + sq / 2, cy: y + sq / 2, r: sq * 0.42, class: 'centre-mark' }, g);
      }
      const p = pos && pos.cells[r] ? pos.cells[r][c] : null;
      if (p) drawPiece(g, p, x, y, sq, info.kind);
      if (targets.includes(name2)) {
        g.classList.add('target');
        g.setAttribute('data-target', '1');
        el('circle', { cx: x + sq / 2, cy: y + sq / 2, r: p ? sq * 0.46 : sq * 0.14, class: p ? 'target-ring' : 'target-dot' }, g);
      }
      g.addEventListener('click', () => clickSquare(name2));
    }
  }
  // Coordinates.
  for (let i = 0; i < n; i++) {
    const d = flip ? n - 1 - i : i;
    const file = info.kind === 'gt' ? String.fromCharCode(97 + i) : String(n - i);
    const rank = info.kind === 'gt' ? String(8 - i) : String.fromCharCode(97 + i);
    const fx = margin + d * sq + sq / 2;
    const ty = info.kind === 'gt' ? size + margin + 16 : 16;
    el('text', { x: fx, y: ty, class: 'coord', 'text-anchor': 'middle' }, svg).textContent = file;
    const rx = info.kind === 'gt' ? 11 : size + margin + 11;
    el('text', { x: rx, y: margin + d * sq + sq / 2 + 5, class: 'coord', 'text-anchor': 'middle' }, svg).textContent = rank;
  }
}

function drawPiece(g, p, x, y, sq, kind) {
  const cx = x + sq / 2;
  const cy = y + sq / 2;
  const upsideDown = p.color !== bottomSide();
  if (kind === 'gt') {
    const pg = el('g', { class: 'piece gt-piece ' + (p.color === 'w' ? 'gt-white' : 'gt-black'), 'data-piece': p.color === 'w' ? p.letter : p.letter.toLowerCase() }, g);
    el('circle', { cx, cy, r: sq * 0.38, class: 'gt-disc' }, pg);
    el('circle', { cx, cy, r: sq * 0.26, class: 'gt-inner' }, pg);
    if (p.letter === 'K') {
      el('text', { x: cx, y: cy + sq * 0.12, 'text-anchor': 'middle', class: 'gt-crown', 'font-size': sq * 0.34 }, pg).textContent = '♛';
    }
    return;
  }
  const pg = el('g', {
    class: 'piece piece-' + p.color + (p.promoted ? ' promoted' : ''),
    transform: upsideDown ? `rotate(180 ${cx} ${cy})` : '',
    'data-piece': (p.promoted ? '+' : '') + (p.color === 'b' ? p.letter : p.letter.toLowerCase()),
  }, g);
  const w = sq * 0.78;
  const h = sq * 0.86;
  const left = cx - w / 2;
  const top = cy - h / 2;
  if (kind === 'nana' && p.letter !== 'K') {
    const fam = NANA_FAMILY.R.includes(p.letter) ? 'cube-orth' : 'cube-diag';
    el('rect', { x: left + 2, y: top + 4, width: w - 4, height: h - 8, rx: 6, class: 'cube ' + fam }, pg);
    el('text', { x: cx - sq * 0.05, y: cy + sq * 0.13, 'text-anchor': 'middle', 'font-size': sq * 0.4, class: 'piece-letter' }, pg).textContent = p.letter;
    const nx = el('text', { x: left + w - 8, y: top + 22, 'text-anchor': 'end', 'font-size': sq * 0.15, class: 'next-face', 'data-next': NANA_NEXT[p.letter] }, pg);
    nx.textContent = '→' + NANA_NEXT[p.letter];
    const title = el('title', {}, pg);
    title.textContent = NANA_NAMES[p.letter] + ', turns to ' + NANA_NAMES[NANA_NEXT[p.letter]];
    return;
  }
  const pts = [
    [cx, top], [left + w * 0.85, top + h * 0.2], [left + w, top + h], [left, top + h], [left + w * 0.15, top + h * 0.2],
  ].map((q) => q.join(',')).join(' ');
  el('polygon', { points: pts, class: 'shogi-piece' }, pg);
  const label = p.promoted ? '+' + p.letter : p.letter;
  el('text', { x: cx, y: cy + sq * 0.16, 'text-anchor': 'middle', 'font-size': sq * (p.promoted ? 0.34 : 0.42), class: 'piece-letter' }, pg).textContent = label;
  const title = el('title', {}, pg);
  title.textContent = (p.promoted ? 'promoted ' : '') + (kind === 'nana' ? 'king' : SHOGI_NAMES[p.letter] || p.letter);
}

function drawHands(pos, st) {
  const name = app.game.name;
  const info = GAME_INFO[name];
  const bottom = bottomSide();
  const top = bottom === 'b' ? 'w' : 'b';
  for (const [id, side] of [['hand-top', top], ['hand-bottom', bottom]]) {
    const box = $(id);
    box.textContent = '';
    box.dataset.side = side;
    if (info.kind === 'gt') {
      box.hidden = true;
      continue;
    }
    box.hidden = false;
    const label = document.createElement('span');
    label.className = 'hand-label';
    label.textContent = (side === 'b' ? '☗ Black' : '☖ White') + ' in hand:';
    box.appendChild(label);
    const hand = pos ? pos.hands[side] : [];
    if (!hand.length) {
      const none = document.createElement('span');
      none.className = 'hand-empty';
      none.textContent = ' none';
      box.appendChild(none);
    }
    for (const [letter, count] of hand) {
      const b = document.createElement('button');
      b.className = 'hand-piece';
      b.dataset.hand = side + '-' + letter;
      b.textContent = letter;
      if (count > 1) {
        const sub = document.createElement('sub');
        sub.textContent = count;
        b.appendChild(sub);
      }
      if (app.selected && app.selected.hand === letter && st && st.side === side) b.classList.add('selected');
      b.title = info.kind === 'nana' ? (letter === 'K' ? 'king' : letter === 'R' ? 'orthogonal cube' : 'diagonal cube') : SHOGI_NAMES[letter] || letter;
      b.addEventListener('click', () => clickHand(side, letter));
      box.appendChild(b);
    }
  }
}

function renderStatus(st) {
  const s = $('status');
  const name = app.game.name;
  delete s.dataset.result;
  if (!st) {
    s.textContent = !app.connected ? 'not connected' : app.refused === shownKey() ? 'the server refused this position (see the error above)' : 'asking the server…';
    s.dataset.side = '';
    return;
  }
  const sideName = (x) => (x === 'b' ? 'Black' : 'White');
  let text;
  if (st.result) {
    const w = st.result.winner;
    text = (w ? sideName(w) + ' wins' : 'Draw') + ' (' + st.result.reason + ')';
    s.dataset.result = w || 'draw';
  } else if (app.note && app.game.cursor === app.game.moves.length) {
    text = app.note;
    s.dataset.result = 'note';
  } else {
    text = sideName(st.side) + ' to move' + (st.check ? ', check' : '');
    if (GAME_INFO[name].kind === 'gt' && st.legal.length && st.legal.every((m) => m.includes(':'))) text += ' (must capture)';
    if (app.search && !app.search.cancelled && app.search.kind === 'play') text += ' — engine thinking…';
  }
  s.textContent = text + '  ·  ply ' + app.game.cursor;
  s.dataset.side = st.side;
}

function renderMoveList() {
  const ol = $('move-list');
  ol.textContent = '';
  const li0 = document.createElement('li');
  li0.dataset.ply = '0';
  li0.textContent = 'start';
  ol.appendChild(li0);
  app.game.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    li.textContent = m;
    ol.appendChild(li);
  });
  for (const li of ol.children) {
    const ply = Number(li.dataset.ply);
    if (ply === app.game.cursor) li.classList.add('current');
    li.addEventListener('click', () => goToPly(ply));
  }
  const cur = ol.querySelector('.current');
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
}

function goToPly(ply) {
  ply = Math.max(0, Math.min(app.game.moves.length, ply));
  if (ply === app.game.cursor) return;
  cancelSearch();
  app.game.cursor = ply;
  showPosition();
}

function drawEvalGraph() {
  const svg = $('eval-graph');
  svg.textContent = '';
  const W = 300;
  const H = 80;
  const n = Math.max(app.game.moves.length, 1);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-axis' }, svg);
  const clamp = (v) => Math.max(-1500, Math.min(1500, v));
  let d = '';
  const dots = [];
  app.evals.forEach((v, ply) => {
    if (v === undefined || ply > app.game.moves.length) return;
    const x = (ply / n) * W;
    const y = H / 2 - (clamp(v) / 1500) * (H / 2 - 2);
    d += (d ? ' L' : 'M') + x.toFixed(1) + ' ' + y.toFixed(1);
    dots.push([x, y, ply, v]);
  });
  if (d) el('path', { d, class: 'graph-line' }, svg);
  for (const [x, y, ply, v] of dots) {
    const c = el('circle', { cx: x, cy: y, r: 2.5, class: 'graph-dot', 'data-ply': ply }, svg);
    const t = el('title', {}, c);
    t.textContent = 'ply ' + ply + ': ' + (Math.abs(v) > 9000 ? 'mate' : v);
    c.addEventListener('click', () => goToPly(ply));
  }
  const x = (app.game.cursor / n) * W;
  el('line', { x1: x, y1: 0, x2: x, y2: H, class: 'graph-cursor' }, svg);
  svg.dataset.points = String(dots.length);
  svg.setAttribute('aria-label', 'evaluation from ' + (GAME_INFO[app.game.name].first === 'b' ? 'Black' : 'White') + "'s view");
}

// ---------------------------------------------------------------- input

function legalNow() {
  const st = shownState();
  if (!st || !canMoveHere(st) || app.editing) return null;
  return st;
}

function targetSquares(st) {
  const sel = app.selected;
  if (!sel || !st) return [];
  const name = app.game.name;
  if (GAME_INFO[name].kind === 'gt') {
    const path = sel.path;
    const out = [];
    for (const m of st.legal) {
      const stops = m.split(/[-:]/);
      if (stops.length > path.length && path.every((p, i) => stops[i] === p)) out.push(stops[path.length]);
    }
    return out;
  }
  if (sel.from) return st.legal.filter((m) => m.slice(0, 2) === sel.from && m[1] !== '*').map((m) => m.slice(2, 4));
  if (sel.hand) return st.legal.filter((m) => m[1] === '*' && dropFamily(m[0]) === sel.hand).map((m) => m.slice(2, 4));
  return [];
}

function dropFamily(letter) {
  if (GAME_INFO[app.game.name].kind !== 'nana') return letter;
  for (const f in NANA_FAMILY) if (NANA_FAMILY[f].includes(letter)) return f;
  return letter;
}

function selectedSquares() {
  const sel = app.selected;
  if (!sel) return [];
  if (sel.from) return [sel.from];
  if (sel.path) return sel.path.slice();
  return [];
}

function clickSquare(sqName) {
  if (app.editing) return editClick(sqName);
  const st = legalNow();
  if (!st) return;
  hideChooser();
  const name = app.game.name;
  if (GAME_INFO[name].kind === 'gt') return clickGt(st, sqName);
  const sel = app.selected;
  if (sel && (sel.from || sel.hand)) {
    let cands;
    if (sel.from) cands = st.legal.filter((m) => m[1] !== '*' && m.slice(0, 2) === sel.from && m.slice(2, 4) === sqName);
    else cands = st.legal.filter((m) => m[1] === '*' && dropFamily(m[0]) === sel.hand && m.slice(2, 4) === sqName);
    if (cands.length === 1) return playMove(cands[0]);
    if (cands.length > 1) return choose(cands);
  }
  const from = st.legal.filter((m) => m[1] !== '*' && m.slice(0, 2) === sqName);
  app.selected = from.length && !(sel && sel.from === sqName) ? { from: sqName } : null;
  render();
}

function clickGt(st, sqName) {
  const sel = app.selected;
  let path = sel && sel.path ? sel.path.concat([sqName]) : [sqName];
  let cands = st.legal.filter((m) => {
    const stops = m.split(/[-:]/);
    return path.every((p, i) => stops[i] === p);
  });
  if (!cands.length || (sel && sel.path && sel.path.length === 1 && sel.path[0] === sqName)) {
    // Start again from this square, or drop the selection.
    path = [sqName];
    cands = st.legal.filter((m) => m.split(/[-:]/)[0] === sqName);
    if (sel && sel.path && sel.path.length === 1 && sel.path[0] === sqName) cands = [];
    app.selected = cands.length ? { path } : null;
    render();
    return;
  }
  const exact = cands.find((m) => m.split(/[-:]/).length === path.length);
  if (path.length > 1 && (cands.length === 1 || exact)) return playMove(exact || cands[0]);
  app.selected = { path };
  render();
}

function clickHand(side, letter) {
  if (app.editing) return;
  const st = legalNow();
  if (!st || st.side !== side) return;
  hideChooser();
  const has = st.legal.some((m) => m[1] === '*' && dropFamily(m[0]) === letter);
  app.selected = has && !(app.selected && app.selected.hand === letter) ? { hand: letter } : null;
  render();
}

function choose(moves) {
  const box = $('chooser');
  box.textContent = '';
  const label = document.createElement('span');
  label.textContent = GAME_INFO[app.game.name].kind === 'nana' ? 'Drop as: ' : 'Promote? ';
  box.appendChild(label);
  for (const m of moves) {
    const b = document.createElement('button');
    b.dataset.move = m;
    if (m[1] === '*') b.textContent = m[0] + ' (' + (NANA_NAMES[m[0]] || m[0]) + ')';
    else b.textContent = m.endsWith('+') ? 'promote' : 'do not promote';
    b.dataset.choice = m.endsWith('+') ? 'promote' : m[1] === '*' ? m[0] : 'stay';
    b.addEventListener('click', () => {
      hideChooser();
      playMove(m);
    });
    box.appendChild(b);
  }
  const cancel = document.createElement('button');
  cancel.textContent = 'cancel';
  cancel.dataset.choice = 'cancel';
  cancel.addEventListener('click', () => {
    hideChooser();
    app.selected = null;
    render();
  });
  box.appendChild(cancel);
  box.hidden = false;
}

function hideChooser() {
  $('chooser').hidden = true;
}

// ---------------------------------------------------------------- analysis

function startAnalysis() {
  const st = shownState();
  const g = app.game;
  startSearch({
    kind: 'analyse', op: 'go', game: g.name, start: g.start, moves: shownMoves(), key: shownKey(),
    ply: g.cursor, side: st ? st.side : null, limits: { infinite: true }, multipv: Number($('multipv').value),
  });
  $('pv-lines').textContent = '';
  $('analysis-info').textContent = 'thinking…';
}

function toggleAnalysis() {
  app.analysing = !app.analysing;
  if (app.analysing) {
    startAnalysis();
  } else {
    cancelSearch();
    maybeEngineMove();
  }
  updateAnalyseButton();
  render();
}

function updateAnalyseButton() {
  const b = $('analyse');
  b.textContent = app.analysing ? 'Stop' : 'Analyse';
  b.dataset.running = app.analysing ? '1' : '0';
}

function renderAnalysis(msg) {
  const s = app.search;
  if (!s) return;
  // The side is known only once the state came; fill it in for the score's view.
  if (!s.side) {
    const st = app.states.get(s.key);
    if (st) s.side = st.side;
  }
  const best = s.lines[0] || msg;
  $('analysis-info').textContent = 'depth ' + (best.depth || 0) + '/' + (best.seldepth || 0) + '  score ' +
    scoreText(best.score) + '  nodes ' + (msg.nodes || 0) + '  nps ' + (msg.nps || 0);
  const ol = $('pv-lines');
  ol.textContent = '';
  s.lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement('li');
    li.dataset.multipv = String(i + 1);
    li.dataset.pv = line.pv.join(' ');
    li.textContent = scoreText(line.score) + '  ' + line.pv.join(' ');
    li.title = 'play these moves';
    li.addEventListener('click', () => playLine(line.pv));
    ol.appendChild(li);
  });
}

function playLine(pv) {
  const g = app.game;
  cancelSearch();
  const base = g.moves.slice(0, g.cursor);
  const same = pv.every((m, i) => g.moves[g.cursor + i] === m);
  g.moves = same ? g.moves : base.concat(pv);
  g.cursor = base.length + pv.length;
  app.evals.length = Math.min(app.evals.length, base.length + 1);
  showPosition();
}

// ---------------------------------------------------------------- mate

function startMate() {
  const g = app.game;
  if (app.analysing) {
    app.analysing = false;
    updateAnalyseButton();
  }
  $('mate-result').textContent = 'searching…';
  $('mate-result').dataset.result = '';
  $('mate-line').textContent = '';
  startSearch({
    kind: 'mate', op: 'mate', game: g.name, start: g.start, moves: shownMoves(), key: shownKey(),
    ply: g.cursor, ms: Math.max(100, Number($('mate-ms').value) || 10000),
  });
}

function mateFound(s, msg) {
  const res = $('mate-result');
  res.dataset.result = msg.result;
  const line = msg.line || [];
  res.textContent = msg.result === 'mate' ? 'mate in ' + line.length + ' plies' : msg.result === 'nomate' ? 'no mate' : 'timeout';
  app.mate = { base: s.moves.slice(), key: s.key, line };
  const ol = $('mate-line');
  ol.textContent = '';
  line.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.matePly = String(i + 1);
    li.textContent = m;
    li.addEventListener('click', () => {
      const g = app.game;
      cancelSearch();
      const prefix = app.mate.base.concat(app.mate.line);
      if (g.moves.length < prefix.length || !prefix.every((mv, j) => g.moves[j] === mv)) g.moves = prefix;
      g.cursor = app.mate.base.length + i + 1;
      showPosition();
    });
    ol.appendChild(li);
  });
}

// ---------------------------------------------------------------- set up, records

function loadPosition(text) {
  const sfen = text.trim().replace(/^sfen\s+/, '');
  if (!sfen) return;
  const game = detectGame(sfen);
  if (!game) {
    showError('cannot tell the game of this position string (9, 5, 3 or 8 ranks expected)');
    return;
  }
  newGame(game, sfen === 'startpos' ? null : sfen);
}

// The one-click positions: PRESETS, then the minishogi article's games and mates that the
// server serves from its test data (GET /examples.json), fetched once.
function buildPresets() {
  const box = $('presets');
  box.textContent = '';
  const all = PRESETS.concat(app.examples || []);
  for (const p of all) {
    const b = document.createElement('button');
    b.dataset.preset = p.id;
    b.textContent = p.label;
    b.addEventListener('click', () => usePreset(p));
    box.appendChild(b);
  }
  if (!app.examples) fetchExamples();
}

function fetchExamples() {
  app.examples = [];
  fetch('/examples.json')
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('HTTP ' + r.status))))
    .then((ex) => {
      const mini = ex.minishogi || [];
      app.examples = mini
        .filter((g) => g.kind === 'game')
        .map((g, i) => ({ id: 'minishogi-game-' + (i + 1), label: 'minishogi ' + g.label, game: 'minishogi', sfen: g.sfen, moves: g.moves }))
        .concat(mini.slice(1).filter((m) => m.kind === 'mate').map((m, i) => ({ id: 'minishogi-tsume-' + (i + 1), label: m.label, game: 'minishogi', sfen: m.sfen })));
      buildPresets();
    })
    .catch((e) => showError('cannot read the article positions: ' + e.message));
}

// Sets up a one-click position: its start, its moves (shown at the end, stepped through with the
// move list), and for nana's solved start the table's mating line.
function usePreset(p) {
  const sfen = p.sfen || startposOf(p.game);
  $('position-input').value = sfen;
  newGame(p.game, sfen);
  if (p.moves && p.moves.length) {
    app.game.moves = p.moves.slice();
    app.game.cursor = p.moves.length;
    for (let k = 0; k <= p.moves.length; k++) requestState(p.game, app.game.start, p.moves.slice(0, k));
    showPosition();
  }
  if (p.solved) {
    if (app.hello && app.hello.games.some((g) => g.exact && g.exact.loaded)) {
      startMate();
    } else {
      $('mate-result').dataset.result = 'notable';
      $('mate-result').textContent = NO_NANA_TABLE;
    }
  }
}

function currentSfen() {
  const st = shownState();
  return st ? st.sfen : app.game.cursor === 0 ? app.game.start : '';
}

// Records are written and read by the server (`record` and `load`): the USI record for every
// game, KIF and CSA for standard shogi.
function loadRecord(text) {
  if (!text.trim()) return;
  const id = send({ op: 'load', text, game: app.game.name });
  if (id !== null) app.pendingRecord = { id, op: 'load' };
}

function requestRecord(format) {
  const g = app.game;
  const id = send({ op: 'record', game: g.name, sfen: g.start, moves: g.moves, format });
  if (id !== null) app.pendingRecord = { id, op: 'record' };
}

function onRecordAnswer(msg) {
  const p = app.pendingRecord;
  if (!p || p.id !== msg.id || p.op !== msg.op) return;
  app.pendingRecord = null;
  if (msg.op === 'record') {
    $('record-text').value = msg.text;
    const ext = { usi: 'usi', csa: 'csa', kif: 'kifu' }[msg.format];
    download(app.game.name + '.' + ext, msg.text);
    return;
  }
  newGame(msg.game, msg.sfen);
  app.game.moves = msg.moves;
  app.game.cursor = msg.moves.length;
  for (let k = 0; k <= msg.moves.length; k++) requestState(msg.game, app.game.start, msg.moves.slice(0, k));
  showPosition();
}

function updateRecordButtons() {
  const shogi = app.game.name === 'shogi';
  $('download-kif').hidden = !shogi;
  $('download-csa').hidden = !shogi;
}

// A record file is UTF-8, or Shift_JIS as older KIF and CSA files are.
function decodeRecord(buffer) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch (e) {
    return new TextDecoder('shift_jis').decode(buffer);
  }
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

// ---------------------------------------------------------------- position editor

const PALETTES = {
  shogi: ['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P', '+R', '+B', '+S', '+N', '+L', '+P'],
  minishogi: ['K', 'R', 'B', 'G', 'S', 'P', '+R', '+B', '+S', '+P'],
  nanashogi: ['K', 'R', 'C', 'W', 'I', 'B', 'T', 'M', 'D'],
  giveandtake: ['M', 'K'],
};

function startEditor() {
  const name = app.game.name;
  const sfen = currentSfen() || app.game.start;
  cancelSearch();
  app.editing = parsePosition(name, sfen);
  app.editPiece = null;
  $('edit-side').value = app.editing.side;
  const pal = $('palette');
  pal.textContent = '';
  for (const color of ['b', 'w']) {
    for (const p of PALETTES[name]) {
      const b = document.createElement('button');
      const letter = p.replace('+', '');
      const shown = GAME_INFO[name].kind === 'gt' ? (color === 'w' ? p : p.toLowerCase()) : color === 'b' ? p : p.toLowerCase();
      b.textContent = shown;
      b.dataset.palette = color + '-' + p;
      b.addEventListener('click', () => {
        app.editPiece = { letter, color, promoted: p.startsWith('+') };
        for (const x of pal.children) x.classList.toggle('selected', x === b);
      });
      pal.appendChild(b);
    }
  }
  const eraser = document.createElement('button');
  eraser.textContent = 'erase';
  eraser.dataset.palette = 'erase';
  eraser.addEventListener('click', () => {
    app.editPiece = 'erase';
    for (const x of pal.children) x.classList.toggle('selected', x === eraser);
  });
  pal.appendChild(eraser);
  $('editor').hidden = false;
  render();
}

function editClick(sqName) {
  const name = app.game.name;
  const n = GAME_INFO[name].size;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (squareAt(name, r, c) !== sqName) continue;
      const cur = app.editing.cells[r][c];
      if (app.editPiece === 'erase' || !app.editPiece) app.editing.cells[r][c] = null;
      else if (cur && cur.letter === app.editPiece.letter && cur.color === app.editPiece.color && cur.promoted === app.editPiece.promoted) app.editing.cells[r][c] = null;
      else app.editing.cells[r][c] = Object.assign({}, app.editPiece);
    }
  }
  $('position-input').value = editorSfen();
  render();
}

function editorSfen() {
  const name = app.game.name;
  const info = GAME_INFO[name];
  const e = app.editing;
  const rows = e.cells.map((row) => {
    let s = '';
    let empty = 0;
    for (const p of row) {
      if (!p) {
        empty++;
        continue;
      }
      if (empty) s += empty;
      empty = 0;
      const upper = info.kind === 'gt' ? p.color === 'w' : p.color === 'b';
      s += (p.promoted ? '+' : '') + (upper ? p.letter : p.letter.toLowerCase());
    }
    return s + (empty ? empty : '');
  });
  const side = $('edit-side').value;
  if (info.kind === 'gt') return rows.join('/') + ' ' + side + ' - 1';
  let hand = '';
  for (const color of ['b', 'w']) {
    for (const [l, c] of e.hands[color]) hand += (c > 1 ? c : '') + (color === 'b' ? l : l.toLowerCase());
  }
  return rows.join('/') + ' ' + side + ' ' + (hand || '-') + ' 1';
}

function stopEditor(use) {
  const sfen = use ? editorSfen() : null;
  app.editing = null;
  $('editor').hidden = true;
  if (use) {
    $('position-input').value = sfen;
    newGame(app.game.name, sfen);
  } else {
    render();
  }
}

// ---------------------------------------------------------------- wiring

function wire() {
  $('game-select').addEventListener('change', (e) => {
    if (app.editing) stopEditor(false);
    newGame(e.target.value, null);
  });
  $('reconnect').addEventListener('click', connect);
  $('new-game').addEventListener('click', () => newGame(app.game.name, null));
  $('takeback').addEventListener('click', takeBack);
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    render();
  });
  $('side-select').addEventListener('change', () => {
    if (app.search && app.search.kind === 'play') cancelSearch();
    render();
    maybeEngineMove();
  });
  const limitChanged = () => {
    const k = $('limit-kind').value;
    $('clock-settings').hidden = k !== 'byoyomi' && k !== 'fischer';
    const defaults = { depth: 4, nodes: 20000, movetime: 1000 };
    if (defaults[k]) $('limit-value').value = defaults[k];
    $('limit-value').hidden = !defaults[k];
    resetClock();
  };
  $('limit-kind').addEventListener('change', limitChanged);
  for (let level = 20; level >= 0; level--) {
    const o = document.createElement('option');
    o.value = String(level);
    o.textContent = level === 20 ? '20 (full strength)' : String(level);
    $('level').appendChild(o);
  }
  $('level').addEventListener('change', () => {
    if (app.search && app.search.kind === 'play') cancelSearch();
    maybeEngineMove();
  });
  $('clock-main').addEventListener('change', resetClock);
  $('clock-extra').addEventListener('change', resetClock);
  $('clock-settings').hidden = true;
  $('analyse').addEventListener('click', toggleAnalysis);
  $('multipv').addEventListener('change', () => {
    if (app.analysing) startAnalysis();
  });
  $('pass').addEventListener('click', () => {
    if (legalNow()) playMove('pass');
  });
  $('nav-first').addEventListener('click', () => goToPly(0));
  $('nav-prev').addEventListener('click', () => goToPly(app.game.cursor - 1));
  $('nav-next').addEventListener('click', () => goToPly(app.game.cursor + 1));
  $('nav-last').addEventListener('click', () => goToPly(app.game.moves.length));
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT')) return;
    if (e.key === 'ArrowLeft') {
      goToPly(app.game.cursor - 1);
      e.preventDefault();
    } else if (e.key === 'ArrowRight') {
      goToPly(app.game.cursor + 1);
      e.preventDefault();
    } else if (e.key === 'Home') {
      goToPly(0);
    } else if (e.key === 'End') {
      goToPly(app.game.moves.length);
    } else if (e.key === 'Escape') {
      app.selected = null;
      hideChooser();
      render();
    }
  });
  $('load-position').addEventListener('click', () => loadPosition($('position-input').value));
  $('mate-button').addEventListener('click', startMate);
  $('copy-sfen').addEventListener('click', () => {
    const s = currentSfen();
    $('position-input').value = s;
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(() => {});
  });
  $('download-usi').addEventListener('click', () => requestRecord('usi'));
  $('download-kif').addEventListener('click', () => requestRecord('kif'));
  $('download-csa').addEventListener('click', () => requestRecord('csa'));
  $('load-record').addEventListener('click', () => loadRecord($('record-text').value));
  $('record-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    if (!f) return;
    f.arrayBuffer().then((b) => {
      const t = decodeRecord(b);
      $('record-text').value = t;
      loadRecord(t);
    });
  });
  $('edit-toggle').addEventListener('click', () => (app.editing ? stopEditor(false) : startEditor()));
  $('edit-clear').addEventListener('click', () => {
    if (!app.editing) return;
    app.editing.cells = app.editing.cells.map((row) => row.map(() => null));
    $('position-input').value = editorSfen();
    render();
  });
  $('edit-side').addEventListener('change', () => {
    if (app.editing) $('position-input').value = editorSfen();
  });
  $('edit-done').addEventListener('click', () => stopEditor(true));
}

wire();
connect();
window.tsubamePage = app; // for debugging in the browser console
