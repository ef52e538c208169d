// A checkpoint restored into a program that changed (format 7: operators by
// id, views by name). What did not change keeps its state; what is new, or
// was failed, is bootstrapped from the integrals of its inputs
// (circuit_bootstrap.cpp); what was removed is dropped.
//
// A view keeps its traces when the operator writing its stream has the id
// it had (the same view text over the same tables) and is not rebuilt (nor
// is anything upstream of it: a view over a changed view is changed);
// otherwise it is rebuilt from the bootstrap's output. PROGRAM_MISMATCH when
// a table was added, removed or changed in its columns or key, or a view
// needs a table's full contents that the checkpoint does not hold (a table
// without PRIMARY KEY that is not materialized keeps no rows).
#include <algorithm>
#include <map>
#include <set>

#include "freshet/pipeline/pipeline.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"

namespace freshet {
namespace {

struct SavedView {
  std::string producer_id;
  std::string_view traces;
};

Result<std::map<std::string, SavedView, std::less<>>> read_views(std::string_view bytes) {
  ByteReader in(bytes, "section 'views'");
  size_t count = in.count(10);
  std::map<std::string, SavedView, std::less<>> views;
  for (size_t i = 0; i < count && in.ok(); ++i) {
    std::string name(in.bytes());
    SavedView view;
    view.producer_id = std::string(in.bytes());
    uint64_t length = in.u64();
    if (in.ok() && length > in.remaining()) in.fail("view '" + name + "'s traces run past the end");
    view.traces = in.raw(static_cast<size_t>(length));
    if (in.ok()) views[name] = view;
  }
  in.expect_end();
  if (!in.ok()) return in.status();
  return views;
}

//! The operator that feeds a table (its input), whichever kind it is.
size_t table_source(const Circuit& circuit, const sql::CompiledTable& table) {
  Stream input = table.upsert_input ? table.upsert_input->stream() : table.input->stream();
  return circuit.producer_of(input);
}

//! The clock's output integral: the row of the time it last emitted (its
//! time, at a step boundary), or null for another stream.
BatchPtr clock_integral(const ClockOperator* clock, uint32_t stream) {
  if (!clock || clock->stream().id() != stream) return nullptr;
  if (!clock->started()) return Batch::empty_batch();
  RowBuilder row(clock->stream().key_schema());
  row.set_int(0, clock->now());
  BatchBuilder rows;
  rows.add_row(row.finish(), 1);
  return rows.finish();
}

//! The ids of the failed operators in section 'failures' (format 7).
Result<std::set<std::string>> read_failed_ids(std::string_view bytes) {
  ByteReader in(bytes, "section 'failures'");
  size_t count = in.count(11);
  std::set<std::string> ids;
  for (size_t i = 0; i < count && in.ok(); ++i) {
    ids.insert(std::string(in.bytes()));
    in.u64();
    in.bytes();
    in.bytes();
  }
  in.expect_end();
  if (!in.ok()) return in.status();
  return ids;
}

//! PROGRAM_MISMATCH when a table's input must be rebuilt: a view needs
//! the table's full contents, which the checkpoint does not hold.
Status check_tables_kept(const Circuit& circuit, const sql::CompiledProgram& program, const std::vector<bool>& rebuild,
                         const std::vector<MaterializedView*>& rebuilt) {
  for (const sql::CompiledTable& table : program.tables) {
    size_t source = table_source(circuit, table);
    if (!rebuild[source]) continue;
    std::string view = "a view";
    std::vector<size_t> downstream = circuit.downstream_of(source);
    for (const MaterializedView* candidate : rebuilt) {
      size_t producer = circuit.producer_of(candidate->view().stream);
      if (std::find(downstream.begin(), downstream.end(), producer) != downstream.end()) {
        view = "view '" + candidate->view().name + "'";
        break;
      }
    }
    return Status(ErrorCode::kProgramMismatch,
                  view + " is new or changed and needs the full contents of table '" + table.name +
                      "', which the checkpoint does not hold (a table keeps its rows only with a PRIMARY KEY or "
                      "WITH ('materialized' = 'true')): declare one of them, or start afresh (on program change: restart)");
  }
  return Status::OK();
}

}  // namespace

void Pipeline::save_views_by_id(ByteWriter& out) const {
  const Circuit& circuit = *program_->circuit;
  out.varint(views_.size());
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    out.bytes(view->view().name);
    out.bytes(circuit.operator_id(circuit.producer_of(view->view().stream)));
    size_t length_at = out.size();
    out.u64(0);
    view->save_state(out);
    out.patch_u64(length_at, out.size() - length_at - 8);
  }
}

// The operators to rebuild are chosen before any state is restored, so that
// they stay fresh (rebuilt from scratch): those without state in the
// checkpoint, failed ones when the program changed, and what the closure
// adds (circuit_bootstrap.cpp). Whether a stream will give its integral is
// known before restoring: a kept materialized view's trace, or a producer
// that keeps it (Operator::output_integral is null for the others).
Status Pipeline::restore_by_id(std::string_view circuit_bytes, std::optional<std::string_view> failures,
                               std::string_view views_bytes) {
  Circuit& circuit = *program_->circuit;
  Result<std::map<std::string, std::string>> saved_ids = Circuit::saved_ids(circuit_bytes);
  if (!saved_ids.ok()) return saved_ids.status();
  Result<std::map<std::string, SavedView, std::less<>>> saved_views = read_views(views_bytes);
  if (!saved_views.ok()) return saved_views.status();
  Result<std::set<std::string>> failed_ids = failures ? read_failed_ids(*failures) : std::set<std::string>();
  if (!failed_ids.ok()) return failed_ids.status();

  const size_t count = circuit.operator_count();
  std::vector<bool> rebuild(count, false);
  bool changed = rebuild_failed_ || saved_ids->size() != count || saved_views->size() != views_.size();
  for (size_t i = 0; i < count; ++i) {
    auto saved = saved_ids->find(circuit.operator_id(i));
    rebuild[i] = saved == saved_ids->end() || saved->second != circuit.operator_at(i).name();
    changed = changed || rebuild[i];
  }
  for (const sql::CompiledTable& table : program_->tables) {
    if (rebuild[table_source(circuit, table)]) {
      return Status(ErrorCode::kProgramMismatch,
                    "table '" + table.name + "' is new or changed its columns or key since the checkpoint: a table "
                    "added, removed or changed needs a fresh start (on program change: restart)");
    }
  }
  // A program change rebuilds failed operators too: their state stopped mid-step.
  if (changed) {
    for (size_t i = 0; i < count; ++i) rebuild[i] = rebuild[i] || failed_ids->count(circuit.operator_id(i)) > 0;
  }
  // What reads a rebuilt operator's output is rebuilt too: its id is the same
  // (the same text), but its state was built from the old output (a view over
  // a changed view would keep the old contents).
  std::vector<bool> seeds = rebuild;
  for (size_t i = 0; i < count; ++i) {
    if (!seeds[i]) continue;
    for (size_t downstream : circuit.downstream_of(i)) rebuild[downstream] = true;
  }
  // A view keeps its traces when what writes it is the same and kept.
  std::vector<MaterializedView*> rebuilt;
  std::set<uint32_t> kept_streams;
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    auto saved = saved_views->find(view->view().name);
    size_t producer = circuit.producer_of(view->view().stream);
    if (saved != saved_views->end() && saved->second.producer_id == circuit.operator_id(producer) && !rebuild[producer]) {
      if (view->materialized()) kept_streams.insert(view->view().stream.id());
    } else {
      rebuilt.push_back(view.get());
    }
  }
  if (changed || !rebuilt.empty()) {
    std::vector<uint32_t> wanted;
    for (const MaterializedView* view : rebuilt) {
      wanted.push_back(view->view().stream.id());
      for (const sql::CompiledIndex* index : view->indexes()) wanted.push_back(index->stream.id());
    }
    Circuit::IntegralLookup will_have = [&](uint32_t stream) -> BatchPtr {
      bool clock = program_->clock && program_->clock->stream().id() == stream;  // clock_integral
      return kept_streams.count(stream) || clock ? Batch::empty_batch() : nullptr;
    };
    circuit.close_rebuild_set(rebuild, wanted, will_have);
    FRESHET_RETURN_IF_ERROR(check_tables_kept(circuit, *program_, rebuild, rebuilt));
  }

  std::vector<bool> restored(count);
  for (size_t i = 0; i < count; ++i) restored[i] = !rebuild[i];
  FRESHET_RETURN_IF_ERROR(circuit.restore_state_by_id(circuit_bytes, restored));
  if (circuit.step_count() != steps_) {
    return Status(ErrorCode::kCheckpointCorrupt, "the circuit ran " + std::to_string(circuit.step_count()) +
                                                     " steps, the pipeline " + std::to_string(steps_));
  }
  if (failures) FRESHET_RETURN_IF_ERROR(circuit.restore_failures(*failures, /*by_id=*/true, &restored));
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    if (std::find(rebuilt.begin(), rebuilt.end(), view.get()) != rebuilt.end()) continue;
    ByteReader in(saved_views->find(view->view().name)->second.traces, "traces of view '" + view->view().name + "'");
    view->restore_state(in);
    in.expect_end();
    FRESHET_RETURN_IF_ERROR(in.status());
  }
  size_t restored_count = 0;
  for (bool r : restored) restored_count += r ? 1 : 0;
  restored_operators_ = restored_count;
  rebuilt_operators_ = count - restored_count;
  if (!changed && rebuilt.empty()) return Status::OK();
  return bootstrap_views(rebuild, rebuilt);
}

Status Pipeline::replace_from(const SavedState& state) {
  rebuild_failed_ = true;
  Status restored = restore_state(state);
  rebuild_failed_ = false;
  return restored;
}

// The bootstrap itself, once the operators not rebuilt and the views kept
// have their state: boundary streams carry their integrals.
Status Pipeline::bootstrap_views(std::vector<bool> rebuild, std::vector<MaterializedView*> rebuilt) {
  Circuit& circuit = *program_->circuit;
  std::set<const MaterializedView*> rebuilding(rebuilt.begin(), rebuilt.end());
  // Integrals outside the operators: a kept materialized view's (or
  // materialized table's) trace; and an operator's own, taken once.
  std::map<uint32_t, BatchPtr> integrals;
  Circuit::IntegralLookup lookup = [&](uint32_t stream) -> BatchPtr {
    auto known = integrals.find(stream);
    if (known != integrals.end()) return known->second;
    BatchPtr integral;
    for (const std::unique_ptr<MaterializedView>& view : views_) {
      if (view->materialized() && !rebuilding.count(view.get()) && view->view().stream.id() == stream) {
        integral = view->snapshot();
        break;
      }
    }
    if (!integral) integral = clock_integral(program_->clock, stream);
    if (!integral) integral = circuit.operator_at(circuit.producer_of(Stream(&circuit, stream))).output_integral();
    integrals[stream] = integral;
    return integral;
  };
  circuit.bootstrap(rebuild, lookup, [&] {
    for (MaterializedView* view : rebuilt) {
      // Streams the bootstrap did not compute carry their integral.
      std::vector<Stream> streams{view->view().stream};
      for (const sql::CompiledIndex* index : view->indexes()) streams.push_back(index->stream);
      for (Stream stream : streams) {
        if (rebuild[circuit.producer_of(stream)]) continue;
        BatchPtr integral = lookup(stream.id());
        circuit.slot(stream).batch = integral ? integral : Batch::empty_batch();
      }
      view->clear();
      view->update();
    }
  });
  for (const MaterializedView* view : rebuilt) rebuilt_views_.insert(view->view().name);
  return Status::OK();
}

}  // namespace freshet
