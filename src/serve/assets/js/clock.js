// The clocks of a game played on time (byoyomi or Fischer increment): kept by the page, sent
// with each of the engine's searches, and flagged when a side runs out (view.js draws them).

import { $ } from './dom.js';
import { app, emit, sideName } from './state.js';
import { cancelSearch } from './search.js';

/** Sets both clocks from the settings (no clock unless the limit is a clock). */
export function resetClock() {
  const kind = $('limit-kind').value;
  if (kind !== 'byoyomi' && kind !== 'fischer') {
    app.clock = null;
    emit('clock');
    return;
  }
  const main = Math.max(0, Number($('clock-main').value) || 0) * 1000;
  const extra = Math.max(0, Number($('clock-extra').value) || 0) * 1000;
  app.clock = { mode: kind, b: main, w: main, extra, used: 0, side: null, since: 0, flag: null };
  emit('clock');
}

/** Charges the thinking time since the last update to the side whose clock runs. */
export function clockUpdate() {
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

/** A side has moved: its clock stops (and gains the increment). */
export function clockMoved(side) {
  const c = app.clock;
  if (!c) return;
  clockUpdate();
  if (c.mode === 'fischer' && c.side === side) c[side] += c.extra;
  if (c[side] < 0) c[side] = 0;
  c.side = null;
}

/** Starts the clock of the side to move when the shown position is the game's last and open. */
export function clockRun(st) {
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

/** Ends the game of a side out of time, once: true when it did (its search stops). */
export function flagFall() {
  const c = app.clock;
  if (!c || !c.flag || app.note) return false;
  app.note = sideName(c.flag) + ' lost on time';
  app.noteResult = { winner: c.flag === 'b' ? 'w' : 'b', reason: 'time' };
  cancelSearch();
  return true;
}
