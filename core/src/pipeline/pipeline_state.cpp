// Pipeline::save_state and restore_state: the pipeline's part of a
// checkpoint. Sections:
//   pipeline  step count, completion tokens, input statistics
//   circuit   every operator's state (Circuit::save_state)
//   views     the traces of every view, by name
//   outputs   every connector: name, view, index, EndpointCheckpoint
//   named_egress  every named egress: name, configuration, retention limits,
//             EndpointCheckpoint whose queue starts with the retained chunks
//             (optional: format-4 checkpoints have none)
//   error_view  its rows and counters (optional: older checkpoints have none)
//   host      the host's own bytes
//   failures  the circuit's failed operators (Circuit::save_failures), so
//             failed views stay failed (optional: format 4 and 5 have none)
// The checkpoint format around them (manifest, parts, checksums) is checkpoint/'s.
#include "pipeline_state.h"

#include "freshet/pipeline/pipeline.h"
#include "freshet/sql/lexer.h"
#include "freshet/zset/batch_codec.h"

namespace freshet {

uint64_t program_hash_of(std::string_view sql) {
  Result<std::vector<sql::Token>> tokens = sql::tokenize(sql);
  std::string canonical;
  if (tokens.ok()) {
    for (const sql::Token& token : *tokens) {
      canonical += static_cast<char>(token.kind);
      canonical += token.quoted ? '"' : ' ';
      canonical += std::to_string(token.text.size()) + ":" + token.text;
    }
  } else {
    canonical = sql;
  }
  return hash_bytes(reinterpret_cast<const uint8_t*>(canonical.data()), canonical.size());
}

namespace {

constexpr const char* kSectionNames[] = {"pipeline", "circuit", "views", "outputs", "host"};

void write_stats(ByteWriter& out, const EndpointStats& s) {
  out.u64(s.transmitted_records);
  out.u64(s.transmitted_batches);
  out.u64(s.snapshot_records);
  out.u64(s.snapshot_total);
  out.u64(s.resets);
  out.u64(s.errors);
  out.u64(s.dropped_chunks);
  out.bytes(s.last_error);
}

EndpointStats read_stats(ByteReader& in) {
  EndpointStats s;
  s.transmitted_records = in.u64();
  s.transmitted_batches = in.u64();
  s.snapshot_records = in.u64();
  s.snapshot_total = in.u64();
  s.resets = in.u64();
  s.errors = in.u64();
  s.dropped_chunks = in.u64();
  s.last_error = std::string(in.bytes());
  return s;
}

void write_endpoint(ByteWriter& out, const EndpointCheckpoint& saved) {
  out.u64(saved.fingerprint);
  out.u8(static_cast<uint8_t>(saved.state));
  out.boolean(saved.reset_in_progress);
  out.u64(saved.next_sequence);
  write_stats(out, saved.stats);
  out.varint(saved.queue.size());
  for (const OutputChunk& chunk : saved.queue) {
    out.u64(chunk.sequence_number);
    out.u64(chunk.step);
    out.boolean(chunk.snapshot);
    out.boolean(chunk.snapshot_complete);
    out.u64(chunk.records);
    write_batch(out, *chunk.batch);
  }
}

EndpointCheckpoint read_endpoint(ByteReader& in, const RowCheck& keys, const RowCheck& values) {
  EndpointCheckpoint saved;
  saved.fingerprint = in.u64();
  uint8_t state = in.u8();
  if (state > static_cast<uint8_t>(SnapshotState::kSent)) in.fail("unknown snapshot state " + std::to_string(state));
  saved.state = static_cast<SnapshotState>(state);
  saved.reset_in_progress = in.boolean();
  saved.next_sequence = in.u64();
  saved.stats = read_stats(in);
  // A chunk is at least 28 bytes: three u64, two booleans and a batch of no
  // rows (its two counts) — the snapshot of an empty view is such a chunk.
  size_t chunks = in.count(28);
  for (size_t i = 0; i < chunks && in.ok(); ++i) {
    OutputChunk chunk;
    chunk.sequence_number = in.u64();
    chunk.step = in.u64();
    chunk.snapshot = in.boolean();
    chunk.snapshot_complete = in.boolean();
    chunk.records = static_cast<size_t>(in.u64());
    chunk.batch = read_batch(in, keys, values);
    if (in.ok()) saved.queue.push_back(std::move(chunk));
  }
  return saved;
}

// An endpoint's queued chunks, their rows checked against what it reads:
// `view` by `index` (keys the index's, values the view's rows) or whole
// (the rows as keys); with no view (one a program change removed or
// rebuilt: the endpoint is dropped) any rows are read past.
EndpointCheckpoint read_endpoint(ByteReader& in, const MaterializedView* view, std::optional<size_t> index) {
  if (!view) return read_endpoint(in, any_row(), any_row());
  if (index) return read_endpoint(in, rows_of(view->indexes()[*index]->key_schema), rows_of(view->view().schema));
  return read_endpoint(in, rows_of(view->view().schema), rows_of(empty_schema()));
}


}  // namespace

Result<SavedState> Pipeline::save_state() const {
  if (!failure_.ok()) return failure_;
  SavedState state;
  ByteWriter out;
  out.reserve(memory_bytes() + 4096);  // about the size of the state: one allocation
  auto section = [&](const char* name, auto&& write) {
    size_t offset = out.size();
    write();
    state.sections.push_back({name, offset, out.size() - offset});
  };
  section("pipeline", [&] {
    out.u64(steps_);
    out.u64(next_token_);
    out.u64(first_unstepped_token_);
    out.u64(completed_below_);
    out.varint(token_ranges_.size());
    for (const TokenRange& range : token_ranges_) {
      out.u64(range.limit);
      out.u64(range.step);
    }
    out.u64(pending_records_);
    out.varint(input_stats_.size());
    for (const auto& [table, stats] : input_stats_) {
      out.bytes(table);
      out.u64(stats.total_records);
      out.u64(stats.total_bytes);
      out.u64(stats.parse_errors);
    }
  });
  section("circuit", [&] { program_->circuit->save_state(out); });
  section("views", [&] { save_views_by_id(out); });
  section("outputs", [&] {
    out.varint(connectors_.size());
    for (const auto& [name, endpoint] : connectors_) {
      out.bytes(name);
      out.bytes(endpoint->config().view);
      out.bytes(endpoint->config().index);
      write_endpoint(out, endpoint->checkpoint());
    }
  });
  section("host", [&] { out.raw(host_state_); });
  section("named_egress", [&] { save_named_egress(out); });
  section("failures", [&] { program_->circuit->save_failures(out); });
  section("error_view", [&] { error_view_->save_state(out); });
  state.payload = out.take();
  return state;
}

Status Pipeline::restore_state(const SavedState& state) {
  if (steps_ != 0 || next_token_ != 0 || !connectors_.empty()) {
    return Status(ErrorCode::kInvalidArgument, "a checkpoint can only be restored into a pipeline just created");
  }
  std::map<std::string_view, std::string_view> by_name;
  for (const SavedState::Section& section : state.sections) {
    if (section.offset > state.payload.size() || section.size > state.payload.size() - section.offset) {
      return Status(ErrorCode::kCheckpointCorrupt, "section '" + section.name + "' lies outside the payload");
    }
    by_name[section.name] = state.bytes(section);
  }
  for (const char* name : kSectionNames) {
    if (!by_name.count(name)) return Status(ErrorCode::kCheckpointCorrupt, std::string("section '") + name + "' is missing");
  }

  // Format 7 names operators by id and views by name: it restores into a
  // changed program (program_change.cpp); older formats by position.
  const bool by_id = state.format_version == 0 || state.format_version >= 7;
  ByteReader pipeline(by_name["pipeline"], "section 'pipeline'");
  steps_ = pipeline.u64();
  next_token_ = pipeline.u64();
  first_unstepped_token_ = pipeline.u64();
  completed_below_ = pipeline.u64();
  size_t ranges = pipeline.count(16);
  for (size_t i = 0; i < ranges && pipeline.ok(); ++i) {
    TokenRange range;
    range.limit = pipeline.u64();
    range.step = pipeline.u64();
    token_ranges_.push_back(range);
  }
  pending_records_ = pipeline.u64();
  size_t tables = pipeline.count(25);
  for (size_t i = 0; i < tables && pipeline.ok(); ++i) {
    std::string table(pipeline.bytes());
    InputStats stats;
    stats.total_records = pipeline.u64();
    stats.total_bytes = pipeline.u64();
    stats.parse_errors = pipeline.u64();
    if (!pipeline.ok()) break;
    if (!input_stats_.count(table)) {
      if (by_id) {  // format 7 reads other programs: this one lost a table
        return Status(ErrorCode::kProgramMismatch, "table '" + table + "' of the checkpoint's program is not in this "
                      "program: a table added, removed or changed needs a fresh start (on program change: restart)");
      }
      pipeline.fail("unknown table '" + table + "'");
      break;
    }
    input_stats_[table] = stats;
  }
  pipeline.expect_end();
  if (pipeline.ok() && !(completed_below_ <= first_unstepped_token_ && first_unstepped_token_ <= next_token_)) {
    pipeline.fail("inconsistent completion tokens");
  }
  FRESHET_RETURN_IF_ERROR(pipeline.status());

  if (by_id) {
    std::optional<std::string_view> failures;
    if (by_name.count("failures")) failures = by_name["failures"];
    FRESHET_RETURN_IF_ERROR(restore_by_id(by_name["circuit"], failures, by_name["views"]));
  } else {
    FRESHET_RETURN_IF_ERROR(program_->circuit->restore_state(by_name["circuit"]));
    if (program_->circuit->step_count() != steps_) {
      return Status(ErrorCode::kCheckpointCorrupt, "the circuit ran " + std::to_string(program_->circuit->step_count()) +
                                                       " steps, the pipeline " + std::to_string(steps_));
    }
    if (by_name.count("failures")) FRESHET_RETURN_IF_ERROR(program_->circuit->restore_failures(by_name["failures"]));

    ByteReader views(by_name["views"], "section 'views'");
    size_t view_count = views.count(1);
    if (views.ok() && view_count != views_.size()) {
      views.fail("it holds " + std::to_string(view_count) + " views, the program has " + std::to_string(views_.size()));
    }
    for (size_t i = 0; i < view_count && views.ok(); ++i) {
      std::string_view name = views.bytes();
      if (views.ok() && name != views_[i]->view().name) {
        views.fail("view " + std::to_string(i) + " is '" + std::string(name) + "', the program's is '" +
                   views_[i]->view().name + "'");
      }
      if (views.ok()) views_[i]->restore_state(views);
    }
    views.expect_end();
    FRESHET_RETURN_IF_ERROR(views.status());
  }
  mark_failed_views();

  ByteReader outputs(by_name["outputs"], "section 'outputs'");
  size_t connectors = outputs.count(3);
  for (size_t i = 0; i < connectors && outputs.ok(); ++i) {
    std::string name(outputs.bytes());
    std::string view_name(outputs.bytes());
    std::string index_name(outputs.bytes());
    if (!outputs.ok()) break;
    const MaterializedView* view = find_view(view_name);
    std::optional<size_t> index = view && !index_name.empty() ? view->index_ordinal(index_name) : std::nullopt;
    const bool gone = !view || (!index_name.empty() && !index);
    if (gone && !by_id) {
      outputs.fail("output '" + name + "' names an unknown view or index");
      break;
    }
    // A view a program change removed or rebuilt: what the connector had is
    // not what it has now (and its rows may have other columns): skipped.
    const bool keep = !gone && !rebuilt_views_.count(view_name);
    EndpointCheckpoint saved = read_endpoint(outputs, keep ? view : nullptr, index);
    if (outputs.ok() && keep) restored_connectors_[name] = std::move(saved);
  }
  outputs.expect_end();
  FRESHET_RETURN_IF_ERROR(outputs.status());

  host_state_ = std::string(by_name["host"]);
  // replace_from: the old pipeline's endpoints are taken over whole instead (program_replace.cpp).
  if (by_name.count("named_egress") && !rebuild_failed_) {
    FRESHET_RETURN_IF_ERROR(restore_named_egress(by_name["named_egress"], by_id));
  }
  if (by_name.count("error_view")) {  // optional: checkpoints before it have none, and restore it empty
    ByteReader errors(by_name["error_view"], "section 'error_view'");
    error_view_->restore_state(errors);
    errors.expect_end();
    FRESHET_RETURN_IF_ERROR(errors.status());
  }
  return Status::OK();
}

void Pipeline::save_named_egress(ByteWriter& out) const {
  out.varint(named_egress_.size());
  for (const auto& [name, id] : named_egress_) {
    const OutputEndpoint& endpoint = *egress_.at(id);
    const EndpointConfig& config = endpoint.config();
    out.bytes(name);
    out.bytes(config.view);
    out.bytes(config.index);
    out.boolean(config.send_snapshot);
    out.u64(config.max_queued_chunks);
    out.u8(static_cast<uint8_t>(config.on_lag));
    out.u64(config.snapshot_chunk_records);
    out.u64(endpoint.retention()->limits().max_chunks);
    out.u64(endpoint.retention()->limits().max_bytes);
    EndpointCheckpoint saved = endpoint.checkpoint();
    const std::deque<OutputChunk>& retained = endpoint.retention()->chunks();
    out.varint(retained.size());
    saved.queue.insert(saved.queue.begin(), retained.begin(), retained.end());
    write_endpoint(out, saved);
  }
}

Status Pipeline::restore_named_egress(std::string_view bytes, bool other_program) {
  ByteReader in(bytes, "section 'named_egress'");
  size_t count = in.count(30);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    std::string name(in.bytes());
    EndpointConfig config;
    config.view = std::string(in.bytes());
    config.index = std::string(in.bytes());
    config.send_snapshot = in.boolean();
    config.max_queued_chunks = static_cast<size_t>(in.u64());
    uint8_t on_lag = in.u8();
    config.snapshot_chunk_records = static_cast<size_t>(in.u64());
    RetentionLimits limits;
    limits.max_chunks = static_cast<size_t>(in.u64());
    limits.max_bytes = static_cast<size_t>(in.u64());
    size_t retained = static_cast<size_t>(in.varint());
    if (!in.ok()) break;
    if (on_lag > static_cast<uint8_t>(LagPolicy::kDrop)) {
      in.fail("unknown lag policy " + std::to_string(on_lag));
      break;
    }
    config.on_lag = static_cast<LagPolicy>(on_lag);
    const MaterializedView* view = find_view(config.view);
    std::optional<size_t> index = view && !config.index.empty() ? view->index_ordinal(config.index) : std::nullopt;
    const bool gone = !view || (!config.index.empty() && !index);
    if (gone && !other_program) {
      in.fail("egress '" + name + "' names an unknown view or index");
      break;
    }
    // A view a program change removed or rebuilt: its named egress ends (its
    // client resumes into UNKNOWN_VIEW or a fresh snapshot).
    const bool keep = !gone && !rebuilt_views_.count(config.view);
    EndpointCheckpoint saved = read_endpoint(in, keep ? view : nullptr, index);
    if (!in.ok()) break;
    if (!keep) continue;
    if (retained > saved.queue.size()) {
      in.fail("egress '" + name + "' retains more chunks than it saved");
      break;
    }
    std::deque<OutputChunk> kept(saved.queue.begin(), saved.queue.begin() + static_cast<std::ptrdiff_t>(retained));
    saved.queue.erase(saved.queue.begin(), saved.queue.begin() + static_cast<std::ptrdiff_t>(retained));
    Result<std::unique_ptr<OutputEndpoint>> endpoint = make_endpoint(name, std::move(config), nullptr);
    if (!endpoint.ok()) return Status(ErrorCode::kCheckpointCorrupt, endpoint.status().message());
    (*endpoint)->retain(limits);
    (*endpoint)->resume_from(std::move(saved));
    (*endpoint)->restore_retained(std::move(kept));
    uint64_t id = next_egress_++;
    egress_.emplace(id, std::move(*endpoint));
    named_egress_[name] = id;
  }
  in.expect_end();
  return in.status();
}

}  // namespace freshet
