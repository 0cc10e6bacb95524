// The pieces in hand of each side, above and below the board (hidden for a game without hands);
// a piece in hand is clicked to drop it.

import { $ } from './dom.js';
import { app, otherSide } from './state.js';
import { familyOf } from './board.js';
import { clickHand } from './input.js';
import { bottomSide } from './view.js';

/** Draws both hands of the position `pos` (null: empty) with the server's state `st`. */
export function drawHands(page, pos, st) {
  const bottom = bottomSide();
  for (const [id, side] of [['hand-top', otherSide(bottom)], ['hand-bottom', bottom]]) {
    const box = $(id);
    box.textContent = '';
    box.dataset.side = side;
    if (!page.hands) {
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
      b.title = familyOf(page).handTitle(page, letter);
      b.addEventListener('click', () => clickHand(side, letter));
      box.appendChild(b);
    }
  }
}
