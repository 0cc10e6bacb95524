// The WebSocket to `tsubame serve` (docs/serve.md): connecting, sending, and handing each message
// to the handler registered for its `op`.

import { $, showError } from './dom.js';
import { app } from './state.js';

const handlers = {};

/** Seconds before the first automatic reconnection; each failed try doubles the wait. */
const RETRY_FIRST_S = 1;
/** The longest wait between two automatic reconnections. */
const RETRY_MAX_S = 30;
/** The close code of a session the server ended because the page sent nothing for a while
 * (`tsubame serve --idle-timeout`): the page waits for Reconnect instead of trying by itself. */
const IDLE_CLOSE_CODE = 4000;
/** The wait before the next automatic try, and the timer counting it down. */
let retryS = RETRY_FIRST_S;
let countdown = null;

/** Registers the handler of the server's messages of this `op` (`close`: the socket closed). */
export function on(op, handler) {
  handlers[op] = handler;
}

/** Opens the WebSocket (again, after a close: by the Reconnect button, or by itself after a
 * wait that doubles with each failed try, from 1 s up to 30 s). */
export function connect() {
  clearInterval(countdown);
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
    retryS = RETRY_FIRST_S;
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
    const handler = handlers[msg.op];
    if (handler) handler(msg);
  };
  ws.onclose = (ev) => {
    if (app.ws !== ws) return;
    app.connected = false;
    if (ev.code === IDLE_CLOSE_CODE) offerReconnect();
    else scheduleRetry();
    if (handlers.close) handlers.close();
  };
}

/** Says that the server closed an idle session and offers Reconnect, without trying by itself
 * (a tab left open would otherwise take its place back at once). */
function offerReconnect() {
  clearInterval(countdown);
  retryS = RETRY_FIRST_S;
  setConnection('closed', 'closed by the server after a while without use: press Reconnect ' +
    '(the game on the page is kept)');
  $('reconnect').hidden = false;
}

/** Says that the connection closed, offers Reconnect, and tries again by itself after a wait. */
function scheduleRetry() {
  clearInterval(countdown);
  let left = retryS;
  retryS = Math.min(retryS * 2, RETRY_MAX_S);
  const say = () =>
    setConnection('closed', `connection closed: reconnecting in ${left} s, or press Reconnect ` +
      '(the game on the page is kept)');
  say();
  $('reconnect').hidden = false;
  countdown = setInterval(() => {
    left -= 1;
    if (left > 0) say();
    else connect();
  }, 1000);
}

function setConnection(state, text) {
  const el = $('connection');
  el.dataset.state = state;
  el.textContent = text;
  if (state !== 'closed') $('reconnect').hidden = true;
}

/** Sends a message with a new id and returns the id, or null (and says so) when not connected. */
export function send(obj) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError('not connected to the server');
    return null;
  }
  const id = app.nextId++;
  app.ws.send(JSON.stringify(Object.assign({ id }, obj)));
  return id;
}
