// tsubame's page: the boards of every game the server lists, talking to `tsubame serve` over the
// WebSocket protocol of docs/serve.md. The page knows no rule and no game: legal moves, check
// and the result of every position come from the server's `state`, and how each game is drawn
// and entered from its descriptor (GET /games.json, which the browser keeps and revalidates),
// joined to the server's `hello`. This module wires the others: the engine's messages to their
// handlers, the page's events (state.js) to the views that answer them, and the page's controls.

import { $, showError } from './dom.js';
import { app, emit, listen, shownState } from './state.js';
import { connect, on, onStatus } from './connection.js';
import { resetClock } from './clock.js';
import { cancelSearch, onInfo, startAnalysis, startMate } from './search.js';
import {
  deleteShown, goToPly, maybeEngineMove, newGame, onClose, onError, onSearchEnd, onState, playMove, legalNow,
  promoteShown, requestShown, resign, takeBack, toggleAnalysis,
} from './play.js';
import { saveSettings, settings } from './settings.js';
import {
  analysisAsked, analysisEnded, clearAnalysis, redrawAnalysis, renderAnalysis, updateAnalyseButton,
} from './analysis.js';
import { focusBoard } from './board.js';
import { hideChooser } from './chooser.js';
import { drawEvalGraph } from './graph.js';
import { clearShapes, drawBestArrow } from './arrows.js';
import { drawEvalBar } from './evalbar.js';
import { clearMate, mateAsked, mateEnded, mateFound, mateProgress, redrawMateLine } from './mate.js';
import { buildPresets, loadPosition } from './presets.js';
import {
  buildRecordButtons, decodeRecord, loadRecord, onRecordAnswer, requestRecord, updateRecordButtons,
} from './records.js';
import { playSound } from './sound.js';
import { render, renderClocks, renderMoveList, renderStatus, showConnection, startClockTicker } from './view.js';
import { initDrag } from './drag.js';
import { clearEditor, currentSfen, editorFields, editorStart, startEditor, stopEditor } from './editor.js';
import { cancelPremove, initKeys, takePremove } from './input.js';
import { abort, clearDrawOffer, offerDraw } from './ending.js';
import { initThemes } from './themes.js';

/** The engine's `hello`: the games it offers, each joined to its description in games.json. */
function onHello(msg) {
  fetch('games.json')
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('HTTP ' + r.status))))
    .then((described) => {
      msg.games = msg.games.map((g) => Object.assign({}, described.find((d) => d.name === g.name), g));
      startWith(msg);
    })
    .catch((e) => showError('cannot read the description of the games (games.json): ' + e.message));
}

/** Sets up the page for the server's games (described) and caps. */
function startWith(msg) {
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
  buildRecordButtons(msg.games);
  buildPresets(msg.games);
  buildElo(msg.limits.elo);
  if (first) {
    const wanted = new URLSearchParams(location.search).get('game');
    const name = msg.games.some((g) => g.name === wanted) ? wanted : msg.games[0].name;
    newGame(name, null);
  } else {
    sel.value = app.game.name;
    app.states.clear();
    requestShown();
  }
}

/** The Elo choices: off, then the engine's range in steps of 100. */
function buildElo(range) {
  const sel = $('elo');
  const kept = sel.value;
  while (sel.options.length > 1) sel.remove(1);
  if (!range) return;
  const [low, high] = range;
  const values = [];
  for (let v = Math.ceil(low / 100) * 100; v < high; v += 100) values.push(v);
  if (low % 100) values.unshift(low);
  values.push(high);
  for (const v of values) {
    const o = document.createElement('option');
    o.value = String(v);
    o.textContent = String(v);
    sel.appendChild(o);
  }
  sel.value = values.map(String).includes(kept) ? kept : '';
}

/** The views answer the page's events (state.js), in the order listed. */
function listenAll() {
  listen('render', render);
  listen('status', renderStatus);
  listen('shown', hideChooser);
  listen('shown', clearShapes);
  listen('premove', takePremove);
  listen('played', playSound);
  listen('new-game', clearMate);
  listen('new-game', clearAnalysis);
  listen('new-game', (name) => {
    $('game-select').value = name;
  });
  listen('new-game', updateRecordButtons);
  listen('new-game', clearDrawOffer);
  listen('clock', renderClocks);
  listen('search', updateAnalyseButton);
  // A play search started or ended: the status line says whether the engine is thinking.
  listen('search', () => renderStatus(shownState()));
  listen('asked', mateAsked);
  listen('asked', analysisAsked);
  listen('info', mateProgress);
  listen('info', renderAnalysis);
  listen('info', drawBestArrow);
  listen('evals', drawEvalGraph);
  listen('evals', drawEvalBar);
  listen('mate', mateFound);
  listen('ended', mateEnded);
  listen('ended', analysisEnded);
  // The search's lines are written in the notation chosen, from their positions' states.
  listen('states', redrawAnalysis);
  listen('states', redrawMateLine);
  listen('notation', redrawAnalysis);
  listen('notation', redrawMateLine);
  // ... and so are the variations of the move list, redrawn once a frame at most.
  let listPending = false;
  listen('states', () => {
    if (listPending) return;
    listPending = true;
    requestAnimationFrame(() => {
      listPending = false;
      renderMoveList();
    });
  });
}

/** The connection's state: kept (`app.connected`) and shown. */
function connectionChanged(status) {
  if (status.state === 'open') app.connected = true;
  else if (status.state === 'closed') app.connected = false;
  showConnection(status);
}

function wire() {
  $('game-select').addEventListener('change', (e) => {
    if (app.editing) stopEditor(false);
    newGame(e.target.value, null);
  });
  $('reconnect').addEventListener('click', connect);
  $('new-game').addEventListener('click', () => newGame(app.game.name, null));
  $('takeback').addEventListener('click', takeBack);
  $('resign').addEventListener('click', resign);
  $('promote-line').addEventListener('click', promoteShown);
  $('delete-line').addEventListener('click', deleteShown);
  $('abort').addEventListener('click', abort);
  $('offer-draw').addEventListener('click', offerDraw);
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
  for (const id of ['level', 'elo']) {
    $(id).addEventListener('change', () => {
      if (app.search && app.search.kind === 'play') cancelSearch();
      maybeEngineMove();
    });
  }
  $('piece-set').value = settings.pieces;
  $('notation').value = settings.notation;
  $('sound').checked = settings.sound;
  $('piece-set').addEventListener('change', (e) => {
    settings.pieces = e.target.value;
    saveSettings();
    render();
  });
  $('notation').addEventListener('change', (e) => {
    settings.notation = e.target.value;
    saveSettings();
    render();
    emit('notation');
  });
  $('sound').addEventListener('change', (e) => {
    settings.sound = e.target.checked;
    saveSettings();
  });
  $('play-on').addEventListener('click', () => {
    app.note = null;
    app.recordEnded = false;
    render();
    maybeEngineMove();
  });
  $('skip-board').addEventListener('click', (e) => {
    e.preventDefault();
    focusBoard();
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
    // Escape drops a premove wherever the focus is (the board keeps none when clicked).
    if (e.key === 'Escape') cancelPremove();
    const t = e.target;
    if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT')) return;
    if (e.defaultPrevented) return;
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
  $('edit-clear').addEventListener('click', clearEditor);
  $('edit-start').addEventListener('click', editorStart);
  for (const id of ['edit-side', 'edit-number', 'edit-last']) {
    $(id).addEventListener('change', editorFields);
    $(id).addEventListener('input', editorFields);
  }
  $('edit-done').addEventListener('click', () => stopEditor(true));
  $('edit-cancel').addEventListener('click', () => stopEditor(false));
  initDrag();
  initKeys();
  initThemes();
}

listenAll();
onStatus(connectionChanged);
on('hello', onHello);
on('state', onState);
on('info', onInfo);
on('bestmove', onSearchEnd);
on('mate', onSearchEnd);
on('record', onRecordAnswer);
on('load', onRecordAnswer);
on('error', onError);
on('close', onClose);
wire();
connect();
startClockTicker();
window.tsubamePage = app; // for debugging in the browser console, and for the browser tests
