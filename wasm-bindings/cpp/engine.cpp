#include "engine.h"

#include <limits>

#include "freshet/format/json_output.h"
#include "freshet/sql/program_description.h"
#include "js_chunk.h"
#include "js_row_chunk.h"

namespace freshet::wasm {
namespace {

// Rows of a Z-set whose rows are its keys, each repeated by its weight.
std::string rows_json(const Batch& batch, const Schema& schema) {
  format::JsonRowEncoder encoder(schema);
  std::string json = "[";
  bool first = true;
  for (size_t k = 0; k < batch.key_count(); ++k) {
    for (Weight w = batch.weight(batch.values_begin(k)); w > 0; --w) {
      if (!first) json += ',';
      first = false;
      encoder.append_row(batch.key(k), &json);
    }
  }
  return json + "]";
}

//! A materialized view's or materialized table's schema (snapshots read both).
const Schema& relation_schema(const sql::CompiledProgram& program, const std::string& name) {
  if (const sql::CompiledView* view = program.find_view(name)) return *view->schema;
  for (const sql::CompiledView& table : program.table_views) {
    if (table.name == name) return *table.schema;
  }
  if (const sql::CompiledView* system = program.find_system_view(name)) return *system->schema;  // error_view
  return *program.find_table(name)->schema;
}

}  // namespace

Status Engine::closed_status() { return Status(ErrorCode::kClosed, "the pipeline is not open"); }
Reply Engine::closed_reply() const { return Reply::error(closed_status()); }

Reply Engine::open(const std::string& sql) {
  if (pipeline_) return Reply::error(Status(ErrorCode::kInvalidArgument, "the engine already runs a pipeline"));
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(sql);
  if (!pipeline.ok()) return Reply::error(pipeline.status());
  pipeline_ = std::move(*pipeline);
  // The JS API: a snapshot reaches JS as one chunk, however large the view.
  pipeline_->set_snapshot_chunk_records(std::numeric_limits<size_t>::max());
  return Reply::ok();
}

Reply Engine::open_with_options(const std::string& sql, const std::string& on_runtime_error,
                                double error_view_retention) {
  if (pipeline_) return Reply::error(Status(ErrorCode::kInvalidArgument, "the engine already runs a pipeline"));
  sql::CompileOptions options;
  if (!on_runtime_error.empty()) {
    std::optional<sql::RuntimeErrorMode> mode = sql::parse_runtime_error_mode(on_runtime_error);
    if (!mode) {
      return Reply::error(
          Status(ErrorCode::kInvalidArgument, "onRuntimeError is 'fail' or 'null', not '" + on_runtime_error + "'"));
    }
    options.on_runtime_error = *mode;
  }
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(sql, options);
  if (!pipeline.ok()) return Reply::error(pipeline.status());
  options_ = options;
  pipeline_ = std::move(*pipeline);
  pipeline_->set_snapshot_chunk_records(std::numeric_limits<size_t>::max());  // as open()
  if (error_view_retention >= 0) pipeline_->set_error_view_retention(static_cast<size_t>(error_view_retention));
  return Reply::ok();
}

Reply Engine::describe_program() const {
  if (!pipeline_) return closed_reply();
  return Reply::ok(sql::describe_program(pipeline_->program()));
}

double Engine::ingest(const std::string& table, const std::string& data, const std::string& format,
                      const std::string& update_format, bool array) {
  IngestOptions options;
  if (format == "csv") {
    options.format = IngestFormat::kCsv;
  } else if (format != "json") {
    return failed(Status(ErrorCode::kInvalidArgument, "unknown format '" + format + "' (json or csv)"));
  }
  if (update_format == "raw") {
    options.json.update_format = format::UpdateFormat::kRaw;
  } else if (update_format != "insert_delete") {
    return failed(
        Status(ErrorCode::kInvalidArgument, "unknown update format '" + update_format + "' (insert_delete or raw)"));
  }
  options.json.array = array;
  return ingest_text(table, data, options);
}

double Engine::input_buffer(double bytes) {
  if (!(bytes > 0)) {
    input_.reset();
    input_size_ = 0;
    return 0;
  }
  size_t wanted = static_cast<size_t>(bytes) + format::kJsonPadding;
  if (input_size_ < wanted) {
    input_.reset();  // first: the old buffer's memory may serve the new one
    input_.reset(new char[wanted]);
    input_size_ = wanted;
  }
  return static_cast<double>(reinterpret_cast<uintptr_t>(input_.get()));
}

double Engine::ingest_input(double table, double bytes, double format, bool array) {
  const int format_number = static_cast<int>(format);
  IngestOptions options;
  options.format = format_number == kCsv ? IngestFormat::kCsv
                 : format_number == kRowBlock ? IngestFormat::kRowBlock
                                              : IngestFormat::kJson;
  options.json.update_format =
      format_number == kJsonRaw ? format::UpdateFormat::kRaw : format::UpdateFormat::kInsertDelete;
  options.json.array = array;
  options.json.padded = true;
  return ingest_buffer(table, bytes, options);
}

double Engine::ingest_block_part(double table, double bytes, double part, double total_rows) {
  IngestOptions options;
  options.format = IngestFormat::kRowBlock;
  const int part_number = static_cast<int>(part);
  if (!(part == part_number && part_number >= static_cast<int>(IngestPart::kWhole) &&
        part_number <= static_cast<int>(IngestPart::kLast))) {
    return failed(Status(ErrorCode::kInvalidArgument, "no ingest part of this number"));
  }
  options.part = static_cast<IngestPart>(part_number);
  options.total_rows = total_rows > 0 && total_rows < 4294967296.0 ? static_cast<uint64_t>(total_rows) : 0;
  return ingest_buffer(table, bytes, options);
}

double Engine::ingest_buffer(double table, double bytes, const IngestOptions& options) {
  if (!pipeline_) return failed(closed_status());
  const std::vector<sql::CompiledTable>& tables = pipeline_->program().tables;
  if (!(table >= 0 && table < static_cast<double>(tables.size()))) {
    return failed(Status(ErrorCode::kInvalidArgument, "the program has no table of this number"));
  }
  if (!(bytes >= 0 && static_cast<size_t>(bytes) + format::kJsonPadding <= input_size_)) {
    return failed(Status(ErrorCode::kInvalidArgument, "the input is larger than the input buffer"));
  }
  return ingest_text(tables[static_cast<size_t>(table)].name,
                     std::string_view(input_.get(), static_cast<size_t>(bytes)), options);
}

double Engine::ingest_text(std::string_view table, std::string_view data, const IngestOptions& options) {
  last_error_ = Reply::ok();
  if (!pipeline_) return failed(closed_status());
  Result<uint64_t> token = pipeline_->ingest(table, data, options);
  if (!token.ok()) return failed(token.status());
  return static_cast<double>(*token);
}

double Engine::step() {
  last_error_ = Reply::ok();
  if (!pipeline_) return failed(closed_status());
  Result<StepResult> result = pipeline_->step();
  if (!result.ok()) return failed(result.status());
  exchange_[kStepInputRecords] = static_cast<double>(result->input_records);
  return static_cast<double>(result->step);
}

bool Engine::uses_clock() const { return pipeline_ && pipeline_->uses_clock(); }

void Engine::set_clock(double micros) {
  if (pipeline_) pipeline_->set_clock(static_cast<int64_t>(micros));
}

double Engine::clock() const {
  std::optional<int64_t> now = pipeline_ ? pipeline_->clock() : std::nullopt;
  return now ? static_cast<double>(*now) : -1;
}

double Engine::next_clock_change() const {
  std::optional<int64_t> next = pipeline_ ? pipeline_->next_clock_change() : std::nullopt;
  return next ? static_cast<double>(*next) : -1;
}

bool Engine::needs_step() const { return pipeline_ && pipeline_->needs_step(); }
bool Engine::has_buffered_input() const { return pipeline_ && pipeline_->buffered_records() > 0; }
bool Engine::can_auto_step() const { return pipeline_ && pipeline_->can_auto_step(); }

void Engine::set_memory_budget(double bytes) {
  if (pipeline_) pipeline_->set_memory_budget(bytes >= 4294967296.0 ? 0 : static_cast<size_t>(bytes));
}

void Engine::set_paused(bool paused) {
  if (!pipeline_) return;
  if (paused) {
    pipeline_->pause();
  } else {
    pipeline_->resume();
  }
}

Reply Engine::snapshot(const std::string& view) const {
  if (!pipeline_) return closed_reply();
  Result<BatchPtr> rows = pipeline_->snapshot(view);
  if (!rows.ok()) return Reply::error(rows.status());
  std::string json = rows_json(**rows, relation_schema(pipeline_->program(), view));
  return Reply::ok(std::move(mark_inexact_for_js(json)));
}

Reply Engine::lookup(const std::string& index_name, const std::string& key_json) const {
  if (!pipeline_) return closed_reply();
  Result<SchemaPtr> key_schema = pipeline_->index_key_schema(index_name);
  if (!key_schema.ok()) return Reply::error(key_schema.status());
  // The key is read like one raw record of a table whose columns are the key's.
  format::InputOptions options;
  options.update_format = format::UpdateFormat::kRaw;
  options.array = false;
  Result<format::ParsedUpdates> key = format::parse_json(key_json, format::TableShape{key_schema->get(), {}}, options);
  if (!key.ok()) return Reply::error(Status(key.status().code(), "lookup key: " + key.status().message()));
  if (key->size() != 1) return Reply::error(Status(ErrorCode::kInvalidArgument, "lookup takes exactly one key"));
  Result<std::vector<std::string>> rows = pipeline_->lookup(index_name, RowRef((*key)[0].row));
  if (!rows.ok()) return Reply::error(rows.status());
  const sql::CompiledProgram& program = pipeline_->program();
  format::JsonRowEncoder encoder(*program.find_view(program.find_index(index_name)->view)->schema);
  std::string json = "[";
  for (size_t i = 0; i < rows->size(); ++i) {
    if (i) json += ',';
    encoder.append_row(RowRef((*rows)[i]), &json);
  }
  json += ']';
  return Reply::ok(std::move(mark_inexact_for_js(json)));
}

Reply Engine::add_output(const std::string& name, const std::string& view, const std::string& index, bool send_snapshot,
                         bool resettable, const std::string& description, double connector) {
  if (!pipeline_) return closed_reply();
  EndpointConfig config;
  config.view = view;
  config.index = index;
  config.send_snapshot = send_snapshot;
  auto sink = std::make_shared<JsSink>(connector, resettable, description, outbox_);
  Status added = pipeline_->add_connector(name, std::move(config), sink);
  if (!added.ok()) return Reply::error(added);
  connector_names_[connector] = name;
  // number 1: a checkpointed connector of this name was configured otherwise,
  // so it starts afresh and JS wipes its destination first.
  return Reply::number_only(sink->reset_requested() ? 1 : 0);
}

Reply Engine::remove_output(const std::string& name) {
  if (!pipeline_) return closed_reply();
  Status removed = pipeline_->remove_connector(name);
  if (!removed.ok()) return Reply::error(removed);
  for (auto it = connector_names_.begin(); it != connector_names_.end(); ++it) {
    if (it->second == name) {
      connector_names_.erase(it);
      break;
    }
  }
  return Reply::ok();
}

Reply Engine::acknowledge(const std::string& name, double sequence_number) {
  if (!pipeline_) return closed_reply();
  Status acknowledged = pipeline_->acknowledge(name, static_cast<uint64_t>(sequence_number));
  return acknowledged.ok() ? Reply::ok() : Reply::error(acknowledged);
}

Reply Engine::reset_output(const std::string& name) {
  if (!pipeline_) return closed_reply();
  Status reset = pipeline_->reset_output(name);
  return reset.ok() ? Reply::ok() : Reply::error(reset);
}

double Engine::take_writes_in_place() {
  outbox_->take(&writes_);
  exchange_[kTextAddress] = static_cast<double>(reinterpret_cast<uintptr_t>(writes_.data()));
  return static_cast<double>(writes_.size() * sizeof(uint64_t));
}

double Engine::acknowledge_connector(double connector, double sequence_number) {
  last_error_ = Reply::ok();
  if (!pipeline_) return failed(closed_status());
  auto name = connector_names_.find(connector);
  if (name == connector_names_.end()) return failed(Status(ErrorCode::kUnknownOutput, "unknown output"));
  Status acknowledged = pipeline_->acknowledge(name->second, static_cast<uint64_t>(sequence_number));
  if (!acknowledged.ok()) return failed(acknowledged);
  return outbox_->empty() ? 0 : 1;
}

namespace {

//! An egress endpoint's configuration from open_egress's arguments.
Result<EndpointConfig> egress_config(const std::string& view, const std::string& index, bool send_snapshot,
                                     double max_queued_chunks, const std::string& on_lag) {
  EndpointConfig config;
  config.view = view;
  config.index = index;
  config.send_snapshot = send_snapshot;
  config.max_queued_chunks = max_queued_chunks < 1 ? 1 : static_cast<size_t>(max_queued_chunks);
  if (on_lag == "coalesce") {
    config.on_lag = LagPolicy::kCoalesce;
  } else if (on_lag == "drop") {
    config.on_lag = LagPolicy::kDrop;
  } else if (on_lag != "block") {
    return Status(ErrorCode::kInvalidArgument, "unknown onLag '" + on_lag + "' (block, coalesce or drop)");
  }
  return config;
}

}  // namespace

Reply Engine::open_egress(const std::string& view, const std::string& index, bool send_snapshot,
                          double max_queued_chunks, const std::string& on_lag) {
  if (!pipeline_) return closed_reply();
  Result<EndpointConfig> config = egress_config(view, index, send_snapshot, max_queued_chunks, on_lag);
  if (!config.ok()) return Reply::error(config.status());
  Result<uint64_t> id = pipeline_->open_egress(std::move(*config));
  if (!id.ok()) return Reply::error(id.status());
  return Reply::number_only(static_cast<double>(*id));
}

Reply Engine::open_named_egress(const std::string& name, const std::string& view, const std::string& index,
                                bool send_snapshot, double max_queued_chunks, const std::string& on_lag,
                                double resume_after, double retention_chunks, double retention_bytes) {
  if (!pipeline_) return closed_reply();
  Result<EndpointConfig> config = egress_config(view, index, send_snapshot, max_queued_chunks, on_lag);
  if (!config.ok()) return Reply::error(config.status());
  // A snapshot in chunks of this many records, one wire line each (edge-worker/egress_response.js).
  config->snapshot_chunk_records = 10000;
  RetentionLimits retention;
  if (retention_chunks >= 0) retention.max_chunks = static_cast<size_t>(retention_chunks);
  if (retention_bytes >= 0) retention.max_bytes = static_cast<size_t>(retention_bytes);
  std::optional<uint64_t> after;
  if (resume_after >= 0) after = static_cast<uint64_t>(resume_after);
  Result<uint64_t> id = pipeline_->open_named_egress(name, std::move(*config), retention, after);
  if (!id.ok()) return Reply::error(id.status());
  return Reply::number_only(static_cast<double>(*id));
}

Reply Engine::close_named_egress(const std::string& name) {
  if (!pipeline_) return closed_reply();
  Status closed = pipeline_->close_named_egress(name);
  return closed.ok() ? Reply::ok() : Reply::error(closed);
}

Reply Engine::close_egress(double id) {
  if (!pipeline_) return closed_reply();
  Status closed = pipeline_->close_egress(static_cast<uint64_t>(id));
  return closed.ok() ? Reply::ok() : Reply::error(closed);
}

bool Engine::take_chunk(double id, std::string* out) {
  last_error_ = Reply::ok();
  if (!pipeline_) {
    failed(closed_status());
    return false;
  }
  Result<std::optional<OutputChunk>> chunk = pipeline_->next_chunk(static_cast<uint64_t>(id));
  if (!chunk.ok()) {
    failed(chunk.status());
    return false;
  }
  if (!*chunk) return false;
  append_js_chunk(*pipeline_->egress(static_cast<uint64_t>(id)), **chunk, out);
  mark_inexact_for_js(*out);
  return true;
}

std::string Engine::next_chunk(double id) {
  std::string json;
  take_chunk(id, &json);
  return json;
}

double Engine::next_chunk_in_place(double id) {
  output_.clear();
  if (!take_chunk(id, &output_)) return last_error_.code.empty() ? 0 : -1;
  exchange_[kTextAddress] = static_cast<double>(reinterpret_cast<uintptr_t>(output_.data()));
  return static_cast<double>(output_.size());
}

double Engine::next_js_chunk_in_place(double id) {
  last_error_ = Reply::ok();
  if (!pipeline_) return failed(closed_status());
  Result<std::optional<OutputChunk>> chunk = pipeline_->next_chunk(static_cast<uint64_t>(id));
  if (!chunk.ok()) return failed(chunk.status());
  if (!*chunk) return 0;
  const OutputEndpoint& endpoint = *pipeline_->egress(static_cast<uint64_t>(id));
  if (row_chunk_.capacity() > kKeptRowChunkWords) row_chunk_ = {};  // a snapshot's buffer is not kept
  if (write_js_row_chunk(endpoint, **chunk, &row_chunk_)) {
    exchange_[kChunkFormat] = kRowChunk;
    exchange_[kTextAddress] = static_cast<double>(reinterpret_cast<uintptr_t>(row_chunk_.data()));
    return static_cast<double>(row_chunk_.size() * sizeof(uint64_t));
  }
  output_.clear();
  append_js_chunk(endpoint, **chunk, &output_);
  mark_inexact_for_js(output_);
  exchange_[kChunkFormat] = kJsonChunk;
  exchange_[kTextAddress] = static_cast<double>(reinterpret_cast<uintptr_t>(output_.data()));
  return static_cast<double>(output_.size());
}

Reply Engine::completion_status(double token) const {
  if (!pipeline_) return closed_reply();
  if (!(token >= 0) || token != static_cast<double>(static_cast<uint64_t>(token))) {
    return Reply::error(Status(ErrorCode::kUnknownToken, "unknown completion token"));
  }
  Result<bool> complete = pipeline_->completion_status(static_cast<uint64_t>(token));
  if (!complete.ok()) return Reply::error(complete.status());
  return Reply::number_only(*complete ? 1 : 0);
}

std::string Engine::stats() const { return pipeline_ ? pipeline_->stats_json() : "{}"; }

Reply Engine::explain(const std::string& view) const {
  if (!pipeline_) return closed_reply();
  Result<std::string> json = pipeline_->explain_json(view);
  return json.ok() ? Reply::ok(std::move(*json)) : Reply::error(json.status());
}

}  // namespace freshet::wasm
