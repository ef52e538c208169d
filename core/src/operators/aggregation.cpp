#include "aggregation.h"

#include "freshet/circuit/operator_description.h"

#include "freshet/zset/batch_codec.h"

namespace freshet::aggregate_detail {

Aggregation::Aggregation(SchemaPtr key_schema, SchemaPtr value_schema, SchemaPtr output_schema,
                         std::vector<AggregatePlan> plans)
    : key_schema_(std::move(key_schema)),
      value_schema_(std::move(value_schema)),
      output_schema_(std::move(output_schema)),
      plans_(std::move(plans)),
      output_row_(*output_schema_) {
  state_.value_traces.resize(plans_.size());
  value_changes_.resize(plans_.size());
  step_changes_.resize(plans_.size());
  for (const AggregatePlan& plan : plans_) {
    value_rows_.emplace_back(plan.value_schema ? *plan.value_schema : *empty_schema());
    whole_steps_.push_back({fold_path(plan), {0, static_cast<uint32_t>(plan.spec.column)}});
  }
}

void Aggregation::set_split_columns(std::vector<SplitColumn> columns) {
  split_columns_ = std::move(columns);
  split_steps_ = whole_steps_;
  all_inline_ = true;
  for (const FoldStep& step : split_steps_) all_inline_ = all_inline_ && step.path != FoldPath::kGeneral;
  for (FoldStep& step : split_steps_) {
    // COUNT(*)'s column is no column; the traced kinds read theirs in fold_one().
    if (step.path == FoldPath::kCount || step.path == FoldPath::kFloatSum) {
      step.argument = split_columns_[step.argument.column];
    }
  }
}

Aggregation::FoldPath Aggregation::fold_path(const AggregatePlan& plan) {
  if (plan.spec.kind == AggregateKind::kCountStar) return FoldPath::kNothing;
  if (plan.keeps_trace()) return FoldPath::kGeneral;
  if (plan.spec.kind == AggregateKind::kCount) return FoldPath::kCount;
  const bool sum = plan.spec.kind == AggregateKind::kSum || plan.spec.kind == AggregateKind::kAvg;
  return sum && plan.floating ? FoldPath::kFloatSum : FoldPath::kGeneral;
}

GroupMap::value_type& Aggregation::group(RowRef key) {
  if (last_group_ && RowRef(last_group_->first) == key) return *last_group_;
  GroupMap::value_type& group = state_.find_or_add(key, plans_.size());
  state_.mark_pending(group);
  last_group_ = &group;
  return group;
}

void Aggregation::set_empty_input(EmptyInput empty_input) {
  FRESHET_ASSERT(empty_input == EmptyInput::kNoRow || key_schema_->size() == 0);
  default_row_group_.reset();
  if (empty_input == EmptyInput::kDefaultRow) default_row_group_ = RowBuilder(*key_schema_).finish().to_bytes();
}

void Aggregation::forget(const std::string& key) {
  auto it = state_.groups.find(key);
  if (it == state_.groups.end() || it->second.pending) return;
  if (last_group_ == &*it) last_group_ = nullptr;
  state_.erase(*it);
}

namespace {

// The input row's column c, for fold_one(): in a row as it is, or in one of
// the two parts of a row never built; reader(p) is part p, as a FoldStep
// names it.
struct WholeRow {
  const RowReader& row;
  const RowReader& part(size_t) const { return row; }
  size_t column(size_t c) const { return c; }
  const RowReader& reader(uint8_t) const { return row; }
};
struct SplitRow {
  const RowReader* const* parts;
  const SplitColumn* columns;
  const RowReader& part(size_t c) const { return *parts[columns[c].part]; }
  size_t column(size_t c) const { return columns[c].column; }
  const RowReader& reader(uint8_t p) const { return *parts[p]; }
};

}  // namespace

Status Aggregation::fold(GroupMap::value_type& group, RowRef value, Weight weight) {
  RowReader row(*value_schema_, value);
  return fold_row(group, WholeRow{row}, whole_steps_.data(), weight);
}

Status Aggregation::fold_split(GroupMap::value_type& group, const RowReader* const parts[2], Weight weight) {
  return fold_row(group, SplitRow{parts, split_columns_.data()}, split_steps_.data(), weight);
}

Status Aggregation::fold_split_run(GroupMap::value_type& group, const RowReader& other, uint8_t other_part,
                                   const Batch& rows, const Schema& schema, size_t begin, size_t end,
                                   Weight other_weight) {
  if (all_inline_ && end - begin > 1) {  // (a change's run of one row is cheaper row by row)
    fold_run_inline(group, other, other_part, rows, schema, begin, end, other_weight);
    return Status::OK();
  }
  const RowReader* parts[2];
  parts[other_part] = &other;
  const SplitRow row{parts, split_columns_.data()};
  for (size_t r = begin; r < end; ++r) {
    const RowReader part(schema, rows.value(r));
    parts[1 - other_part] = &part;
    FRESHET_RETURN_IF_ERROR(fold_row(group, row, split_steps_.data(), rows.weight(r) * other_weight));
  }
  return Status::OK();
}

// No aggregate of the run can fail, so each is folded over the whole run in
// turn: every accumulator still takes the rows in their order (a float sum
// adds the same terms in the same order), and integer totals do not depend
// on it.
void Aggregation::fold_run_inline(GroupMap::value_type& group, const RowReader& other, uint8_t other_part,
                                  const Batch& rows, const Schema& schema, size_t begin, size_t end,
                                  Weight other_weight) {
  Weight total = 0;
  for (size_t r = begin; r < end; ++r) total += rows.weight(r) * other_weight;
  group.second.count += total;
  state_.work.rows_folded += end - begin;
  for (size_t a = 0; a < split_steps_.size(); ++a) {
    const FoldStep step = split_steps_[a];
    const size_t column = step.argument.column;
    Accumulator& accumulator = group.second.accumulators[a];
    if (step.path == FoldPath::kNothing) continue;
    if (step.argument.part == other_part) {
      if (other.is_null(column)) continue;
      accumulator.non_null += total;
      if (step.path == FoldPath::kCount) continue;
      const double value = other.get_double(column);
      for (size_t r = begin; r < end; ++r) {
        accumulator.float_sum += static_cast<double>(rows.weight(r) * other_weight) * value;
      }
      continue;
    }
    for (size_t r = begin; r < end; ++r) {
      const RowReader row(schema, rows.value(r));
      if (row.is_null(column)) continue;
      const Weight weight = rows.weight(r) * other_weight;
      accumulator.non_null += weight;
      if (step.path == FoldPath::kFloatSum) {
        accumulator.float_sum += static_cast<double>(weight) * row.get_double(column);
      }
    }
  }
}

// Called for every input row (a bulk load's every joined pair): the common
// aggregates are folded here without a call or a Status, with the same
// arithmetic as fold_value()'s. Inlined into its callers' loops over rows;
// fold_one() is not (it would make every caller big).
template <typename Row>
__attribute__((always_inline)) inline Status Aggregation::fold_row(GroupMap::value_type& group, const Row& row,
                                                                   const FoldStep* steps, Weight weight) {
  group.second.count += weight;
  ++state_.work.rows_folded;
  Accumulator* accumulators = group.second.accumulators.data();
  for (size_t a = 0, count = whole_steps_.size(); a < count; ++a) {
    const FoldStep step = steps[a];
    Accumulator& accumulator = accumulators[a];
    const RowReader& part = row.reader(step.argument.part);
    switch (step.path) {
      case FoldPath::kNothing:
        break;
      case FoldPath::kCount:
        if (!part.is_null(step.argument.column)) accumulator.non_null += weight;
        break;
      case FoldPath::kFloatSum:
        if (part.is_null(step.argument.column)) break;
        accumulator.non_null += weight;
        accumulator.float_sum += static_cast<double>(weight) * part.get_double(step.argument.column);
        break;
      case FoldPath::kGeneral:
        FRESHET_RETURN_IF_ERROR(fold_one(a, RowRef(group.first), row, weight, accumulator));
        break;
    }
  }
  return Status::OK();
}

// Accumulators directly; MIN/MAX and COUNT DISTINCT values into this step's
// changes of their traces.
template <typename Row>
__attribute__((noinline)) Status Aggregation::fold_one(size_t a, RowRef key, const Row& row, Weight weight,
                                                       Accumulator& accumulator) {
  const AggregatePlan& plan = plans_[a];
  if (plan.spec.kind == AggregateKind::kCountStar) return Status::OK();
  const size_t null_column = plan.null_column(), column = plan.spec.column;
  if (row.part(null_column).is_null(row.column(null_column))) return Status::OK();
  if (!plan.keeps_trace()) return fold_value(plan, row.part(column), row.column(column), weight, accumulator);
  if (plan.trace_owner != a) return Status::OK();  // the owner folds the same value into the trace read
  if (plan.arg()) {
    const size_t compared = plan.spec.compared_column;
    value_rows_[a].copy_field(0, row.part(compared), row.column(compared));
    value_rows_[a].copy_field(1, row.part(column), row.column(column));
  } else {
    value_rows_[a].copy_field(0, row.part(column), row.column(column));
  }
  RowRef value = value_rows_[a].finish();
  if (plan.ordered()) {
    encode_sorted_row(RowReader(*plan.value_schema, value), plan.order, &sort_entry_);
    value = RowRef(sort_entry_);
  }
  value_changes_[a].add(key, value, weight);
  return Status::OK();
}

BatchPtr Aggregation::emitted_rows() const {
  BatchBuilder rows;
  for (const auto& [key, group] : state_.groups) {
    if (group.emitted) rows.add_row(RowRef(group.output), 1);
  }
  return rows.finish();
}

size_t Aggregation::output_key_columns() const {
  const size_t count = key_schema_->size();
  if (count == 0 || output_schema_->size() < count) return 0;
  for (size_t c = 0; c < count; ++c) {
    if (!(key_schema_->type(c) == output_schema_->type(c))) return 0;
  }
  return count;
}

std::optional<RowRef> Aggregation::emitted_row(RowRef key) const {
  auto found = state_.groups.find(key.to_bytes());
  if (found == state_.groups.end() || !found->second.emitted) return std::nullopt;
  return RowRef(found->second.output);
}

Status Aggregation::emit(BatchPtr* output) {
  if (default_row_group_) {
    // The one group's row is out from the first step on (and again after a
    // checkpoint of a step before its first, or a rebuild): it is kept once emitted.
    auto found = state_.groups.find(*default_row_group_);
    if (found == state_.groups.end() || !found->second.emitted) group(RowRef(*default_row_group_));
  }
  Status status = update_value_traces();
  // Recomputes the row of every pending group, then emits the differences.
  // Nothing is committed unless every row could be computed, so after an
  // error the groups stay pending and what was emitted stays the truth.
  new_rows_.resize(state_.pending.size());
  for (size_t i = 0; i < state_.pending.size() && status.ok(); ++i) {
    const GroupMap::value_type& group = *state_.pending[i];
    ++state_.work.groups_evaluated;
    new_rows_[i].reset();
    if (group.second.count <= 0) {
      if (default_row_group_) {
        build_empty_input_row();
        new_rows_[i] = output_row_.finish().to_bytes();
      }
      continue;
    }
    status = build_row(group);
    RowRef row = output_row_.finish();
    if (status.ok()) new_rows_[i] = row.to_bytes();
  }
  for (BatchPtr& changes : step_changes_) changes.reset();
  outputs_follow_traces_ = status.ok();
  if (!status.ok()) return status;
  last_group_ = nullptr;  // commit() may erase groups
  for (size_t i = 0; i < state_.pending.size(); ++i) commit(*state_.pending[i], new_rows_[i]);
  state_.pending.clear();
  *output = changes_.finish();
  return Status::OK();
}

Status Aggregation::update_value_traces() {
  // Every trace takes its changes even after an error, so they stay the integral of the input.
  Status status = Status::OK();
  for (size_t a = 0; a < plans_.size(); ++a) {
    if (value_changes_[a].empty()) continue;
    BatchPtr changes = value_changes_[a].finish();
    if (plans_[a].spec.kind == AggregateKind::kCountDistinct || plans_[a].folds_distinct) {
      Status crossed = distinct_crossings(a, *changes);
      if (status.ok()) status = crossed;
    }
    if (plans_[a].ordered()) step_changes_[a] = changes;
    state_.value_traces[a].insert(std::move(changes));
  }
  return status;
}

// A value counts for a DISTINCT aggregate while its total weight is
// positive: where this step's change crosses zero, COUNT(DISTINCT) adjusts
// the group's count, the others fold the value in or out once.
Status Aggregation::distinct_crossings(size_t a, const Batch& changes) {
  const Trace& trace = state_.value_traces[a];
  const AggregatePlan& plan = plans_[a];
  Status status = Status::OK();
  for (size_t k = 0; k < changes.key_count(); ++k) {
    RowRef key = changes.key(k);
    Accumulator& accumulator = state_.groups.find(key.to_bytes())->second.accumulators[a];
    for (size_t v = changes.values_begin(k); v < changes.values_end(k); ++v) {
      Weight before = trace.weight_of(key, changes.value(v));
      Weight after = before + changes.weight(v);
      ++state_.work.trace_seeks;
      const int64_t crossing = static_cast<int64_t>(after > 0) - static_cast<int64_t>(before > 0);
      if (crossing == 0) continue;
      if (!plan.folds_distinct) {
        accumulator.distinct += crossing;
        continue;
      }
      Status folded = fold_value(plan, RowReader(*plan.value_schema, changes.value(v)), 0, crossing, accumulator);
      if (status.ok()) status = folded;
    }
  }
  return status;
}

void Aggregation::build_empty_input_row() {
  for (const AggregatePlan& plan : plans_) {
    if (is_count(plan.spec.kind)) {
      output_row_.set_int(plan.output_column, 0);
    } else {
      output_row_.set_null(plan.output_column);
    }
  }
}

Status Aggregation::build_row(const GroupMap::value_type& group) {
  RowReader key(*key_schema_, RowRef(group.first));
  for (size_t c = 0; c < key.schema().size(); ++c) output_row_.copy_field(c, key, c);
  for (size_t a = 0; a < plans_.size(); ++a) {
    Status status = Status::OK();
    if (plans_[a].ordered()) {
      write_extreme(a, group);
    } else if (plans_[a].recomputed) {
      status = write_recomputed(a, RowRef(group.first));
    } else {
      status = write_linear_result(plans_[a], group.second.count, group.second.accumulators[a], output_row_);
    }
    if (!status.ok()) FRESHET_RETURN_IF_ERROR(null_on_error(a, RowRef(group.first), std::move(status)));
  }
  return Status::OK();
}

// Only a result out of range is NULL: the accumulators are still exact then,
// so the next step's row is right again once the result fits.
Status Aggregation::null_on_error(size_t a, RowRef group_key, Status error) {
  const AggregatePlan& plan = plans_[a];
  if (!on_error_ || error.code() != ErrorCode::kOverflow || !plan.spec.result_type.nullable) return error;
  if (!on_error_(error, plan.spec, RowReader(*key_schema_, group_key))) return error;
  output_row_.set_null(plan.output_column);
  return Status::OK();
}

// A group's extreme E before the step is in its emitted row (for MIN/MAX,
// whose entry is the value alone; an ARG_* row lacks the compared column).
// The step's changes of the group's trace are consolidated, in the trace's
// order: every entry before E had weight 0, so a change there makes it live
// and the first change, when before E, is the new extreme; changes all after
// E leave it first. Only a change at E itself (which may take its last
// copy away) needs the trace. Live means a total weight other than 0, as
// for Trace::KeyCursor.
Aggregation::ExtremeChange Aggregation::extreme_change(size_t a, const GroupMap::value_type& group) {
  const AggregatePlan& plan = plans_[a];
  const GroupState& state = group.second;
  if (!outputs_follow_traces_ || !state.emitted) return {ExtremeChange::kNeedsSeek, RowRef()};
  const Batch* changes = step_changes_[plan.trace_owner].get();
  std::optional<size_t> k = changes ? changes->find(RowRef(group.first)) : std::nullopt;
  if (!k) return {ExtremeChange::kUnchanged, RowRef()};
  if (!plan.extreme_of_value()) return {ExtremeChange::kNeedsSeek, RowRef()};
  const RowRef best = changes->value(plan.reads_last ? changes->values_end(*k) - 1 : changes->values_begin(*k));
  RowReader emitted(*output_schema_, RowRef(state.output));
  if (emitted.is_null(plan.output_column)) return {ExtremeChange::kToBestChange, best};  // no live entry before
  value_rows_[a].copy_field(0, emitted, plan.output_column);
  encode_sorted_row(RowReader(*plan.value_schema, value_rows_[a].finish()), plans_[plan.trace_owner].order,
                    &sort_entry_);
  const int order = compare_rows(best, RowRef(sort_entry_));
  if (order == 0) return {ExtremeChange::kNeedsSeek, RowRef()};
  return (order < 0) != plan.reads_last ? ExtremeChange{ExtremeChange::kToBestChange, best}
                                        : ExtremeChange{ExtremeChange::kUnchanged, RowRef()};
}

// MIN/MAX: the group's first live entry in the aggregate's sort order (its
// last, reading the trace of the opposite one).
void Aggregation::write_extreme(size_t a, const GroupMap::value_type& group) {
  const AggregatePlan& plan = plans_[a];
  const size_t value_column = plan.arg() ? 1 : 0;
  const ExtremeChange change = extreme_change(a, group);
  if (change.kind == ExtremeChange::kUnchanged) {
    RowReader emitted(*output_schema_, RowRef(group.second.output));
    return output_row_.copy_field(plan.output_column, emitted, plan.output_column);
  }
  if (change.kind == ExtremeChange::kToBestChange) {
    RowReader value(*plan.value_schema, sorted_row_payload(change.best_change));
    return output_row_.copy_field(plan.output_column, value, value_column);
  }
  const Trace& trace = state_.value_traces[plan.trace_owner];
  Trace::KeyCursor first = plan.reads_last ? trace.seek_last(RowRef(group.first)) : trace.seek(RowRef(group.first));
  ++state_.work.trace_seeks;
  if (!first.valid()) return output_row_.set_null(plan.output_column);
  RowReader value(*plan.value_schema, sorted_row_payload(first.value()));
  output_row_.copy_field(plan.output_column, value, value_column);
}

// BIT_AND, BIT_OR, floating VAR/STDDEV: folded again from the group's live
// values, in the trace's order, so the result depends on the values alone.
Status Aggregation::write_recomputed(size_t a, RowRef group_key) {
  const AggregatePlan& plan = plans_[a];
  Accumulator accumulator;
  ++state_.work.trace_seeks;
  for (Trace::KeyCursor value = state_.value_traces[a].seek(group_key); value.valid(); value.next()) {
    if (value.weight() <= 0) continue;
    const Weight weight = plan.spec.distinct ? 1 : value.weight();
    FRESHET_RETURN_IF_ERROR(fold_value(plan, RowReader(*plan.value_schema, value.value()), 0, weight, accumulator));
  }
  return write_linear_result(plan, 0, accumulator, output_row_);
}

void Aggregation::commit(GroupMap::value_type& group, std::optional<std::string>& new_row) {
  GroupState& state = group.second;
  state_.group_bytes -= group_footprint(group);
  bool unchanged = state.emitted && new_row && state.output == *new_row;
  if (!unchanged) {
    if (state.emitted) changes_.add_row(RowRef(state.output), -1);
    if (new_row) changes_.add_row(RowRef(*new_row), 1);
    state.emitted = new_row.has_value();
    state.output = new_row ? std::move(*new_row) : std::string();
  }
  state.pending = false;
  bool empty = state.count == 0;
  for (Accumulator& accumulator : state.accumulators) {
    // A float sum of values that all left is exactly 0, not the rounding residue.
    if (accumulator.non_null == 0) accumulator.float_sum = accumulator.float_squares = 0;
    empty = empty && accumulator.zero();
  }
  state_.group_bytes += group_footprint(group);
  // kDefaultRow's group keeps the row it emitted for no input (emitted_rows(), the next change's retraction).
  if (empty && !(default_row_group_ && state.emitted)) state_.erase(group);
}

void Aggregation::save_state(ByteWriter& out) const {
  out.varint(state_.groups.size());
  for (const auto& [key, group] : state_.groups) {
    out.bytes(key);
    out.i64(group.count);
    for (size_t a = 0; a < plans_.size(); ++a) {
      const Accumulator& accumulator = group.accumulators[a];
      out.i64(accumulator.non_null);
      out.i128(accumulator.exact_sum);
      out.f64(accumulator.float_sum);
      out.i64(accumulator.distinct);
      // Only the variances have sums of squares (the state of the other kinds reads as before).
      if (plans_[a].has_squares()) {
        out.i128(accumulator.exact_squares);
        out.f64(accumulator.float_squares);
      }
    }
    out.boolean(group.emitted);
    if (group.emitted) out.bytes(group.output);
  }
  for (const Trace& trace : state_.value_traces) write_trace(out, trace);
  // Which aggregates read another's trace (whose own is written empty): a
  // build that kept a trace for each would take an empty one for the truth,
  // so it finds these bytes past the state it reads and refuses it.
  std::vector<size_t> readers;
  for (size_t a = 0; a < plans_.size(); ++a) {
    if (plans_[a].trace_owner != a) readers.push_back(a);
  }
  if (readers.empty()) return;
  out.varint(readers.size());
  for (size_t a : readers) {
    out.varint(a);
    out.varint(plans_[a].trace_owner);
  }
}

void Aggregation::restore_state(ByteReader& in) {
  size_t count = in.count(10 + 40 * plans_.size());
  for (size_t g = 0; g < count && in.ok(); ++g) {
    RowRef key(in.bytes());
    if (in.ok() && !row_fits_schema(*key_schema_, key)) {
      in.fail("group " + std::to_string(g) + " does not fit its schema");
    }
    if (!in.ok()) break;
    GroupMap::value_type& group = state_.find_or_add(key, plans_.size());
    state_.group_bytes -= group_footprint(group);
    group.second.count = in.i64();
    for (size_t a = 0; a < plans_.size(); ++a) {
      Accumulator& accumulator = group.second.accumulators[a];
      accumulator.non_null = in.i64();
      accumulator.exact_sum = in.i128();
      accumulator.float_sum = in.f64();
      accumulator.distinct = in.i64();
      if (plans_[a].has_squares()) {
        accumulator.exact_squares = in.i128();
        accumulator.float_squares = in.f64();
      }
    }
    group.second.emitted = in.boolean();
    if (group.second.emitted) group.second.output = std::string(in.bytes());
    state_.group_bytes += group_footprint(group);
    if (in.ok() && group.second.emitted && !row_fits_schema(*output_schema_, RowRef(group.second.output))) {
      in.fail("the output of group " + std::to_string(g) + " does not fit its schema");
    }
  }
  for (size_t a = 0; a < plans_.size() && in.ok(); ++a) {
    const AggregatePlan& plan = plans_[a];
    RowCheck values = any_row();
    if (plan.ordered()) {
      values = sorted_rows_of(plan.value_schema);
    } else if (plan.keeps_trace()) {
      values = rows_of(plan.value_schema);
    }
    read_trace(in, rows_of(key_schema_), values, &state_.value_traces[a]);
  }
  restore_shared_traces(in);
}

// A checkpoint written before MIN and MAX of a column shared a trace holds
// one for each, and nothing after them: the reader's copy (the same values
// in the other order) is dropped. A newer one lists the readers, which must
// be the plan's.
void Aggregation::restore_shared_traces(ByteReader& in) {
  const bool listed = in.ok() && in.remaining() > 0;
  size_t count = listed ? in.count(2) : 0;
  size_t listed_readers = 0;
  for (size_t i = 0; i < count && in.ok(); ++i) {
    const uint64_t a = in.varint(), owner = in.varint();
    if (!in.ok()) break;
    if (a >= plans_.size() || plans_[a].trace_owner == a || plans_[a].trace_owner != owner) {
      in.fail("aggregate " + std::to_string(a) + " reads the trace of aggregate " + std::to_string(owner) +
              ", which this plan does not");
      break;
    }
    ++listed_readers;
  }
  for (size_t a = 0; a < plans_.size() && in.ok(); ++a) {
    if (plans_[a].trace_owner == a) continue;
    if (listed) {
      if (!state_.value_traces[a].empty())
        in.fail("aggregate " + std::to_string(a) + " reads another's trace but holds one");
    } else {
      state_.value_traces[a].clear();
    }
  }
  size_t readers = 0;
  for (size_t a = 0; a < plans_.size(); ++a) readers += plans_[a].trace_owner != a;
  if (in.ok() && listed && listed_readers != readers) {
    in.fail(std::to_string(readers) + " aggregates read another's trace, the state lists " +
            std::to_string(listed_readers));
  }
}

size_t Aggregation::state_rows() const {
  size_t rows = state_.groups.size();
  for (const Trace& trace : state_.value_traces) rows += trace.entry_count();
  return rows;
}

std::string Aggregation::describe() const {
  std::string text;
  for (const AggregatePlan& plan : plans_) {
    if (!text.empty()) text += ", ";
    // The call as the query wrote it ("SUM(amount)"), when the binder named it.
    if (!plan.spec.name.empty()) {
      text += plan.spec.name;
      continue;
    }
    text += aggregate_kind_name(plan.spec.kind);
    if (plan.spec.distinct) text += " DISTINCT";
  }
  // SQL's aggregate without GROUP BY: its one row also when there is no input.
  if (default_row_group_) return text + " by () (one row also of no input)";
  return text + " by " + describe_columns(*key_schema_);
}

}  // namespace freshet::aggregate_detail
