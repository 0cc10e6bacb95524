// The engine, as the page sees it: one interface for whatever carries the protocol's messages
// (docs/serve.md). Two transports carry them: the WebSocket to the `tsubame serve` that served
// the page (webSocketTransport, below), and, in the static site (`tools/build-web`, whose page
// says `data-engine="worker"` on its root element), a Web Worker that runs the engine compiled
// to WebAssembly (workerTransport; docs/web.md). No module that uses this one knows which.

/**
 * What the page asks of an engine:
 *
 * - `connect()` opens the connection (again, after a close: the Reconnect button); after a
 *   dropped connection it tries again by itself, after a wait that doubles with each failed try,
 *   from 1 s up to 30 s; after an idle session closed by the engine it waits for `connect()`.
 * - `send(msg)` sends a message of the protocol (an object: `op` and its fields) with a new `id`,
 *   and returns that id; when not connected it returns null and shows an error instead.
 * - `on(op, handler)` registers the handler of the engine's messages of that `op`, called with
 *   the message (an object); the `op` `close` is called, with nothing, when the connection closed.
 * - `onStatus(listener)` has `listener` told each change of the connection, with one of
 *   `{state: 'connecting'}`, `{state: 'open'}`,
 *   `{state: 'closed', why: 'error', message}` (it could not even start; no retry),
 *   `{state: 'closed', why: 'idle'}` (the engine closed a session that sent nothing for a while;
 *   no retry) and `{state: 'closed', why: 'dropped', retryIn}` (told again each second while
 *   `retryIn`, the seconds left before the next try, counts down).
 *
 * A transport carries the messages as JSON text. It is made by a function `make(events)` that
 * starts connecting (or throws, with the reason, when it cannot) and reports through `events`:
 * `events.opened()` once messages can be sent, `events.message(text)` for each message that
 * comes, and `events.closed({idle})` once, when the connection is gone (`idle`: the engine ended
 * an idle session). It returns `{isOpen(), send(text)}`: whether a message can be sent now, and
 * sending one.
 */

import { showError } from './dom.js';

const handlers = {};
const statusListeners = [];

/** Seconds before the first automatic reconnection; each failed try doubles the wait. */
const RETRY_FIRST_S = 1;
/** The longest wait between two automatic reconnections. */
const RETRY_MAX_S = 30;
/** The wait before the next automatic try, and the timer counting it down. */
let retryS = RETRY_FIRST_S;
let countdown = null;
/** The transport of the connection in use (null before the first), and the next message's id. */
let transport = null;
let nextId = 1;

/** The transport of every connection: the Web Worker in the static site, else the WebSocket. */
const makeTransport =
  document.documentElement.dataset.engine === 'worker' ? workerTransport : webSocketTransport;

/** Registers the handler of the engine's messages of this `op` (`close`: the connection closed). */
export function on(op, handler) {
  handlers[op] = handler;
}

/** Has `listener` told each change of the connection's state. */
export function onStatus(listener) {
  statusListeners.push(listener);
}

function tell(status) {
  for (const listener of statusListeners) listener(status);
}

/** Opens the connection (again, after a close: by the Reconnect button, or by itself after a
 * wait that doubles with each failed try, from 1 s up to 30 s). */
export function connect() {
  clearInterval(countdown);
  tell({ state: 'connecting' });
  let made = null;
  const events = {
    opened() {
      retryS = RETRY_FIRST_S;
      tell({ state: 'open' });
    },
    message(text) {
      let msg;
      try {
        msg = JSON.parse(text);
      } catch (e) {
        showError('unreadable message from the server');
        return;
      }
      const handler = handlers[msg.op];
      if (handler) handler(msg);
    },
    closed(why) {
      if (transport !== made) return;
      if (why.idle) offerReconnect();
      else scheduleRetry();
      if (handlers.close) handlers.close();
    },
  };
  try {
    made = makeTransport(events);
  } catch (e) {
    tell({ state: 'closed', why: 'error', message: e.message });
    return;
  }
  transport = made;
}

/** Says that the engine closed an idle session, without trying again by itself (a tab left open
 * would otherwise take its place back at once). */
function offerReconnect() {
  clearInterval(countdown);
  retryS = RETRY_FIRST_S;
  tell({ state: 'closed', why: 'idle' });
}

/** Says that the connection closed, and tries again by itself after a wait. */
function scheduleRetry() {
  clearInterval(countdown);
  let left = retryS;
  retryS = Math.min(retryS * 2, RETRY_MAX_S);
  tell({ state: 'closed', why: 'dropped', retryIn: left });
  countdown = setInterval(() => {
    left -= 1;
    if (left > 0) tell({ state: 'closed', why: 'dropped', retryIn: left });
    else connect();
  }, 1000);
}

/** Sends a message with a new id and returns the id, or null (and says so) when not connected. */
export function send(obj) {
  if (!transport || !transport.isOpen()) {
    showError('not connected to the server');
    return null;
  }
  const id = nextId++;
  transport.send(JSON.stringify(Object.assign({ id }, obj)));
  return id;
}

// ------------------------------------------------------------------ the WebSocket transport

/** The close code of a session the server ended because the page sent nothing for a while
 * (`tsubame serve --idle-timeout`). */
const IDLE_CLOSE_CODE = 4000;

/** The WebSocket to the `tsubame serve` that served the page (`/ws`). */
function webSocketTransport(events) {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
  const ws = new WebSocket(url);
  ws.onopen = () => events.opened();
  ws.onmessage = (ev) => events.message(ev.data);
  ws.onclose = (ev) => events.closed({ idle: ev.code === IDLE_CLOSE_CODE });
  return {
    isOpen: () => ws.readyState === WebSocket.OPEN,
    send: (text) => ws.send(text),
  };
}

// ------------------------------------------------------------------ the Web Worker transport

/** The ops of the messages that end the engine's running search. */
const ENDS_SEARCH = ['go', 'mate', 'stop'];

/** The engine in a Web Worker (js/worker.js, beside this module), for the static site. Where the
 * page is cross-origin isolated the page and the worker share a count of the messages that end a
 * search, so that the worker's search ends the moment one is sent; elsewhere the worker runs an
 * analysis in slices and reads the page's messages between them. */
function workerTransport(events) {
  if (typeof Worker === 'undefined' || typeof WebAssembly === 'undefined') {
    throw new Error('this browser cannot run the engine (it has no Web Worker or WebAssembly)');
  }
  const worker = new Worker(new URL('worker.js', import.meta.url));
  const shared = self.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
  let count = 0;
  let open = false;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    open = false;
    worker.terminate();
    events.closed({ idle: false });
  };
  worker.onmessage = (ev) => {
    const d = ev.data;
    if (d.opened) {
      open = true;
      events.opened();
    } else if (typeof d.text === 'string') {
      events.message(d.text);
    } else if (d.failed) {
      showError(d.failed);
      close();
    }
  };
  worker.onerror = (ev) => {
    showError('the engine stopped: ' + (ev.message || 'an error in its worker'));
    close();
  };
  worker.postMessage({ init: { shared: shared && shared.buffer } });
  return {
    isOpen: () => open,
    send(text) {
      let op = null;
      try {
        op = JSON.parse(text).op;
      } catch (e) {
        // Sent as it is: the engine refuses it.
      }
      if (ENDS_SEARCH.includes(op)) {
        count += 1;
        if (shared) Atomics.store(shared, 0, count);
      }
      worker.postMessage({ text, count });
    },
  };
}
