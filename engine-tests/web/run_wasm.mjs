// Feeds lines to tsubame's WebAssembly build (web/, tsubame_web.wasm) and prints what it answers.
// Plain node (no packages):
//
//   node engine-tests/web/run_wasm.mjs [--page] [--network FILE] path/to/tsubame_web.wasm < lines
//
// Without --page each line of standard input is one call of the module's `tsubame_usi` export
// (USI), and the engine's reply is printed as the native engine would print it on stdout. With
// --page each line is one message of the page's protocol (JSON, as on `tsubame serve`'s
// WebSocket) for `tsubame_page`, and every message the module emits is printed on a line of its
// own. --network gives the module a network file first (`tsubame_network`: the shogi network,
// which the browser build leaves out). The module runs a search inside the call, so every `go`
// has answered when its call returns; after `quit` the module makes a fresh USI engine at the
// next line (the tests start each search afresh so). The module's imports: `env.tsubame_now_ms`,
// the clock (performance.now()); `env.tsubame_interrupted`, never here; `env.tsubame_emit`, a
// page message.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
let page = false;
let network = null;
while (args.length > 1) {
  if (args[0] === "--page") {
    page = true;
    args.shift();
  } else if (args[0] === "--network") {
    network = args[1];
    args.splice(0, 2);
  } else {
    break;
  }
}
const path = args[0];
if (!path || args.length !== 1) {
  process.stderr.write("usage: node run_wasm.mjs [--page] [--network FILE] TSUBAME_WEB.wasm < lines\n");
  process.exit(2);
}
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let wasm = null;
const { instance } = await WebAssembly.instantiate(readFileSync(path), {
  env: {
    tsubame_now_ms: () => performance.now(),
    tsubame_interrupted: () => 0,
    tsubame_emit: (ptr, len) => {
      process.stdout.write(decoder.decode(new Uint8Array(wasm.memory.buffer, ptr, len)) + "\n");
    },
  },
});
wasm = instance.exports;

// Calls `f(ptr, len)` with `bytes` copied into the module's memory.
function withBytes(bytes, f) {
  const ptr = wasm.tsubame_alloc(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  try {
    return f(ptr, bytes.length);
  } finally {
    wasm.tsubame_free(ptr, bytes.length);
  }
}

// The module's last reply. Read the memory only now: a call may have grown it (a new buffer).
function reply(start) {
  return decoder.decode(new Uint8Array(wasm.memory.buffer, start, wasm.tsubame_reply_len()));
}

if (network) {
  const status = withBytes(readFileSync(network), (p, n) => wasm.tsubame_network(p, n));
  if (status !== 0) {
    process.stderr.write(`network ${network} refused: ${reply(wasm.tsubame_reply())}\n`);
    process.exit(1);
  }
}
const input = readFileSync(0, "utf8");
for (const line of input.split("\n")) {
  if (line.trim() === "") continue;
  const bytes = encoder.encode(line.replace(/\r$/, ""));
  if (page) withBytes(bytes, (p, n) => wasm.tsubame_page(p, n));
  else process.stdout.write(reply(withBytes(bytes, (p, n) => wasm.tsubame_usi(p, n))));
}
