// The Embind glue: the only file that knows about Emscripten. It exposes the
// Engine class and the Reply value object to JS, nothing else.
#include <emscripten/bind.h>

#include "engine.h"

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

}  // namespace

EMSCRIPTEN_BINDINGS(freshet) {
  emscripten::function("wasmMemoryBytes", &wasm_memory_bytes);
  emscripten::function("liveEngines", &Engine::live_engines);

  emscripten::value_object<Reply>("Reply")
      .field("code", &Reply::code)
      .field("message", &Reply::message)
      .field("text", &Reply::text)
      .field("number", &Reply::number);

  emscripten::class_<Engine>("Engine")
      .constructor<>()
      .function("open", &Engine::open)
      .function("describeProgram", &Engine::describe_program)
      .function("ingest", &Engine::ingest)
      .function("step", &Engine::step)
      .function("lastStepInputRecords", &Engine::last_step_input_records)
      .function("exchangeAddress", &Engine::exchange_address)
      .function("inputBuffer", &Engine::input_buffer)
      .function("ingestInput", &Engine::ingest_input)
      .function("nextChunkInPlace", &Engine::next_chunk_in_place)
      .function("lastError", &Engine::last_error)
      .function("needsStep", &Engine::needs_step)
      .function("canAutoStep", &Engine::can_auto_step)
      .function("setPaused", &Engine::set_paused)
      .function("snapshot", &Engine::snapshot)
      .function("lookup", &Engine::lookup)
      .function("addOutput", &Engine::add_output)
      .function("removeOutput", &Engine::remove_output)
      .function("acknowledge", &Engine::acknowledge)
      .function("resetOutput", &Engine::reset_output)
      .function("takeWrites", &Engine::take_writes)
      .function("openEgress", &Engine::open_egress)
      .function("closeEgress", &Engine::close_egress)
      .function("nextChunk", &Engine::next_chunk)
      .function("completionStatus", &Engine::completion_status)
      .function("stats", &Engine::stats)
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
