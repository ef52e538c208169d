// The Embind glue: the only file that knows about Emscripten. It exposes the
// Engine class and the Reply value object to JS, and the per-change calls
// once more as plain exports (below), nothing else.
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>
#include <unistd.h>

#include <cstring>

#include "engine.h"
#include "test_abort.h"

using freshet::wasm::Engine;
using freshet::wasm::Reply;

namespace {

// A view of a prepared checkpoint blob in wasm memory (JS copies it at once).
emscripten::val checkpoint_blob(const Engine& engine, double index) {
  std::string_view blob = engine.checkpoint_blob(static_cast<size_t>(index));
  return emscripten::val(emscripten::typed_memory_view(blob.size(), reinterpret_cast<const uint8_t*>(blob.data())));
}

// The wasm memory's size: it only grows, so a leak shows as growth over time.
double wasm_memory_bytes() { return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536; }

// Writes zeros over the wasm memory above the heap's top (sbrk(0)), which
// no allocation holds, and returns how many bytes that was. Each page of it
// is then resident: a later big step that takes that memory pays no
// first-touch page fault per 4 KiB page for it (13-16 µs each on small VMs,
// ~0.3 µs on a usual machine). Zeros over memory that is zero or unowned:
// nothing reads a difference. It does not grow the memory. (warm_up.js)
double touch_free_memory() {
  // In 64 bits: a memory of the 4 GiB maximum ends at 2^32, which a 32-bit
  // uintptr_t would wrap to 0 (and then touch nothing).
  const uint64_t top = reinterpret_cast<uintptr_t>(sbrk(0));
  const uint64_t end = static_cast<uint64_t>(__builtin_wasm_memory_size(0)) * 65536;
  if (top >= end) return 0;
  std::memset(reinterpret_cast<void*>(static_cast<uintptr_t>(top)), 0, static_cast<size_t>(end - top));
  return static_cast<double>(end - top);
}

// The engine's address, for the plain exports below.
double engine_address(const Engine& engine) { return static_cast<double>(reinterpret_cast<uintptr_t>(&engine)); }

}  // namespace

// The per-change calls also as plain wasm exports, called with the engine's
// address (Engine.address()) by wasm-bindings/js/engine_fast_path.js: a call
// through Embind's invoker costs ~0.1-0.3 µs, a direct call to an export
// next to nothing, and a change makes three, and one more per connector
// written to (its acknowledgement) with one for all their writes.
extern "C" {
EMSCRIPTEN_KEEPALIVE double freshet_step(Engine* engine) {
  freshet::wasm::abort_if_armed(freshet::wasm::AbortPoint::kStep);
  return engine->step();
}
EMSCRIPTEN_KEEPALIVE double freshet_ingest_input(Engine* engine, double table, double bytes, double format, int array) {
  freshet::wasm::abort_if_armed(freshet::wasm::AbortPoint::kIngest);
  return engine->ingest_input(table, bytes, format, array != 0);
}
EMSCRIPTEN_KEEPALIVE double freshet_ingest_block_part(Engine* engine, double table, double bytes, double part,
                                                      double total_rows) {
  freshet::wasm::abort_if_armed(freshet::wasm::AbortPoint::kIngest);
  return engine->ingest_block_part(table, bytes, part, total_rows);
}
EMSCRIPTEN_KEEPALIVE double freshet_next_chunk_in_place(Engine* engine, double id) {
  return engine->next_chunk_in_place(id);
}
EMSCRIPTEN_KEEPALIVE double freshet_next_js_chunk_in_place(Engine* engine, double id) {
  return engine->next_js_chunk_in_place(id);
}
EMSCRIPTEN_KEEPALIVE double freshet_take_writes_in_place(Engine* engine) { return engine->take_writes_in_place(); }
EMSCRIPTEN_KEEPALIVE double freshet_acknowledge_connector(Engine* engine, double connector, double sequence_number) {
  return engine->acknowledge_connector(connector, sequence_number);
}
}

EMSCRIPTEN_BINDINGS(freshet) {
  emscripten::function("wasmMemoryBytes", &wasm_memory_bytes);
  emscripten::function("liveEngines", &Engine::live_engines);
  emscripten::function("touchFreeMemory", &touch_free_memory);

  emscripten::value_object<Reply>("Reply")
      .field("code", &Reply::code)
      .field("message", &Reply::message)
      .field("text", &Reply::text)
      .field("number", &Reply::number);

  emscripten::class_<Engine>("Engine")
      .constructor<>()
      .function("open", &Engine::open)
      .function("openWithOptions", &Engine::open_with_options)
      .function("replaceProgram", &Engine::replace_program)
      .function("describeProgram", &Engine::describe_program)
      .function("ingest", &Engine::ingest)
      .function("step", &Engine::step)
      .function("lastStepInputRecords", &Engine::last_step_input_records)
      .function("address", &engine_address)
      .function("exchangeAddress", &Engine::exchange_address)
      .function("inputBuffer", &Engine::input_buffer)
      .function("ingestInput", &Engine::ingest_input)
      .function("nextChunkInPlace", &Engine::next_chunk_in_place)
      .function("lastError", &Engine::last_error)
      .function("needsStep", &Engine::needs_step)
      .function("hasBufferedInput", &Engine::has_buffered_input)
      .function("canAutoStep", &Engine::can_auto_step)
      .function("setPaused", &Engine::set_paused)
      .function("setMemoryBudget", &Engine::set_memory_budget)
      .function("usesClock", &Engine::uses_clock)
      .function("setClock", &Engine::set_clock)
      .function("clock", &Engine::clock)
      .function("nextClockChange", &Engine::next_clock_change)
      .function("snapshot", &Engine::snapshot)
      .function("lookup", &Engine::lookup)
      .function("query", &Engine::query)
      .function("addOutput", &Engine::add_output)
      .function("removeOutput", &Engine::remove_output)
      .function("acknowledge", &Engine::acknowledge)
      .function("resetOutput", &Engine::reset_output)
      .function("openEgress", &Engine::open_egress)
      .function("closeEgress", &Engine::close_egress)
      .function("openNamedEgress", &Engine::open_named_egress)
      .function("closeNamedEgress", &Engine::close_named_egress)
      .function("nextChunk", &Engine::next_chunk)
      .function("completionStatus", &Engine::completion_status)
      .function("stats", &Engine::stats)
      .function("explain", &Engine::explain)
      .function("checkpointPrepare", &Engine::checkpoint_prepare)
      .function("checkpointBlob", &checkpoint_blob)
      .function("checkpointRelease", &Engine::checkpoint_release)
      .function("checkpointReadManifest", &Engine::checkpoint_read_manifest)
      .function("restoreAddPart", &Engine::restore_add_part)
      .function("restoreFinish", &Engine::restore_finish)
      .function("setHostState", &Engine::set_host_state)
      .function("hostState", &Engine::host_state)
      .class_function("checkpointBlobsToPrune", &Engine::checkpoint_blobs_to_prune)
      .class_function("nextCheckpointSequence", &Engine::next_checkpoint_sequence);
}
