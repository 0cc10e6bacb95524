// Records, written and read by the server (`record` and `load`): the USI record of every game,
// and each game's own formats as `hello` lists them (`records`), offered while that game is
// shown.

import { $ } from './dom.js';
import { app, current, sideName } from './state.js';
import { send } from './connection.js';
import { newGame, showWholeGame } from './play.js';
import { mainLine, otherLines } from './variations.js';

/** Makes a download button for every record format of any game, and the panel's note. */
export function buildRecordButtons(games) {
  for (const old of document.querySelectorAll('[data-record-format]')) old.remove();
  const formats = [];
  for (const g of games) for (const r of g.records) if (!formats.some((f) => f.name === r.name)) formats.push(r);
  let after = $('download-usi');
  for (const f of formats) {
    const b = document.createElement('button');
    b.id = 'download-' + f.name;
    b.dataset.recordFormat = f.name;
    b.textContent = 'Download ' + f.name.toUpperCase();
    b.addEventListener('click', () => requestRecord(f.name));
    after.insertAdjacentElement('afterend', b);
    after = b;
  }
  const accept = ['.usi', '.txt'];
  for (const f of formats) for (const e of ['.' + f.name, '.' + f.extension]) if (!accept.includes(e)) accept.push(e);
  $('record-file').accept = accept.concat(['text/plain']).join(',');
  // The note: which games each format (or formats with the same games) is for.
  const byGames = new Map();
  for (const f of formats) {
    const titles = games.filter((g) => g.records.some((r) => r.name === f.name)).map((g) => g.title || g.name).join(', ');
    byGames.set(titles, (byGames.get(titles) || []).concat([f.name.toUpperCase()]));
  }
  let note = 'The USI record works for every game';
  for (const [titles, names] of byGames) {
    note += '; ' + names.join(' and ') + (names.length > 1 ? ' are' : ' is') + ' for ' + titles;
  }
  $('record-note').textContent = note + '.';
  updateRecordButtons();
}

/** Shows the download buttons of the formats of the game shown. */
export function updateRecordButtons() {
  const entry = current();
  const mine = entry ? entry.records.map((r) => r.name) : [];
  for (const b of document.querySelectorAll('[data-record-format]')) b.hidden = !mine.includes(b.dataset.recordFormat);
}

/** Asks the server to read a record (a USI one that names no game is of `game`, by default the
 * game shown). */
export function loadRecord(text, game) {
  if (!text.trim()) return;
  const id = send({ op: 'load', text, game: game || app.game.name });
  if (id !== null) app.pendingRecord = { id, op: 'load' };
}

/** Asks the server for the game as a record in this format: its main line, with the page's end
 * of the game (a resignation, a loss on time) when it has one (a mate or a repetition the server
 * sees itself), and its variations (which KIF keeps as its variation blocks). */
export function requestRecord(format) {
  const g = app.game;
  const msg = { op: 'record', game: g.name, sfen: g.start, moves: mainLine(), format };
  const others = otherLines();
  if (others.length) msg.variations = others;
  if (app.note && app.noteResult) msg.result = app.noteResult;
  const id = send(msg);
  if (id !== null) app.pendingRecord = { id, op: 'record' };
}

/** The server's `record` (downloaded) or `load` (its game shown at its last move). */
export function onRecordAnswer(msg) {
  const p = app.pendingRecord;
  if (!p || p.id !== msg.id || p.op !== msg.op) return;
  app.pendingRecord = null;
  if (msg.op === 'record') {
    $('record-text').value = msg.text;
    const entry = current();
    const format = entry && entry.records.find((r) => r.name === msg.format);
    download(app.game.name + '.' + (format ? format.extension : msg.format), msg.text);
    return;
  }
  newGame(msg.game, msg.sfen);
  if (msg.result) {
    // The record's own end: shown, and the engine waits until asked to play on.
    const w = msg.result.winner;
    app.note = (w ? sideName(w) + ' wins' : 'Draw') + ' (' + msg.result.reason + ', as the record says)';
    app.noteResult = { winner: w, reason: msg.result.reason };
    app.recordEnded = true;
  }
  showWholeGame(msg.moves, msg.variations);
}

/** A record file's text: UTF-8, or Shift_JIS as some older record files are. */
export function decodeRecord(buffer) {
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
