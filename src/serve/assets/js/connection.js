// The WebSocket to `tsubame serve` (docs/serve.md): connecting, sending, and handing each message
// to the handler registered for its `op`.

import { $, showError } from './dom.js';
import { app } from './state.js';

const handlers = {};

/** Registers the handler of the server's messages of this `op` (`close`: the socket closed). */
export function on(op, handler) {
  handlers[op] = handler;
}

/** Opens the WebSocket (again, after a close). */
export function connect() {
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
    const handler = handlers[msg.op];
    if (handler) handler(msg);
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.connected = false;
    setConnection('closed', 'connection closed: press Reconnect (the game on the page is kept)');
    $('reconnect').hidden = false;
    if (handlers.close) handlers.close();
  };
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
