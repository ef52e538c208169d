// A test-only fault: the engine aborts (as on a failed allocation or a
// broken invariant) at the next step or ingest once a test armed it. Tests
// reach it through wasm-bindings/js/engine_guard.js's armEngineAbort(),
// which neither index.js nor index.d.ts exports (and the package's exports
// map allows no deep import); the edge worker only when a test var asks.
#pragma once

namespace freshet::wasm {

enum class AbortPoint : int { kNone = 0, kStep = 1, kIngest = 2 };

//! Aborts (Emscripten's abort(): a RuntimeError in JS) when `point` is armed.
void abort_if_armed(AbortPoint point);

}  // namespace freshet::wasm

extern "C" {
//! Arms the abort at `point` (AbortPoint as an int; 0 disarms).
void freshet_test_arm_abort(int point);
}
