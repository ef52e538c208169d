// Pipeline: a compiled program running as a service — inputs that take
// data, a step that moves every view forward, materialized views with
// snapshots and lookups, output endpoints with snapshot-then-deltas, resets,
// completion tokens and statistics (as docs/js-api.md describes them).
//
// The core never waits: the host (JS's event loop, or a test) decides when
// to step — needs_step() says a step is due, can_auto_step() whether
// automatic steps may run (a full queue with the block policy says no).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/format/json_input.h"
#include "freshet/format/row_block.h"
#include "freshet/pipeline/error_view.h"
#include "freshet/pipeline/output_endpoint.h"
#include "freshet/sql/compiler.h"

namespace freshet {

enum class IngestFormat : uint8_t {
  kJson,
  kCsv,
  //! format/row_block.h. A block that fails is not counted as a parse error:
  //! its writer sends the rows again as JSON, and that error is counted.
  kRowBlock,
};

//! Which part of an ingest a call carries. A bulk load of row blocks comes
//! in parts of a few thousand rows (wasm-bindings/js/engine_fast_path.js)
//! that are read as they come and applied together, as one ingest, with the
//! last: one block of 200k rows was 5.4 MB of wasm memory touched for the
//! first time (~3.5 ms a MiB on a VM) and read once, where a part's buffer is
//! reused and stays small.
enum class IngestPart : uint8_t {
  kWhole,   //!< the whole ingest (drops parts kept from an unfinished one)
  kFirst,   //!< the first of several: parsed and kept (drops earlier ones)
  kMiddle,  //!< parsed and kept with the parts before it
  kLast,    //!< parsed, and applied with the parts before it
};

struct IngestOptions {
  IngestFormat format = IngestFormat::kJson;
  format::InputOptions json;             //!< update format and array framing for JSON
  IngestPart part = IngestPart::kWhole;  //!< kRowBlock only
  uint64_t total_rows = 0;               //!< kFirst: the rows of all parts (sizes the buffers once)
};

struct StepResult {
  uint64_t step = 0;             //!< the step that ran (numbered from 0)
  uint64_t input_records = 0;    //!< records ingested since the previous step
};

struct InputStats {
  uint64_t total_records = 0;
  uint64_t total_bytes = 0;
  uint64_t parse_errors = 0;
};

//! A view failed by a runtime error in an operator it comes from
//! (view_failures.cpp): its error names the view, the step and the operator.
struct ViewFailure {
  std::string view;
  Status error;
  uint64_t step = 0;
};

class ByteWriter;

//! A pipeline's saved state: named sections back to back in one payload
//! (one buffer, so a large state is never copied section by section).
struct SavedState {
  struct Section {
    std::string name;
    size_t offset = 0, size = 0;
  };
  std::string payload;
  std::vector<Section> sections;
  //! The checkpoint format it was read in (checkpoint_format.h); 0: this build's.
  uint32_t format_version = 0;

  std::string_view bytes(const Section& section) const {
    return std::string_view(payload).substr(section.offset, section.size);
  }
  //! Appends a section (tests and fuzzers build states by hand).
  void add(std::string name, std::string_view bytes) {
    sections.push_back({std::move(name), payload.size(), bytes.size()});
    payload.append(bytes);
  }
};

//! What stats() says about checkpoints: the last one written, the one this
//! pipeline resumed from, and damaged ones skipped on the way.
struct CheckpointStatus {
  std::optional<uint64_t> sequence_number;  //!< the newest written or restored
  std::optional<uint64_t> step;             //!< its step count
  std::optional<uint64_t> restored_from;    //!< the checkpoint this pipeline resumed from
  std::vector<uint64_t> skipped_damaged;
  std::string last_error;
};

//! An ad-hoc query's answer: its columns, and its rows in ORDER BY order
//! (each row as many times as it occurs).
struct QueryResult {
  SchemaPtr schema;
  std::vector<std::string> rows;
};

//! Bounds on one ad-hoc query, so that a query over big views (a cross
//! join, say) fails with LIMIT_EXCEEDED instead of taking the isolate's
//! memory or time. Defaults fit a 128 MiB Workers isolate.
struct QueryLimits {
  uint64_t max_sql_bytes = 256 * 1024;      //!< the query's text
  uint64_t max_result_rows = 100'000;       //!< rows of the answer, each counted as often as it occurs
  uint64_t max_result_bytes = 16u << 20;    //!< their encoded bytes (the rows, before JSON)
  uint64_t max_work_rows = 4'000'000;       //!< entries the query's operators build, its inputs' copies included
  uint64_t max_work_bytes = 64u << 20;      //!< their bytes
};

class Pipeline {
 public:
  static Result<std::unique_ptr<Pipeline>> create(std::string_view sql);
  //! With compile options (the program's runtime error mode among them).
  static Result<std::unique_ptr<Pipeline>> create(std::string_view sql, const sql::CompileOptions& options);

  const sql::CompiledProgram& program() const { return *program_; }

  // ---------------------------------------------------------------- input
  //! Parses `data` for `table` and buffers it for the next step, all or
  //! nothing; returns a completion token. In parts (options.part), a call
  //! before the last returns 0 and applies nothing; a part that fails drops
  //! the parts before it, and so does any ingest that does not continue them.
  Result<uint64_t> ingest(std::string_view table, std::string_view data, const IngestOptions& options = {});

  // ---------------------------------------------------------------- steps
  //! Runs one step. An SQL runtime error (a division by zero, an overflow)
  //! in an operator fails that operator and what is downstream of it, and
  //! so the views that come from them (failed_views); the other views step
  //! on and the step succeeds. Only an error in a table's input operator
  //! stops the pipeline: that step and every later ingest or step fail
  //! with its error.
  Result<StepResult> step();
  //! The error that stopped the pipeline, if one did.
  const Status& failure() const { return failure_; }
  //! The failed views, in program order. A failed view stays failed (with
  //! its contents of the step before) until the pipeline is re-created;
  //! checkpoints keep it failed.
  std::vector<ViewFailure> failed_views() const;
  //! View `name`'s error when it is failed, else OK.
  Status view_failure(std::string_view name) const;
  //! Input is buffered, or an endpoint waits for a snapshot.
  bool needs_step() const;
  //! Records ingested since the last step: the next step's input (a
  //! checkpoint keeps them).
  uint64_t buffered_records() const { return pending_records_; }
  //! No endpoint holds automatic steps back (block policy with a full queue).
  bool can_auto_step() const;
  void pause() { paused_ = true; }
  void resume() { paused_ = false; }
  bool paused() const { return paused_; }
  //! Steps run so far.
  uint64_t step_count() const { return steps_; }

  // ---------------------------------------------------------------- clock
  //! Sets the time of the following steps (microseconds since 1970-01-01
  //! UTC), the value of NOW() in views, until set again. Before any call a
  //! step takes the system clock. A time behind the last step's is held at
  //! it: the clock never goes backwards (a checkpoint keeps it).
  void set_clock(int64_t micros);
  //! Whether some view reads NOW().
  bool uses_clock() const { return program_->clock != nullptr; }
  //! The time of the last step, when a view reads NOW() and a step ran.
  std::optional<int64_t> clock() const;
  //! The earliest time after the last step's at which some view changes
  //! with no input (a row enters or leaves a temporal filter; the next tick
  //! for a view reading NOW() elsewhere): the host steps then.
  std::optional<int64_t> next_clock_change() const;

  // -------------------------------------------------------------- queries
  //! The rows of a materialized view (a Z-set).
  Result<BatchPtr> snapshot(std::string_view view) const;
  //! The rows of an index for one key (a row of the index's key columns).
  Result<std::vector<std::string>> lookup(std::string_view index, RowRef key) const;
  //! The schema of an index's key.
  Result<SchemaPtr> index_key_schema(std::string_view index) const;
  //! Runs one SELECT once over the current contents of the materialized
  //! views and tables (sql/adhoc_query.h; pipeline_query.cpp). Reading a
  //! relation that is not materialized is NOT_MATERIALIZED.
  //! Bounded by `limits`: past one, LIMIT_EXCEEDED naming it, and nothing
  //! of the query is kept (pipeline_query.cpp).
  Result<QueryResult> query(std::string_view sql, const QueryLimits& limits = QueryLimits()) const;

  // ---------------------------------------------------- output endpoints
  Status add_connector(const std::string& name, EndpointConfig config, std::shared_ptr<Sink> sink);
  Status remove_connector(std::string_view name);
  //! Connectors: the sink finished the pending write of a chunk.
  Status acknowledge(std::string_view connector, uint64_t sequence_number);
  //! Wipes a connector's destination and replays a fresh snapshot at the next step.
  Status reset_output(std::string_view connector);
  //! Opens an egress stream; returns its id.
  Result<uint64_t> open_egress(EndpointConfig config);
  Status close_egress(uint64_t id);
  //! Opens the named egress `name` (named_egress.cpp): an egress that lives
  //! on while no consumer is connected, keeps what its consumer took within
  //! `retention`, and is part of checkpoints. When it exists, the new
  //! connection takes it over (the old id is gone): with `resume_after` = N
  //! it continues with chunk N+1 (RESUME_UNAVAILABLE when it cannot),
  //! without it starts over (a fresh snapshot with send_snapshot). A new
  //! name with `resume_after` is RESUME_UNAVAILABLE. Returns the stream's id.
  Result<uint64_t> open_named_egress(const std::string& name, EndpointConfig config, RetentionLimits retention,
                                     std::optional<uint64_t> resume_after);
  //! Closes a named egress for good (close_egress only disconnects it).
  Status close_named_egress(std::string_view name);
  //! The next chunk of an egress stream, if one is queued.
  Result<std::optional<OutputChunk>> next_chunk(uint64_t id);
  //! An endpoint by connector name or egress id.
  const OutputEndpoint* connector(std::string_view name) const;
  const OutputEndpoint* egress(uint64_t id) const;

  // ------------------------------------------------------------ completion
  //! Whether every output derived from the input of `token` has been handed
  //! to every endpoint (UNKNOWN_TOKEN for a token never issued).
  Result<bool> completion_status(uint64_t token) const;

  // ----------------------------------------------------------------- stats
  const std::map<std::string, InputStats>& input_stats() const { return input_stats_; }
  //! Bytes held by the engine's state (traces, operator state, queues).
  size_t memory_bytes() const;
  //! The stats object of docs/js-api.md (Stats), as JSON (snake_case keys are the JS layer's job).
  std::string stats_json() const;
  //! The circuit with its live figures, as JSON (pipeline_explain.cpp):
  //! {"text","operators","views","totals"}; every operator, or those view
  //! `view` depends on (UNKNOWN_VIEW when there is none).
  Result<std::string> explain_json(std::string_view view) const;

  //! Bounds memory_bytes() plus what one step builds to `bytes` (0: no
  //! bound): a step past it fails with OUT_OF_MEMORY naming the operator
  //! (circuit/step_memory.h).
  void set_memory_budget(size_t bytes) { memory_budget_ = bytes; }
  size_t memory_budget() const { return memory_budget_; }
  //! The rows error_view keeps at most (error_view.h; default 1000).
  void set_error_view_retention(size_t rows) { error_view_->set_retention(rows); }
  const ErrorView& error_view() const { return *error_view_; }

  //! Records per snapshot chunk (a large snapshot is split).
  void set_snapshot_chunk_records(size_t records) { snapshot_chunk_records_ = records; }

  // ------------------------------------------------------------ checkpoints
  //! Identifies the program by its tokens (whitespace and comments do not count).
  uint64_t program_hash() const { return program_hash_; }
  //! Everything needed to go on from this step boundary, as named sections:
  //! the circuit's operators (traces, buffered input), the views' traces,
  //! step count, completion tokens, input statistics, connectors (snapshot
  //! state, statistics, unaccepted chunks), the host's bytes and named
  //! egress streams (queue and retention). Other egress streams are
  //! connections, not state: they are not kept.
  Result<SavedState> save_state() const;
  //! Restores what save_state wrote, into a pipeline just created from the
  //! same program, before any ingest or step. Connectors come back when the
  //! host adds them again (add_connector); one never added again is dropped.
  //! On failure (kCheckpointCorrupt) the pipeline is half restored: discard it.
  Status restore_state(const SavedState& state);
  //! restore_state for an in-place program change: `state` is the old
  //! pipeline's (save_state), this pipeline was just created from the new
  //! program. As a resume with a changed program, and failed operators are
  //! rebuilt even when nothing else changed (program_change.cpp).
  Status replace_from(const SavedState& state);
  //! Replaces the program in place (program_replace.cpp): this pipeline's
  //! state is carried into a new one of `sql` (replace_from), with every
  //! connector and egress stream. A stream of a view kept goes on with no gap
  //! and no duplicate; of a view rebuilt and materialized, it gets the
  //! difference between the old contents and the new; of a view rebuilt and
  //! not materialized (no old contents to compare), or whose columns changed,
  //! it ends with RESUME_UNAVAILABLE; of a view removed, with UNKNOWN_VIEW.
  //! This pipeline is left as it was (discard it on success).
  Result<std::unique_ptr<Pipeline>> replace_program(std::string_view sql, const sql::CompileOptions& options);
  //! The views the restore rebuilt (new, changed or recovered ones; bootstrapped).
  const std::set<std::string, std::less<>>& rebuilt_views() const { return rebuilt_views_; }
  //! Operators the restore took back by id, and those it rebuilt.
  size_t restored_operators() const { return restored_operators_; }
  size_t rebuilt_operators() const { return rebuilt_operators_; }
  //! Bytes of the host's own, kept in checkpoints (the JS layer's token epochs).
  void set_host_state(std::string bytes) { host_state_ = std::move(bytes); }
  const std::string& host_state() const { return host_state_; }
  CheckpointStatus& checkpoint_status() { return checkpoint_status_; }
  const CheckpointStatus& checkpoint_status() const { return checkpoint_status_; }

 private:
  Pipeline() = default;
  Result<std::unique_ptr<OutputEndpoint>> make_endpoint(const std::string& name, EndpointConfig config,
                                                        std::shared_ptr<Sink> sink) const;
  const MaterializedView* find_view(std::string_view name) const;
  //! Fails the views whose streams come from failed operators (after a
  //! step or a restore), and their endpoints (view_failures.cpp).
  void mark_failed_views();
  //! The views' part of stats_json: `"views":{name:{"failed":...}}`.
  void append_view_stats(std::string* json) const;
  //! Closes the named egress whose consumer connected least recently (the bound kMaxNamedEgress).
  void close_least_recently_connected();
  //! The named egress endpoints as a checkpoint section, and back (pipeline_state.cpp).
  void save_named_egress(ByteWriter& out) const;
  //! `other_program`: the checkpoint may be another program's (format 7),
  //! whose named egresses on views since removed or rebuilt are dropped.
  Status restore_named_egress(std::string_view bytes, bool other_program);
  //! Format 7's sections 'circuit', 'failures' and 'views', by operator id
  //! and view name, into a program that may have changed since: what is new
  //! or failed is bootstrapped (program_change.cpp).
  Status restore_by_id(std::string_view circuit, std::optional<std::string_view> failures, std::string_view views);
  //! The views section of format 7: per view its name, the id of the
  //! operator writing its stream, and its traces.
  void save_views_by_id(ByteWriter& out) const;
  //! Rebuilds the operators of `rebuild` and the views of `rebuilt`, and
  //! what they need, by one bootstrap (program_change.cpp).
  Status bootstrap_views(std::vector<bool> rebuild, std::vector<MaterializedView*> rebuilt);
  //! Whether every connector accepted every chunk of steps up to `step`.
  bool accepted_through(uint64_t step) const;
  //! Forgets the token ranges whose steps every connector accepted.
  void forget_completed_tokens();
  //! The table's reader among `readers` (json_readers_, block_readers_),
  //! made on first use.
  template <typename Reader>
  Reader& table_reader(std::vector<std::unique_ptr<Reader>>& readers, const sql::CompiledTable& table);
  //! Parses `data` in the format `options` names into `updates` (after what they hold).
  Status parse_input(const sql::CompiledTable& table, std::string_view data, const IngestOptions& options,
                     format::ParsedUpdates& updates);
  //! Buffers `updates` (parsed from `bytes` bytes) in `table`'s input for
  //! the next step; a refusal (a key twice) counts as a parse error if `counted`.
  Result<uint64_t> apply_ingest(const sql::CompiledTable& table, format::ParsedUpdates& updates, uint64_t bytes,
                                bool counted);

  std::unique_ptr<sql::CompiledProgram> program_;
  uint64_t program_hash_ = 0;
  std::vector<std::unique_ptr<MaterializedView>> views_;
  std::unique_ptr<ErrorView> error_view_;  // not among views_: checkpointed on its own (error_view.h)
  std::map<std::string, std::unique_ptr<OutputEndpoint>, std::less<>> connectors_;
  std::map<uint64_t, std::unique_ptr<OutputEndpoint>> egress_;
  uint64_t next_egress_ = 0;
  std::map<std::string, uint64_t, std::less<>> named_egress_;  // name → the id of its endpoint in egress_

  //! Views a program change rebuilt while restoring (program_change.cpp):
  //! their endpoints' saved positions no longer hold.
  std::set<std::string, std::less<>> rebuilt_views_;
  size_t restored_operators_ = 0, rebuilt_operators_ = 0;
  //! Egress streams a program change ended, with why (next_chunk answers it).
  std::map<uint64_t, Status> ended_egress_;
  //! Takes over `old`'s connectors and egress streams (program_replace.cpp).
  void adopt_endpoints(Pipeline& old);
  bool rebuild_failed_ = false;  // replace_from: failed operators are rebuilt
  std::map<std::string, InputStats> input_stats_;
  // One JSON reader per table (by index in program_->tables), made on first use.
  std::vector<std::unique_ptr<format::JsonTableReader>> json_readers_;
  std::vector<std::unique_ptr<format::RowBlockReader>> block_readers_;  // likewise
  uint64_t pending_records_ = 0;  // ingested since the last step
  //! The parts of an ingest read so far (IngestPart), of table parts_table_.
  format::ParsedUpdates parts_;
  const sql::CompiledTable* parts_table_ = nullptr;
  uint64_t parts_bytes_ = 0;

  uint64_t steps_ = 0;
  std::optional<int64_t> clock_micros_;  // set_clock's time; none: the system clock
  bool paused_ = false;
  Status failure_;
  size_t snapshot_chunk_records_ = 10000;
  size_t memory_budget_ = 0;

  // Completion tokens are numbered; tokens in [first, limit) were consumed
  // by `step`. Entries go once every endpoint has accepted that step.
  struct TokenRange {
    uint64_t limit;
    uint64_t step;
  };
  uint64_t next_token_ = 0;
  uint64_t first_unstepped_token_ = 0;
  std::vector<TokenRange> token_ranges_;
  uint64_t completed_below_ = 0;  // every token below this is complete

  // Checkpoints.
  std::string host_state_;
  CheckpointStatus checkpoint_status_;
  //! Connectors of the checkpoint resumed from, until the host adds them again.
  std::map<std::string, EndpointCheckpoint, std::less<>> restored_connectors_;
};

}  // namespace freshet
