// Engine: the narrow facade over one core Pipeline that JS drives through
// Embind (bindings.cpp). Every call returns a value — a Reply, a number, a
// bool or a JSON text — never throws, and moves rows in bulk: JSON text (or
// bytes) in, JSON text encoded by the core out, one call per ingest, step or
// chunk and never one per row.
//
// The calls made once per change (ingest, step, next_chunk) return a plain
// number or string and leave a failure in last_error(): Embind turns a Reply
// into a JS object with three strings, which costs more than the call itself
// (~0.75 µs), and the per-change budget is a few microseconds.
//
// It holds no policy: when to step, retries, lag and lifetimes are the JS
// layer's job (wasm-bindings/js/). Output connectors are JsSinks whose writes
// JS collects with take_writes_in_place() and confirms with acknowledge().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/checkpoint/checkpoint_format.h"
#include "freshet/pipeline/pipeline.h"
#include "js_sink.h"
#include "reply.h"

namespace freshet::wasm {

class Engine {
 public:
  Engine() { ++live_engines_; }
  ~Engine() { --live_engines_; }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  //! Engines not yet deleted: JS must delete() every one (tests check it).
  static int live_engines() { return live_engines_; }

  //! Compiles `sql` and starts an empty pipeline (SQL_ERROR names line and column).
  Reply open(const std::string& sql);
  //! As open, with the program's runtime error mode ("fail" | "null"; ""
  //! is "fail") and error_view's retention in rows (< 0: the default).
  Reply open_with_options(const std::string& sql, const std::string& on_runtime_error, double error_view_retention);
  //! Replaces the program in place (Pipeline::replace_program: views kept
  //! keep their state and streams; new, changed and failed ones are
  //! bootstrapped). Answers {"rebuilt_views":[...],"restored_operators":n,
  //! "rebuilt_operators":n}; on error the old program runs on.
  Reply replace_program(const std::string& sql);
  //! The program's description (sql/program_description.h) as JSON: the
  //! package's `p.program`, and what JS shapes rows and keys by.
  Reply describe_program() const;

  //! Parses and buffers `data`; returns the completion token, or -1 with
  //! last_error() set. format: "json" | "csv"; update_format: "insert_delete" | "raw".
  double ingest(const std::string& table, const std::string& data, const std::string& format,
                const std::string& update_format, bool array);
  //! Runs one step; returns its number, or -1 with last_error() set.
  double step();
  //! Input records the last step took (also at exchange slot kStepInputRecords).
  double last_step_input_records() const { return exchange_[kStepInputRecords]; }
  //! Why the last ingest(), step() or next_chunk() failed (code "" when it did not).
  Reply last_error() const { return last_error_; }
  bool needs_step() const;
  //! Input is buffered for the next step (not a pending snapshot alone).
  bool has_buffered_input() const;
  bool can_auto_step() const;
  void set_paused(bool paused);
  //! Pipeline::set_memory_budget (bytes as a double: a budget past 4 GiB is none).
  void set_memory_budget(double bytes);

  //! Whether some view reads NOW() (JS then gives each step its time).
  bool uses_clock() const;
  //! Sets the time of the following steps, microseconds since 1970-01-01
  //! UTC (Pipeline::set_clock: held when behind the last step's).
  void set_clock(double micros);
  //! The last step's time in microseconds; -1 before any step or without NOW().
  double clock() const;
  //! When some view next changes with no input (a row enters or leaves a
  //! temporal filter), in microseconds; -1 when nothing is pending.
  double next_clock_change() const;

  //! text = the rows of a materialized view, a JSON array of objects.
  Reply snapshot(const std::string& view) const;
  //! `key_json` is one JSON object with the index's key columns; text = the rows.
  Reply lookup(const std::string& index, const std::string& key_json) const;
  //! An ad-hoc SELECT over the materialized views and tables (engine_query.cpp);
  //! text = `{"columns":[...],"rows":[...]}`, rows in ORDER BY order.
  //! The limits (QueryLimits' result rows and bytes, work rows and bytes)
  //! are numbers from JS; 0 keeps the engine's default.
  Reply query(const std::string& sql, double max_rows = 0, double max_bytes = 0, double max_work_rows = 0,
              double max_work_bytes = 0) const;

  //! number = 1 when a checkpointed connector of this name had another
  //! configuration: it starts afresh and JS must wipe its destination first.
  //! `connector`: the number JS gives this connector, which its writes carry
  //! and acknowledge_connector() takes (JS never reuses one).
  Reply add_output(const std::string& name, const std::string& view, const std::string& index, bool send_snapshot,
                   bool resettable, const std::string& description, double connector = 0);
  Reply remove_output(const std::string& name);
  Reply acknowledge(const std::string& name, double sequence_number);
  Reply reset_output(const std::string& name);

  //! number = the stream's id. on_lag: "block" | "coalesce" | "drop".
  Reply open_egress(const std::string& view, const std::string& index, bool send_snapshot, double max_queued_chunks,
                    const std::string& on_lag);
  Reply close_egress(double id);
  //! Pipeline::open_named_egress; resume_after < 0: none; retention_* < 0: the default.
  Reply open_named_egress(const std::string& name, const std::string& view, const std::string& index,
                          bool send_snapshot, double max_queued_chunks, const std::string& on_lag,
                          double resume_after, double retention_chunks, double retention_bytes);
  Reply close_named_egress(const std::string& name);
  //! The next queued chunk (js_chunk.h's object); "" when none, or when the
  //! call failed (then last_error() says why).
  std::string next_chunk(double id);

  // ------------------------------------------------- text in place
  // The per-change calls without Embind's string conversions, which copy
  // byte by byte in JS and allocate on both sides (~1 µs of a ~20 µs change):
  // JS writes input with TextEncoder.encodeInto straight into the input
  // buffer, and decodes a chunk with TextDecoder straight from wasm memory.
  // Results besides the return value sit in a few doubles JS reads from the
  // wasm memory (exchange_address()), which costs no call at all; the three
  // calls are also plain wasm exports (bindings.cpp), past Embind's invoker.
  enum ExchangeSlot { kTextAddress = 0, kStepInputRecords = 1, kChunkFormat = 2, kExchangeSlots = 3 };
  enum ChunkFormat { kJsonChunk = 0, kRowChunk = 1 };
  //! kRowBlock: format/row_block.h, inserts only (a failed block is not
  //! counted: JS sends the rows again as JSON).
  enum InputFormat { kJsonInsertDelete = 0, kJsonRaw = 1, kCsv = 2, kRowBlock = 3 };
  //! The address of the exchange's doubles (ExchangeSlot); fixed for the engine's life.
  double exchange_address() const { return static_cast<double>(reinterpret_cast<uintptr_t>(exchange_)); }
  //! Makes room for `bytes` of input and returns the buffer's address (it
  //! moves when it grows); 0 bytes frees the buffer (after a bulk load).
  double input_buffer(double bytes);
  //! ingest() of the first `bytes` of the input buffer into the program's
  //! table number `table` (describe_program()'s order); `format` an InputFormat.
  double ingest_input(double table, double bytes, double format, bool array);
  //! ingest_input() of a row block that is one part of an ingest
  //! (pipeline.h IngestPart; `part` its number): 0 for a part before the
  //! last, the token for the last. `total_rows`: with the first part, the
  //! rows of all parts.
  double ingest_block_part(double table, double bytes, double part, double total_rows);
  //! next_chunk() whose text stays in the engine until the next call; returns
  //! its length in bytes, its address at slot kTextAddress; 0 when there is
  //! no chunk, -1 when the call failed (last_error() says why).
  double next_chunk_in_place(double id);
  //! The next chunk as a row chunk (js_row_chunk.h) where it can go as one,
  //! else as next_chunk_in_place's JSON text: its size in bytes (0: none,
  //! -1: failed), its address at kTextAddress, its format at kChunkFormat.
  double next_js_chunk_in_place(double id);

  //! The chunks connectors wrote since the last call, in js_outbox.h's
  //! layout: its size in bytes (0: none), its address at kTextAddress; it
  //! stays in the engine until the next call.
  double take_writes_in_place();
  //! acknowledge() of connector number `connector` (add_output): 1 when the
  //! core wrote a next chunk (take_writes_in_place has writes), 0 when not,
  //! -1 when the call failed (last_error() says why).
  double acknowledge_connector(double connector, double sequence_number);

  //! number = 1 when the token is complete, 0 while in progress.
  Reply completion_status(double token) const;
  //! The core's stats object, snake_case JSON.
  std::string stats() const;
  //! Pipeline::explain_json of `view` ("" for the whole circuit).
  Reply explain(const std::string& view) const;

  // ------------------------------------------- checkpoints (engine_checkpoint.cpp)
  // JS owns the storage and runs the protocol of freshet/checkpoint/checkpoint.h.
  //! Encodes the state as checkpoint `sequence_number`; text = {"sequence_number",
  //! "step","bytes","blobs":[part names..., the manifest's name last]}.
  Reply checkpoint_prepare(double sequence_number, double max_part_bytes);
  //! Blob `index` of the prepared checkpoint (in the order of "blobs"); valid
  //! until checkpoint_release(): JS copies it out at once.
  std::string_view checkpoint_blob(size_t index) const;
  void checkpoint_release();
  //! Reads a manifest for restoring; text = {"sequence_number","step",
  //! "program_matches","parts":[names]}; CHECKPOINT_CORRUPT when damaged.
  Reply checkpoint_read_manifest(const std::string& bytes);
  //! The parts of the manifest read, in its order.
  void restore_add_part(const std::string& bytes);
  //! Verifies the parts and restores them into this just opened engine;
  //! number = the step. After CHECKPOINT_CORRUPT the engine is half restored:
  //! JS deletes it and opens another.
  Reply restore_finish();
  //! The host's bytes kept in checkpoints (JS keeps its token epochs there).
  void set_host_state(const std::string& bytes);
  std::string host_state() const;
  //! Blob names ('\n'-joined) to remove once checkpoint `newest` is stored.
  static std::string checkpoint_blobs_to_prune(const std::string& names, double newest);
  //! The next free checkpoint sequence number among these names ('\n'-joined).
  static double next_checkpoint_sequence(const std::string& names);

 private:
  double ingest_text(std::string_view table, std::string_view data, const IngestOptions& options);
  //! ingest_text() of the input buffer's first `bytes` into table number `table`.
  double ingest_buffer(double table, double bytes, const IngestOptions& options);
  //! The chunk queued on egress `id` as JSON text (js_chunk.h) into *out; false when there is none or on failure.
  bool take_chunk(double id, std::string* out);
  static Status closed_status();
  Reply closed_reply() const;
  //! Records a hot call's failure for last_error().
  double failed(const Status& status) {
    last_error_ = Reply::error(status);
    return -1;
  }

  static constexpr size_t kKeptRowChunkWords = 1 << 14;
  static inline int live_engines_ = 0;
  std::unique_ptr<Pipeline> pipeline_;
  sql::CompileOptions options_;  // open_with_options's, for replace_program
  std::shared_ptr<JsOutbox> outbox_ = std::make_shared<JsOutbox>();
  std::vector<uint64_t> writes_;               // take_writes_in_place()'s writes
  std::map<double, std::string> connector_names_;  // add_output's numbers
  Reply last_error_;
  double exchange_[kExchangeSlots] = {};
  // input_buffer(): the text, then kJsonPadding bytes. Not zeroed when made:
  // a bulk load's block (~5 MB for 200k rows) is written by JS right after,
  // and zeroing it first cost a pass over fresh memory (a page fault per 4 KiB).
  std::unique_ptr<char[]> input_;
  size_t input_size_ = 0;
  std::string output_;                         // next_chunk_in_place()'s text
  std::vector<uint64_t> row_chunk_;            // next_js_chunk_in_place()'s row chunk
  std::optional<CheckpointImage> prepared_;    // the checkpoint JS is storing
  std::optional<Manifest> restoring_;          // the checkpoint JS is restoring
  std::vector<std::string> restoring_parts_;
};

}  // namespace freshet::wasm
