// The board's looks, chosen in the Play panel and remembered (settings.js): its theme (the
// board's colours, the same in the light and the dark scheme: the style sheet's `data-board`
// rules on the root element), the pieces' colours (`data-piece-colour`) and its size, set by the
// Size slider or by dragging the handle at the board's corner (the board area's `--board-size`;
// the layout still keeps the board within the window's width, a phone's too).

import { $ } from './dom.js';
import { saveSettings, settings } from './settings.js';

/** The board area's widths the player may choose, in CSS pixels. */
const MIN_SIZE = 280;
const MAX_SIZE = 1000;

/** Shows the theme, the pieces' colours and the size chosen. */
function apply() {
  const root = document.documentElement.dataset;
  root.board = settings.board;
  root.pieceColour = settings.pieceColour;
  const area = $('board-area');
  if (settings.boardSize) area.style.setProperty('--board-size', settings.boardSize + 'px');
  else area.style.removeProperty('--board-size');
  $('board-size').value = String(settings.boardSize || Math.round(area.getBoundingClientRect().width));
}

/** Sets the board's size (px, bounded), shown at once; `keep`: remembered. */
function resize(px, keep) {
  settings.boardSize = Math.round(Math.max(MIN_SIZE, Math.min(MAX_SIZE, px)));
  apply();
  if (keep) saveSettings();
}

/** The handle at the board's corner: dragged, it resizes the board (by the longer of the
 * pointer's two moves), remembered when released. */
function initHandle() {
  const handle = $('board-resize');
  let from = null;
  handle.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    from = { x: e.clientX, y: e.clientY, width: $('board-area').getBoundingClientRect().width };
  });
  handle.addEventListener('pointermove', (e) => {
    if (!from) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    resize(from.width + (Math.abs(dx) > Math.abs(dy) ? dx : dy), false);
  });
  const done = () => {
    if (from) saveSettings();
    from = null;
  };
  handle.addEventListener('pointerup', done);
  handle.addEventListener('pointercancel', done);
}

/** The theme, colours and size controls, and the handle; the choices remembered shown. */
export function initThemes() {
  for (const [id, name] of [['board-theme', 'board'], ['piece-colour', 'pieceColour']]) {
    // A choice remembered that the page no longer offers: its first.
    $(id).value = settings[name];
    if (!$(id).value) settings[name] = $(id).value = $(id).options[0].value;
    $(id).addEventListener('change', (e) => {
      settings[name] = e.target.value;
      saveSettings();
      apply();
    });
  }
  $('board-size').min = String(MIN_SIZE);
  $('board-size').max = String(MAX_SIZE);
  $('board-size').addEventListener('input', (e) => resize(Number(e.target.value), true));
  initHandle();
  apply();
}
