// The pieces in hand of each side, above and below the board (hidden for a game without hands);
// a piece in hand is clicked (or dragged) to drop it. Pointer presses are read by drag.js, the
// keyboard's Enter and Space by input.js.

import { $ } from './dom.js';
import { app, bottomSide, otherSide, sideName } from './state.js';
import { familyOf } from './board.js';
import { pieceInfo, pieceLabel } from './position.js';

/** Draws both hands of the position `pos` (null: empty) with the server's state `st`. */
export function drawHands(page, pos, st) {
  const bottom = bottomSide();
  for (const [id, side] of [['hand-top', otherSide(bottom)], ['hand-bottom', bottom]]) {
    const box = $(id);
    // The buttons are kept from one drawing to the next (a pressed one stays the same element).
    const old = new Map(Array.from(box.querySelectorAll('[data-hand]')).map((b) => [b.dataset.hand, b]));
    for (const el of Array.from(box.children)) if (!el.dataset.hand) el.remove();
    box.dataset.side = side;
    if (!page.hands) {
      box.textContent = '';
      box.hidden = true;
      continue;
    }
    box.hidden = false;
    const label = document.createElement('span');
    label.className = 'hand-label';
    label.textContent = (side === 'b' ? '☗ Black' : '☖ White') + ' in hand:';
    box.prepend(label);
    const hand = pos ? pos.hands[side] : [];
    if (!hand.length) {
      const none = document.createElement('span');
      none.className = 'hand-empty';
      none.textContent = ' none';
      box.appendChild(none);
    }
    const keep = new Set();
    for (const [letter, count] of hand) {
      const tag = side + '-' + letter;
      keep.add(tag);
      let b = old.get(tag);
      if (!b) {
        b = document.createElement('button');
        b.className = 'hand-piece';
        b.dataset.hand = tag;
      }
      const shown = pieceLabel(page, letter);
      b.textContent = shown.text;
      b.classList.toggle('piece-kanji', shown.kanji);
      if (count > 1) {
        const sub = document.createElement('sub');
        sub.textContent = count;
        b.appendChild(sub);
      }
      const selected = !!(app.selected && app.selected.hand === letter && st && (st.side === side) !== !!app.selected.pre);
      b.classList.toggle('selected', selected);
      const info = pieceInfo(page, letter);
      b.setAttribute('aria-label', sideName(side) + "'s " + (info ? info.name : letter) + ' in hand' +
        (count > 1 ? ', ' + count : '') + (selected ? ', selected' : ''));
      b.title = familyOf(page).handTitle(page, letter);
      box.appendChild(b);
    }
    for (const [tag, b] of old) if (!keep.has(tag)) b.remove();
  }
}
