// Feeds USI lines to tsubame's WebAssembly build (web/, tsubame_web.wasm) and prints what it
// answers, as the native engine would on stdout. Plain node (no packages):
//
//   node engine-tests/web/run_wasm.mjs path/to/tsubame_web.wasm < commands.txt
//
// Each line of standard input is one call of the module's `tsubame_usi` export; the module runs
// a search inside the call, so every `go` has answered when its call returns. After `quit` the
// module makes a fresh engine at the next line (the tests start each search afresh so). The
// module's one import is `env.tsubame_now_ms`, the clock (performance.now()).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const path = process.argv[2];
if (!path) {
  process.stderr.write("usage: node run_wasm.mjs TSUBAME_WEB.wasm < usi-lines\n");
  process.exit(2);
}
const { instance } = await WebAssembly.instantiate(readFileSync(path), {
  env: { tsubame_now_ms: () => performance.now() },
});
const wasm = instance.exports;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// One USI line in, the engine's reply out.
function usi(line) {
  const bytes = encoder.encode(line);
  const ptr = wasm.tsubame_alloc(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  const reply = wasm.tsubame_usi(ptr, bytes.length);
  const len = wasm.tsubame_reply_len();
  // Read the memory only now: the call may have grown it (a new buffer).
  const text = decoder.decode(new Uint8Array(wasm.memory.buffer, reply, len));
  wasm.tsubame_free(ptr, bytes.length);
  return text;
}

const input = readFileSync(0, "utf8");
for (const line of input.split("\n")) {
  if (line.trim() === "") continue;
  process.stdout.write(usi(line.replace(/\r$/, "")));
}
