// Pointer input on the board and the hands, for mouse, pen and touch alike (pointer events): a
// press and release on one square is a click; a press on a piece that may move, dragged and
// released on another square, is a move (a route stops on the squares it is dragged over). The
// legal targets show while dragging, and the piece follows the pointer. The right button draws:
// pressed and released on one square a circle, dragged to another an arrow (arrows.js); a left
// press on the board takes the drawing down.

import { $, svg } from './dom.js';
import { app, bottomSide, current } from './state.js';
import { familyOf } from './board.js';
import { pieceOn } from './position.js';
import { render } from './view.js';
import { COLORS, clearShapes, drawShapes, toggleShape } from './arrows.js';
import { cancelPremove, clickHand, clickSquare, dragDrop, dragHand, dragOver, dragSquare } from './input.js';

/** How far (CSS pixels) a press must move to be a drag rather than a click. */
const SLOP = 6;

let drag = null;

/** The square under a point of the window, or null. */
function squareUnder(x, y) {
  const el = document.elementFromPoint(x, y);
  const g = el && el.closest ? el.closest('#board [data-square]') : null;
  return g ? g.dataset.square : null;
}

/** The on-screen size of a square of the board. */
function squarePixels() {
  const board = $('board');
  const rect = board.getBoundingClientRect();
  const view = board.viewBox.baseVal;
  const entry = current();
  if (!entry || !view || !view.width) return 48;
  const page = entry.page;
  const sq = Math.floor(familyOf(page).BOARD_PIXELS / Math.max(page.files, page.ranks));
  return (sq * rect.width) / view.width;
}

/** The floating copy of the dragged piece. */
function makeGhost(piece) {
  const entry = current();
  if (!entry || !piece) return null;
  const size = squarePixels();
  const ghost = svg('svg', { class: 'drag-ghost', viewBox: '0 0 100 100', width: size, height: size, 'aria-hidden': 'true' });
  familyOf(entry.page).drawPiece(svg('g', {}, ghost), entry.page, piece, { x: 0, y: 0, sq: 100, upsideDown: piece.color !== bottomSide() });
  for (const p of ghost.querySelectorAll('.piece')) p.classList.remove('dragging');
  document.body.appendChild(ghost);
  return ghost;
}

function moveGhost(x, y) {
  if (!drag.ghost) return;
  drag.ghost.style.left = x + 'px';
  drag.ghost.style.top = y + 'px';
}

function begin(e, spec, captureOn) {
  drag = Object.assign({ id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, ghost: null, visited: [], hover: null }, spec);
  try {
    if (captureOn) captureOn.setPointerCapture(e.pointerId);
  } catch (err) {
    // capture refused (the pointer is gone): the window's listeners still see it
  }
}

function onBoardDown(e) {
  if (e.button === 2) return startDrawing(e);
  if (e.button !== 0 || drag) return;
  clearShapes();
  const g = e.target.closest && e.target.closest('[data-square]');
  if (!g) return;
  if (e.pointerType === 'mouse') e.preventDefault(); // no text selection, no focus change
  const name = g.dataset.square;
  const was = app.selected ? JSON.stringify(app.selected) : null;
  const dragging = dragSquare(name);
  const base = dragging && app.selected && app.selected.path ? app.selected.path.slice() : null;
  begin(e, { kind: 'square', from: name, dragging, was, base, piece: dragging ? pieceOn(current().page, app.lastPos && app.lastPos.pos, name) : null }, $('board'));
}

/** A right press on a square starts a shape, in the colour of the modifier keys held (and drops a
 * premove, as lishogi does). */
function startDrawing(e) {
  const g = e.target.closest && e.target.closest('[data-square]');
  if (drag || !g) return;
  e.preventDefault();
  cancelPremove();
  const from = g.dataset.square;
  app.drawing = { from, to: from, color: COLORS[(e.shiftKey || e.ctrlKey ? 1 : 0) + (e.altKey || e.metaKey ? 2 : 0)] };
  begin(e, { kind: 'draw' }, $('board'));
  drawShapes();
}

function onHandDown(e) {
  if (e.button !== 0 || drag) return;
  const b = e.target.closest && e.target.closest('[data-hand]');
  if (!b) return;
  if (e.pointerType === 'mouse') e.preventDefault();
  const [side, letter] = b.dataset.hand.split('-');
  const was = !!(app.selected && app.selected.hand === letter && b.classList.contains('selected'));
  const dragging = dragHand(side, letter);
  begin(e, { kind: 'hand', side, letter, dragging, was, base: null, piece: dragging ? { letter, color: side, promoted: false } : null }, e.currentTarget);
}

function onMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  if (drag.kind === 'draw') {
    const name = squareUnder(e.clientX, e.clientY);
    if (name && name !== app.drawing.to) {
      app.drawing.to = name;
      drawShapes();
    }
    return;
  }
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < SLOP) return;
  drag.moved = true;
  if (!drag.dragging) return;
  e.preventDefault();
  if (!drag.ghost) {
    drag.ghost = makeGhost(drag.piece);
    app.dragFrom = drag.kind === 'square' ? drag.from : null;
    const src = drag.kind === 'square' ? document.querySelector(`#board [data-square="${drag.from}"] .piece`) : null;
    if (src) src.classList.add('dragging');
  }
  moveGhost(e.clientX, e.clientY);
  const name = squareUnder(e.clientX, e.clientY);
  if (name && name !== drag.hover) {
    drag.hover = name;
    if (name !== drag.from || drag.visited.length) {
      drag.visited.push(name);
      dragOver(drag.base, drag.visited);
    }
  }
}

function finish() {
  if (drag && drag.ghost) drag.ghost.remove();
  app.dragFrom = null;
  const d = drag;
  drag = null;
  return d;
}

function onUp(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = finish();
  if (d.kind === 'draw') {
    const s = app.drawing;
    const to = squareUnder(e.clientX, e.clientY);
    app.drawing = null;
    if (to) toggleShape(s.from, to, s.color);
    else drawShapes();
    return;
  }
  if (!d.moved) {
    // A click: a press that selected a piece keeps it selected; any other is the click itself.
    if (d.kind === 'hand') {
      if (!d.dragging || d.was) clickHand(d.side, d.letter);
    } else if (d.dragging && d.base && d.base.length > 1) {
      // a press on the last stop of a route: the route stays, to be dragged on or clicked on
    } else if (!d.dragging || (d.was && d.was === JSON.stringify(app.selected))) {
      clickSquare(d.from);
      return;
    }
    // The selection made by the press is drawn now, not on the next frame.
    render();
    return;
  }
  if (!d.dragging) return;
  const name = squareUnder(e.clientX, e.clientY);
  // Back on its own square: the piece was put back.
  const back = name === d.from && d.kind === 'square' && !(d.base && d.visited.length > 1);
  dragDrop(back ? null : name, d.base || [], d.visited);
}

function onCancel(e) {
  if (!drag || e.pointerId !== drag.id) return;
  if (finish().kind === 'draw') {
    app.drawing = null;
    drawShapes();
  }
}

/** Listens to the board's and the hands' pointers (their elements stay; their contents are redrawn). */
export function initDrag() {
  $('board').addEventListener('pointerdown', onBoardDown);
  $('board').addEventListener('contextmenu', (e) => e.preventDefault());
  for (const id of ['hand-top', 'hand-bottom']) $(id).addEventListener('pointerdown', onHandDown);
  window.addEventListener('pointermove', onMove, { passive: false });
  window.addEventListener('pointerup', onUp);
  window.addEventListener('pointercancel', onCancel);
}
