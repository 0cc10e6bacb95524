// The chooser: when several legal moves join the squares clicked (promote or not, the face a
// piece is dropped as), the page asks which.

import { $ } from './dom.js';
import { app } from './state.js';
import { dropLetter, pieceInfo, pieceLabel } from './position.js';
import { focusBoard } from './board.js';
import { playMove } from './play.js';
import { render } from './view.js';

/** Asks which of these moves to play. */
export function choose(page, moves) {
  const box = $('chooser');
  box.textContent = '';
  const label = document.createElement('span');
  label.textContent = moves.every((m) => dropLetter(m)) ? 'Drop as: ' : 'Promote? ';
  box.appendChild(label);
  for (const m of moves) {
    const b = document.createElement('button');
    const drop = dropLetter(m);
    b.dataset.move = m;
    if (drop) {
      const info = pieceInfo(page, drop);
      const shown = pieceLabel(page, drop);
      b.textContent = shown.text + ' (' + (info ? info.name : drop) + ')';
    } else {
      b.textContent = m.endsWith('+') ? 'promote' : 'do not promote';
    }
    b.dataset.choice = m.endsWith('+') ? 'promote' : drop || 'stay';
    b.addEventListener('click', (e) => {
      hideChooser();
      playMove(m);
      if (e.detail === 0) focusBoard();
    });
    box.appendChild(b);
  }
  const cancel = document.createElement('button');
  cancel.textContent = 'cancel';
  cancel.dataset.choice = 'cancel';
  cancel.addEventListener('click', (e) => {
    hideChooser();
    app.selected = null;
    render();
    if (e.detail === 0) focusBoard();
  });
  box.appendChild(cancel);
  box.hidden = false;
}

/** Hides the chooser. */
export function hideChooser() {
  $('chooser').hidden = true;
}
