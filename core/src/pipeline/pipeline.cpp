#include "freshet/pipeline/pipeline.h"

#include <chrono>

#include "freshet/common/hash.h"
#include "freshet/format/json_output.h"
#include "pipeline_state.h"

namespace freshet {
namespace {

// From this many rows on, an ingest into a table whose input buffers
// nothing hands its parsed rows over instead of having them copied; a
// smaller one copies them into the input's kept buffer (no allocation).
constexpr size_t kAdoptedIngestRows = 1024;

}  // namespace

Result<std::unique_ptr<Pipeline>> Pipeline::create(std::string_view sql) {
  return create(sql, sql::CompileOptions());
}

Result<std::unique_ptr<Pipeline>> Pipeline::create(std::string_view sql, const sql::CompileOptions& options) {
  Result<std::unique_ptr<sql::CompiledProgram>> program = sql::compile_program(sql, options);
  if (!program.ok()) return program.status();
  std::unique_ptr<Pipeline> pipeline(new Pipeline());
  pipeline->program_ = std::move(*program);
  for (const sql::CompiledView& view : pipeline->program_->views) {
    pipeline->views_.push_back(std::make_unique<MaterializedView>(*pipeline->program_, view));
  }
  // A materialized table keeps its rows as a materialized view does.
  for (const sql::CompiledView& table : pipeline->program_->table_views) {
    pipeline->views_.push_back(std::make_unique<MaterializedView>(*pipeline->program_, table));
  }
  pipeline->error_view_ = std::make_unique<ErrorView>(
      *pipeline->program_, *pipeline->program_->find_system_view(sql::kErrorViewName));
  for (const sql::CompiledTable& table : pipeline->program_->tables) pipeline->input_stats_[table.name] = {};
  pipeline->program_hash_ = program_hash_of(sql);
  // 'null' mode types and plans views differently: its checkpoints are another program's.
  if (options.on_runtime_error == sql::RuntimeErrorMode::kNull) {
    const uint64_t hash = pipeline->program_hash_;
    pipeline->program_hash_ = hash_bytes(reinterpret_cast<const uint8_t*>(&hash), sizeof(hash), /*seed=*/0x6e756c6c);
  }
  return pipeline;
}

// ------------------------------------------------------------------- input

template <typename Reader>
Reader& Pipeline::table_reader(std::vector<std::unique_ptr<Reader>>& readers, const sql::CompiledTable& table) {
  size_t index = static_cast<size_t>(&table - program_->tables.data());
  if (readers.size() <= index) readers.resize(program_->tables.size());
  if (!readers[index]) readers[index] = std::make_unique<Reader>(format::TableShape{table.schema.get(), table.primary_key});
  return *readers[index];
}

Status Pipeline::parse_input(const sql::CompiledTable& table, std::string_view data, const IngestOptions& options,
                             format::ParsedUpdates& updates) {
  Result<format::ParsedUpdates> parsed = format::ParsedUpdates();
  switch (options.format) {
    case IngestFormat::kCsv:
      parsed = format::parse_csv(data, format::TableShape{table.schema.get(), table.primary_key});
      break;
    case IngestFormat::kRowBlock:
      return table_reader(block_readers_, table).read(data, updates, options.total_rows);
    case IngestFormat::kJson:
      parsed = table_reader(json_readers_, table).parse(data, options.json);
      break;
  }
  if (!parsed.ok()) return parsed.status();
  updates = std::move(*parsed);
  return Status::OK();
}

Result<uint64_t> Pipeline::ingest(std::string_view table_name, std::string_view data, const IngestOptions& options) {
  if (!failure_.ok()) return failure_;
  const sql::CompiledTable* table = program_->find_table(table_name);
  const bool continues = options.format == IngestFormat::kRowBlock &&
                         (options.part == IngestPart::kMiddle || options.part == IngestPart::kLast);
  if (!continues || table != parts_table_) {
    parts_.release();
    parts_table_ = nullptr;
    parts_bytes_ = 0;
  }
  if (!table) return Status(ErrorCode::kUnknownTable, "unknown table '" + std::string(table_name) + "'");
  if (continues && !parts_table_) {
    return Status(ErrorCode::kInvalidArgument, "table '" + table->name + "': a part of an ingest with no first part");
  }
  const bool counted = options.format != IngestFormat::kRowBlock;  // see IngestFormat::kRowBlock
  format::ParsedUpdates whole;
  const bool in_parts = options.format == IngestFormat::kRowBlock && options.part != IngestPart::kWhole;
  format::ParsedUpdates& updates = in_parts ? parts_ : whole;
  if (Status parsed = parse_input(*table, data, options, updates); !parsed.ok()) {
    parts_.release();
    parts_table_ = nullptr;
    input_stats_[table->name].parse_errors += counted;
    return Status(parsed.code(), "table '" + table->name + "': " + parsed.message());
  }
  if (in_parts && options.part != IngestPart::kLast) {
    parts_table_ = table;
    parts_bytes_ += data.size();
    return 0;
  }
  const uint64_t bytes = data.size() + parts_bytes_;
  Result<uint64_t> token = apply_ingest(*table, updates, bytes, counted);
  parts_.release();
  parts_table_ = nullptr;
  parts_bytes_ = 0;
  return token;
}

Result<uint64_t> Pipeline::apply_ingest(const sql::CompiledTable& table, format::ParsedUpdates& updates, uint64_t bytes,
                                        bool counted) {
  InputStats& stats = input_stats_[table.name];
  if (UpsertInputOperator* input = table.upsert_input) {
    const size_t before = input->pending();
    // A bulk ingest into an empty input hands it the buffer its rows were
    // parsed into: they are not copied again (fresh memory, in wasm, for a
    // load of 200k rows: the rows' size once more, paid for in page faults).
    if (before == 0 && updates.size() >= kAdoptedIngestRows) {
      input->adopt_pending_rows(updates.take_bytes(), updates.size());
    } else {
      input->reserve_pending(updates.size(), updates.row_bytes());
    }
    size_t inserts = 0;
    for (const format::ParsedUpdate update : updates) {
      if (update.insert) {
        input->push_upsert(update.row);
        ++inserts;
      } else if (update.key_only) {
        input->push_delete_key(update.row);
      } else {
        input->push_delete_row(update.row);
      }
    }
    // Two inserts of one key in one call are ambiguous: the call is refused
    // and what it buffered dropped.
    if (inserts > 1) {
      if (std::optional<std::pair<size_t, size_t>> twice = input->repeated_upsert(before)) {
        input->truncate_pending(before);
        stats.parse_errors += counted;
        return Status(ErrorCode::kParseError, "table '" + table.name + "': record " + std::to_string(twice->first) +
                                                  ": duplicate key: record " + std::to_string(twice->second) +
                                                  " has the same key");
      }
    }
  } else {
    for (const format::ParsedUpdate update : updates) table.input->push_row(update.row, update.insert ? 1 : -1);
  }
  stats.total_records += updates.size();
  stats.total_bytes += bytes;
  pending_records_ += updates.size();
  return next_token_++;
}

// ------------------------------------------------------------------- steps

void Pipeline::set_clock(int64_t micros) { clock_micros_ = micros; }

std::optional<int64_t> Pipeline::clock() const {
  if (!program_->clock || !program_->clock->started()) return std::nullopt;
  return program_->clock->now();
}

std::optional<int64_t> Pipeline::next_clock_change() const {
  if (!program_->clock) return std::nullopt;
  return program_->clock->next_change();
}

Result<StepResult> Pipeline::step() {
  if (!failure_.ok()) return failure_;
  if (program_->clock) {
    int64_t now =
        clock_micros_
            ? *clock_micros_
            : std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
    program_->clock->set_time(now);
  }
  program_->circuit->set_memory_limit(memory_budget_, memory_budget_ ? memory_bytes() : 0);
  Status stepped = program_->circuit->step();
  if (!stepped.ok()) {
    failure_ = Status(stepped.code(), "the pipeline stopped at step " + std::to_string(steps_) + ": " +
                                          stepped.message());
    return failure_;
  }
  uint64_t step = steps_++;
  mark_failed_views();  // a failed view and its endpoints no longer move
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    if (view->failure().ok()) view->update();
  }
  error_view_->on_step();
  for (auto& [name, endpoint] : connectors_) {
    if (endpoint->view_failure().ok()) endpoint->on_step(step, snapshot_chunk_records_);
    endpoint->deliver();
  }
  for (auto& [id, endpoint] : egress_) {
    if (endpoint->view_failure().ok()) endpoint->on_step(step, snapshot_chunk_records_);
  }
  if (next_token_ > first_unstepped_token_) {
    token_ranges_.push_back({next_token_, step});
    first_unstepped_token_ = next_token_;
  }
  forget_completed_tokens();
  StepResult result{step, pending_records_};
  pending_records_ = 0;
  return result;
}

bool Pipeline::needs_step() const {
  if (pending_records_ > 0) return true;
  // An endpoint of a failed view waits for nothing a step could bring.
  for (const auto& [name, endpoint] : connectors_) {
    if (endpoint->snapshot_state() == SnapshotState::kPending && endpoint->view_failure().ok()) return true;
  }
  for (const auto& [id, endpoint] : egress_) {
    if (endpoint->snapshot_state() == SnapshotState::kPending && endpoint->view_failure().ok()) return true;
  }
  return false;
}

bool Pipeline::can_auto_step() const {
  for (const auto& [name, endpoint] : connectors_) {
    if (endpoint->blocking()) return false;
  }
  for (const auto& [id, endpoint] : egress_) {
    if (endpoint->blocking()) return false;
  }
  return true;
}

// ----------------------------------------------------------------- queries

const MaterializedView* Pipeline::find_view(std::string_view name) const {
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    if (view->view().name == name) return view.get();
  }
  if (name == sql::kErrorViewName) return &error_view_->view();
  return nullptr;
}

Result<BatchPtr> Pipeline::snapshot(std::string_view view_name) const {
  const MaterializedView* view = find_view(view_name);
  if (!view && program_->find_table(view_name)) {
    return Status(ErrorCode::kNotMaterialized, "table '" + std::string(view_name) +
                                                   "' is not materialized: declare it WITH ('materialized' = 'true')");
  }
  if (!view) return Status(ErrorCode::kUnknownView, "unknown view '" + std::string(view_name) + "'");
  if (!view->materialized()) {
    return Status(ErrorCode::kNotMaterialized, "view '" + std::string(view_name) +
                                                   "' is not materialized: declare it CREATE MATERIALIZED VIEW");
  }
  if (!view->failure().ok()) return view->failure();
  return view->snapshot();
}

Result<std::vector<std::string>> Pipeline::lookup(std::string_view index_name, RowRef key) const {
  const sql::CompiledIndex* index = program_->find_index(index_name);
  if (!index) return Status(ErrorCode::kUnknownIndex, "unknown index '" + std::string(index_name) + "'");
  const MaterializedView* view = find_view(index->view);
  if (!view->failure().ok()) return view->failure();
  return view->lookup(*view->index_ordinal(index_name), key);
}

Result<SchemaPtr> Pipeline::index_key_schema(std::string_view index_name) const {
  const sql::CompiledIndex* index = program_->find_index(index_name);
  if (!index) return Status(ErrorCode::kUnknownIndex, "unknown index '" + std::string(index_name) + "'");
  return index->key_schema;
}

// -------------------------------------------------------- output endpoints

Result<std::unique_ptr<OutputEndpoint>> Pipeline::make_endpoint(const std::string& name, EndpointConfig config,
                                                                std::shared_ptr<Sink> sink) const {
  const MaterializedView* view = find_view(config.view);
  if (!view) return Status(ErrorCode::kUnknownView, "output '" + name + "': unknown view '" + config.view + "'");
  std::optional<size_t> index;
  if (!config.index.empty()) {
    index = view->index_ordinal(config.index);
    if (!index) {
      return Status(ErrorCode::kUnknownIndex,
                    "output '" + name + "': view '" + config.view + "' has no index '" + config.index + "'");
    }
  }
  if (config.send_snapshot && !view->materialized()) {
    return Status(ErrorCode::kNotMaterialized, "output '" + name + "': view '" + config.view +
                                                   "' is not materialized, so it has no snapshot to send");
  }
  if (config.max_queued_chunks == 0) config.max_queued_chunks = 1;
  return std::make_unique<OutputEndpoint>(name, std::move(config), *view, index, std::move(sink));
}

Status Pipeline::add_connector(const std::string& name, EndpointConfig config, std::shared_ptr<Sink> sink) {
  if (connectors_.count(name)) return Status(ErrorCode::kDuplicateOutput, "output '" + name + "' already exists");
  if (!sink) return Status(ErrorCode::kInvalidArgument, "output '" + name + "' needs a sink");
  Result<std::unique_ptr<OutputEndpoint>> endpoint = make_endpoint(name, std::move(config), std::move(sink));
  if (!endpoint.ok()) return endpoint.status();
  auto restored = restored_connectors_.find(name);
  if (restored != restored_connectors_.end()) {
    // A checkpointed connector configured differently is a new one: its
    // destination is wiped (when it can be) before it gets a fresh start.
    OutputEndpoint& fresh = **endpoint;
    if (restored->second.fingerprint != fresh.fingerprint() && fresh.sink()->resettable()) {
      Status reset = fresh.sink()->reset();
      if (!reset.ok()) {
        return Status(reset.code(), "output '" + name + "' changed since the checkpoint and its sink could not be reset: " +
                                        reset.message());
      }
    }
    fresh.resume_from(std::move(restored->second));
    restored_connectors_.erase(restored);
  }
  OutputEndpoint& added = *connectors_.emplace(name, std::move(*endpoint)).first->second;
  added.deliver();  // chunks the sink had not accepted before the checkpoint
  return Status::OK();
}

Status Pipeline::remove_connector(std::string_view name) {
  auto it = connectors_.find(name);
  if (it == connectors_.end()) return Status(ErrorCode::kUnknownOutput, "unknown output '" + std::string(name) + "'");
  connectors_.erase(it);
  return Status::OK();
}

Status Pipeline::acknowledge(std::string_view connector_name, uint64_t sequence_number) {
  auto it = connectors_.find(connector_name);
  if (it == connectors_.end()) {
    return Status(ErrorCode::kUnknownOutput, "unknown output '" + std::string(connector_name) + "'");
  }
  FRESHET_RETURN_IF_ERROR(it->second->acknowledge(sequence_number));
  forget_completed_tokens();
  return Status::OK();
}

Status Pipeline::reset_output(std::string_view connector_name) {
  auto it = connectors_.find(connector_name);
  if (it == connectors_.end()) {
    return Status(ErrorCode::kUnknownOutput, "unknown output '" + std::string(connector_name) + "'");
  }
  if (!it->second->view_failure().ok()) return it->second->view_failure();  // no snapshot will come
  if (!find_view(it->second->config().view)->materialized()) {
    return Status(ErrorCode::kNotMaterialized, "output '" + std::string(connector_name) + "': view '" +
                                                   it->second->config().view + "' is not materialized");
  }
  return it->second->start_reset();
}

Result<uint64_t> Pipeline::open_egress(EndpointConfig config) {
  uint64_t id = next_egress_++;
  Result<std::unique_ptr<OutputEndpoint>> endpoint = make_endpoint("egress " + std::to_string(id), std::move(config), nullptr);
  if (!endpoint.ok()) return endpoint.status();
  egress_.emplace(id, std::move(*endpoint));
  return id;
}

Status Pipeline::close_egress(uint64_t id) {
  auto it = egress_.find(id);
  auto named = it == egress_.end() ? named_egress_.end() : named_egress_.find(it->second->name());
  if (named != named_egress_.end() && named->second == id) return Status::OK();  // disconnected; lives on
  if (egress_.erase(id) == 0) return Status(ErrorCode::kUnknownOutput, "no egress stream " + std::to_string(id));
  return Status::OK();
}

Result<std::optional<OutputChunk>> Pipeline::next_chunk(uint64_t id) {
  auto it = egress_.find(id);
  if (it == egress_.end() && ended_egress_.count(id)) return ended_egress_.at(id);  // program_replace.cpp
  if (it == egress_.end()) return Status(ErrorCode::kUnknownOutput, "no egress stream " + std::to_string(id));
  std::optional<OutputChunk> chunk = it->second->pop();
  // The chunks of the steps before the view failed come first, then its error.
  if (!chunk && !it->second->view_failure().ok()) return it->second->view_failure();
  return chunk;
}

const OutputEndpoint* Pipeline::connector(std::string_view name) const {
  auto it = connectors_.find(name);
  return it == connectors_.end() ? nullptr : it->second.get();
}

const OutputEndpoint* Pipeline::egress(uint64_t id) const {
  auto it = egress_.find(id);
  return it == egress_.end() ? nullptr : it->second.get();
}

// -------------------------------------------------------------- completion

Result<bool> Pipeline::completion_status(uint64_t token) const {
  if (token >= next_token_) return Status(ErrorCode::kUnknownToken, "unknown completion token " + std::to_string(token));
  if (token < completed_below_) return true;
  if (token >= first_unstepped_token_) return false;  // its step has not run
  uint64_t step = 0;
  for (const TokenRange& range : token_ranges_) {
    if (token < range.limit) {
      step = range.step;
      break;
    }
  }
  return accepted_through(step);
}

bool Pipeline::accepted_through(uint64_t step) const {
  for (const auto& [name, endpoint] : connectors_) {
    std::optional<uint64_t> oldest = endpoint->oldest_unaccepted_step();
    if (oldest && *oldest <= step) return false;
  }
  return true;
}

void Pipeline::forget_completed_tokens() {
  size_t done = 0;
  while (done < token_ranges_.size() && accepted_through(token_ranges_[done].step)) {
    completed_below_ = token_ranges_[done].limit;
    ++done;
  }
  token_ranges_.erase(token_ranges_.begin(), token_ranges_.begin() + static_cast<std::ptrdiff_t>(done));
}

// ------------------------------------------------------------------- stats

size_t Pipeline::memory_bytes() const {
  size_t total = program_->circuit->state_bytes();
  for (const std::unique_ptr<MaterializedView>& view : views_) total += view->memory_bytes();
  total += error_view_->memory_bytes();
  return total;
}

namespace {

void append_endpoint_stats(const OutputEndpoint& endpoint, std::string* json) {
  const EndpointStats& s = endpoint.stats();
  *json += "{\"view\":";
  format::append_json_string(endpoint.config().view, json);
  *json += ",\"transmitted_records\":" + std::to_string(s.transmitted_records) +
           ",\"transmitted_batches\":" + std::to_string(s.transmitted_batches) +
           ",\"queued_records\":" + std::to_string(endpoint.queued_records()) +
           ",\"queued_chunks\":" + std::to_string(endpoint.queued_chunks()) +
           ",\"snapshot_sent\":" + (endpoint.snapshot_state() == SnapshotState::kSent ? "true" : "false") +
           ",\"snapshot_records\":" + std::to_string(s.snapshot_records) +
           ",\"snapshot_total\":" + std::to_string(s.snapshot_total) + ",\"resets\":" + std::to_string(s.resets) +
           ",\"reset_in_progress\":" + (endpoint.reset_in_progress() ? "true" : "false") +
           ",\"errors\":" + std::to_string(s.errors) + ",\"dropped_chunks\":" + std::to_string(s.dropped_chunks) +
           ",\"last_error\":";
  if (s.last_error.empty()) {
    *json += "null";
  } else {
    format::append_json_string(s.last_error, json);
  }
  // Its view's failure: the endpoint has stopped (view_failures.cpp).
  *json += ",\"failed\":";
  if (endpoint.view_failure().ok()) {
    *json += "null";
  } else {
    *json += "{\"code\":\"" + std::string(error_code_name(endpoint.view_failure().code())) + "\",\"message\":";
    format::append_json_string(endpoint.view_failure().message(), json);
    *json += "}";
  }
  *json += "}";
}

std::string optional_number(const std::optional<uint64_t>& n) { return n ? std::to_string(*n) : "null"; }

void append_checkpoint_status(const CheckpointStatus& s, std::string* json) {
  *json += "{\"sequence_number\":" + optional_number(s.sequence_number) + ",\"step\":" + optional_number(s.step) +
           ",\"restored_from\":" + optional_number(s.restored_from) + ",\"skipped_damaged\":[";
  for (size_t i = 0; i < s.skipped_damaged.size(); ++i) *json += (i ? "," : "") + std::to_string(s.skipped_damaged[i]);
  *json += "],\"last_error\":";
  if (s.last_error.empty()) {
    *json += "null";
  } else {
    format::append_json_string(s.last_error, json);
  }
  *json += "}";
}

}  // namespace

std::string Pipeline::stats_json() const {
  std::string json = "{\"step\":" + std::to_string(steps_) + ",\"state\":\"" + (paused_ ? "paused" : "running") +
                     "\",\"memory_bytes\":" + std::to_string(memory_bytes()) +
                     ",\"memory_budget\":" + std::to_string(memory_budget_) + ",\"checkpoint\":";
  append_checkpoint_status(checkpoint_status_, &json);
  json += ",\"inputs\":{";
  bool first = true;
  for (const auto& [name, s] : input_stats_) {
    if (!first) json += ",";
    first = false;
    format::append_json_string(name, &json);
    json += ":{\"total_records\":" + std::to_string(s.total_records) +
            ",\"total_bytes\":" + std::to_string(s.total_bytes) + ",\"parse_errors\":" + std::to_string(s.parse_errors);
    // Updates dropped by the table's LATENESS (its watermark's count, kept in checkpoints).
    const sql::CompiledTable* table = program_->find_table(name);
    if (table && table->watermark) json += ",\"late_records\":" + std::to_string(table->watermark->late_records());
    json += "}";
  }
  json += "},\"outputs\":{";
  first = true;
  for (const auto& [name, endpoint] : connectors_) {
    if (!first) json += ",";
    first = false;
    format::append_json_string(name, &json);
    json += ":";
    append_endpoint_stats(*endpoint, &json);
  }
  json += "},\"egress\":{";
  first = true;
  for (const auto& [id, endpoint] : egress_) {
    if (!first) json += ",";
    first = false;
    json += "\"" + std::to_string(id) + "\":";
    append_endpoint_stats(*endpoint, &json);
  }
  json += "},";
  append_view_stats(&json);  // each view's failure and runtime errors turned to NULL
  error_view_->append_stats(&json);
  return json + "}";
}

}  // namespace freshet
