// The engine of the static site: tsubame's WebAssembly build (web/, `tsubame.wasm` beside the
// page) in a Web Worker, answering the page's protocol (docs/serve.md) as `tsubame serve` does on
// its WebSocket. The page's connection.js talks to it (its worker transport); docs/web.md is the
// design.
//
// Messages from the page: `{init: {shared}}` once (`shared`: a SharedArrayBuffer of one Int32, the
// page's count of the messages that end a search, where the page is cross-origin isolated; else
// null), then `{text, count}` for each message of the protocol (`count`: the page's count when
// it sent it). To the page: `{opened: true}` once the engine runs (its `hello` follows as a
// message), `{text}` for each message of the engine, `{failed: reason}` when the engine cannot
// start.
//
// A search runs inside a call of the module, so the worker reads no message while it runs. It
// ends early when the module asks `tsubame_interrupted` and the answer is yes:
// - with the shared count, at once when the page sends a message that ends it (`go`, `mate`,
//   `stop`): the count then differs from the one the search started at;
// - an analysis (`go` with `infinite`) runs in slices: each slice is a search that ends after
//   SLICE_MS (doubling up to SLICE_MAX_MS), its bestmove kept back, and between slices the worker
//   reads the page's messages; with none that ends the analysis, the next slice searches the same
//   position again, its table kept, so that it is past the depth the last one reached within
//   moments (the info lines of depths already shown are not sent again). Stop is answered within
//   a slice even where the page is not isolated.
//
// A game whose network the module leaves out (`tsubame_wants_network`: shogi's, 12 MB) has it
// fetched (`GAME.nnue` beside the page) when the page first names the game, kept in the
// browser's cache (Cache API) and given to the module before the game's first search; until then,
// or if it cannot be had, the game is played with its hand-written evaluation (the page is told).

'use strict';

/** The first slice of an analysis, and the longest, in milliseconds. */
const SLICE_MS = 200;
const SLICE_MAX_MS = 1600;
/** A module of one function that uses WebAssembly's SIMD: valid where the browser has it. */
const SIMD_PROBE = new Uint8Array([
  0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // magic, version
  1, 5, 1, 0x60, 0, 1, 0x7b, // a type: () -> v128
  3, 2, 1, 0, // one function of it
  0x0a, 0x16, 1, 0x14, 0, 0xfd, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b, // v128.const 0
]);
/** The module, beside the page (one folder up from this script): the build with SIMD, or the
 * one without where the browser has none. */
const MODULE_URL = new URL(
  WebAssembly.validate(SIMD_PROBE) ? '../tsubame.wasm' : '../tsubame-scalar.wasm',
  self.location.href,
).href;
/** The Cache API's store for the network. */
const CACHE_NAME = 'tsubame-networks';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

let wasm = null;
/** The page's count of messages that end a search (null: not isolated), and the count the
 * running search started at. */
let shared = null;
let searchCount = 0;
/** The end of the running slice (performance.now()), and whether the module was told to end the
 * search because the slice was over. */
let sliceEnd = Infinity;
let sliceCut = false;
/** The page's messages not yet carried out, and whether they are being carried out. */
const queue = [];
let pumping = false;
/** The analysis running in slices: its message, its slice length, the deepest depth shown per
 * line (multipv), and its last bestmove kept back. */
let analysis = null;
/** The networks' fetches by game (a promise of true once the module has the network, false if it
 * cannot be had), each started when the page first names its game. */
const networks = new Map();

/** A message of the protocol to the page. */
function send(text) {
  postMessage({ text });
}

/** The engine's message: forwarded, less what a slice of an analysis must not say. */
function emitted(ptr, len) {
  const text = decoder.decode(new Uint8Array(wasm.memory.buffer, ptr, len));
  if (analysis) {
    const msg = JSON.parse(text);
    if (msg.op === 'bestmove' && sliceCut) {
      analysis.best = text;
      return;
    }
    if (msg.op === 'info' && typeof msg.depth === 'number') {
      const line = msg.multipv || 1;
      if (msg.depth <= (analysis.shown[line] || 0)) return;
      analysis.shown[line] = msg.depth;
    }
  }
  send(text);
}

/** The module's question: end the running search now? */
function interrupted() {
  if (shared && Atomics.load(shared, 0) !== searchCount) return 1;
  if (performance.now() >= sliceEnd) {
    sliceCut = true;
    return 1;
  }
  return 0;
}

/** Calls `f(ptr, len)` with `bytes` copied into the module's memory. */
function withBytes(bytes, f) {
  const ptr = wasm.tsubame_alloc(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  try {
    return f(ptr, bytes.length);
  } finally {
    wasm.tsubame_free(ptr, bytes.length);
  }
}

/** Runs one call of the module's page entry with `text`. */
function call(text) {
  withBytes(encoder.encode(text), (p, n) => wasm.tsubame_page(p, n));
}

async function start() {
  try {
    const imports = {
      env: {
        tsubame_now_ms: () => performance.now(),
        tsubame_interrupted: interrupted,
        tsubame_emit: emitted,
      },
    };
    const response = fetch(MODULE_URL);
    let made;
    try {
      made = await WebAssembly.instantiateStreaming(response, imports);
    } catch (e) {
      // A host that serves .wasm without its type: compile the bytes instead.
      const bytes = await (await fetch(MODULE_URL)).arrayBuffer();
      made = await WebAssembly.instantiate(bytes, imports);
    }
    wasm = made.instance.exports;
  } catch (e) {
    postMessage({ failed: 'cannot start the engine (' + MODULE_URL + '): ' + e.message });
    return;
  }
  postMessage({ opened: true });
  wasm.tsubame_page_open();
  pump();
}

/** The URL of a game's network, beside the page. */
function networkUrl(game) {
  return new URL('../' + encodeURIComponent(game) + '.nnue', self.location.href).href;
}

/** A network's bytes: from the browser's cache, else fetched (and cached). */
async function networkBytes(url) {
  let cache = null;
  try {
    cache = await caches.open(CACHE_NAME);
    const hit = await cache.match(url);
    if (hit) return await hit.arrayBuffer();
  } catch (e) {
    cache = null; // No Cache API here (an insecure origin): the HTTP cache only.
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error('HTTP ' + response.status);
  if (cache) await cache.put(url, response.clone()).catch(() => {});
  return await response.arrayBuffer();
}

/** The fetch of `game`'s network when the module wants one (started once), else null. */
function fetchNetwork(game) {
  if (networks.has(game)) return networks.get(game);
  const name = encoder.encode(game);
  if (withBytes(name, (p, n) => wasm.tsubame_wants_network(p, n)) === 0) {
    networks.set(game, null);
    return null;
  }
  const url = networkUrl(game);
  const fetching = networkBytes(url)
    .then((bytes) => {
      const status = withBytes(new Uint8Array(bytes), (p, n) => wasm.tsubame_network(p, n));
      if (status !== 0) {
        const len = wasm.tsubame_reply_len();
        throw new Error(decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.tsubame_reply(), len)));
      }
      return true;
    })
    .catch((e) => {
      send(JSON.stringify({
        op: 'error',
        message: 'the network of ' + game + ' (' + url + ') could not be had: ' + e.message +
          '; ' + game + ' is played with its hand-written evaluation',
      }));
      return false;
    });
  networks.set(game, fetching);
  return fetching;
}

/** Whether a message of the page ends the running search. */
function endsSearch(op) {
  return op === 'go' || op === 'mate' || op === 'stop';
}

/** Carries out the page's messages in order; an analysis goes on in slices between them. */
async function pump() {
  if (pumping || !wasm) return;
  pumping = true;
  try {
    while (queue.length > 0) {
      const { text, count } = queue.shift();
      let msg = null;
      try {
        msg = JSON.parse(text);
      } catch (e) {
        // The module answers it (malformed JSON).
      }
      const op = msg && msg.op;
      if (analysis && endsSearch(op)) {
        // Its answer, as when `tsubame serve` stops a search for the next: the last slice's, or,
        // before any slice ended, that of a search of the position ended at once.
        const { best, text: asked } = analysis;
        analysis = null;
        if (best) {
          send(best);
        } else {
          sliceEnd = performance.now();
          call(asked);
          sliceEnd = Infinity;
        }
      }
      if (msg && typeof msg.game === 'string') {
        const fetching = fetchNetwork(msg.game);
        if (fetching && (op === 'go' || op === 'mate')) await fetching;
      }
      if (endsSearch(op)) searchCount = count;
      if (op === 'go' && msg.limits && msg.limits.infinite === true) {
        analysis = { text, slice: SLICE_MS, shown: {}, best: null };
        continue;
      }
      sliceEnd = Infinity;
      sliceCut = false;
      call(text);
    }
    if (analysis) runSlice();
  } finally {
    pumping = false;
  }
  if (analysis) setTimeout(() => pump(), 0);
}

/** One slice of the running analysis. */
function runSlice() {
  const a = analysis;
  sliceCut = false;
  sliceEnd = performance.now() + a.slice;
  a.slice = Math.min(a.slice * 2, SLICE_MAX_MS);
  call(a.text);
  sliceEnd = Infinity;
  if (!sliceCut) {
    // It ended by itself (the game's end, the depth limit) or by the page's count: its bestmove
    // was sent.
    analysis = null;
  }
}

onmessage = (ev) => {
  const d = ev.data;
  if (d.init) {
    shared = d.init.shared ? new Int32Array(d.init.shared) : null;
    start();
    return;
  }
  queue.push(d);
  pump();
};
