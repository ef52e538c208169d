#include "window_partition.h"

#include <algorithm>
#include <cstring>

#include "aggregate_accumulator.h"

namespace freshet::window_detail {
namespace {

constexpr size_t kAll = SIZE_MAX;

size_t saturating_add(size_t a, size_t b) { return a > kAll - b ? kAll : a + b; }

//! A position count as a size_t; beyond what one holds (size_t is 32 bits in
//! wasm) it is kAll, every position.
size_t positions_of(int64_t count) {
  return static_cast<uint64_t>(count) >= uint64_t{kAll} ? kAll : static_cast<size_t>(count);
}

bool is_rank(const WindowFunction& f) {
  return f.kind == WindowFunctionKind::kRowNumber || f.kind == WindowFunctionKind::kRank ||
         f.kind == WindowFunctionKind::kDenseRank;
}

//! How far (in positions) a function's result at p reads after p (ahead) and before p (behind).
void reach(const WindowFunction& f, WindowPlan& plan) {
  using Kind = WindowBound::Kind;
  if (is_rank(f)) {
    plan.rows_behind = kAll;
    return;
  }
  if (f.kind == WindowFunctionKind::kLag) {
    plan.rows_behind = std::max(plan.rows_behind, positions_of(f.offset));
    return;
  }
  if (f.kind == WindowFunctionKind::kLead) {
    plan.rows_ahead = std::max(plan.rows_ahead, positions_of(f.offset));
    return;
  }
  // Functions of a frame: its start bounds how far back they read, its end how far ahead.
  if (f.start.kind == Kind::kUnboundedPreceding) {
    plan.rows_behind = kAll;
  } else if (f.rows_frame) {
    if (f.start.kind == Kind::kPreceding)
      plan.rows_behind = std::max(plan.rows_behind, positions_of(f.start.rows));
  } else if (f.start.kind == Kind::kCurrentRow) {
    plan.peers_behind = true;
  } else {
    plan.range_behind.push_back(&f);
  }
  if (f.end.kind == Kind::kUnboundedFollowing) {
    plan.rows_ahead = kAll;
  } else if (f.rows_frame) {
    if (f.end.kind == Kind::kFollowing) plan.rows_ahead = std::max(plan.rows_ahead, positions_of(f.end.rows));
  } else if (f.end.kind == Kind::kCurrentRow) {
    plan.peers_ahead = true;
  } else {
    plan.range_ahead.push_back(&f);
  }
}

int compare_column(const RowReader& a, const RowReader& b, size_t column) {
  switch (a.schema().type(column).id) {
    case TypeId::kBoolean:
      return static_cast<int>(a.get_bool(column)) - static_cast<int>(b.get_bool(column));
    case TypeId::kReal:
    case TypeId::kDouble: {
      double x = a.get_double(column), y = b.get_double(column);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case TypeId::kDecimal: {
      int128 x = a.get_decimal(column), y = b.get_decimal(column);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case TypeId::kVarchar: {
      int c = a.get_string(column).compare(b.get_string(column));
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default: {
      int64_t x = a.get_int(column), y = b.get_int(column);
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
}

}  // namespace

WindowPlan make_window_plan(const Schema& row_schema, WindowOptions options) {
  WindowPlan plan;
  std::vector<Column> columns = row_schema.columns();
  std::vector<AggregateSpec> specs;
  for (size_t f = 0; f < options.functions.size(); ++f) {
    const WindowFunction& function = options.functions[f];
    columns.push_back({function.name, function.result_type});
    AggregateKind kind =
        function.kind == WindowFunctionKind::kAggregate ? function.aggregate : AggregateKind::kCountStar;
    specs.push_back({kind, function.column, function.name, function.result_type});
    specs.back().compared_column = function.compared_column;
  }
  plan.aggregates = aggregate_detail::make_plans(row_schema, specs, row_schema.size());
  plan.output_schema = make_schema(std::move(columns));
  plan.options = std::move(options);
  for (const WindowFunction& function : plan.options.functions) reach(function, plan);
  plan.uses_range_values = !plan.range_ahead.empty() || !plan.range_behind.empty();
  plan.value_local = plan.options.order_by.size() == 1 && !plan.options.rank_limit && !plan.options.functions.empty();
  for (const WindowFunction& f : plan.options.functions) {
    using Kind = WindowBound::Kind;
    plan.value_local = plan.value_local && f.kind == WindowFunctionKind::kAggregate && !f.rows_frame &&
                       f.start.kind != Kind::kUnboundedPreceding && f.end.kind != Kind::kUnboundedFollowing;
  }
  if (plan.value_local) {
    TypeId id = row_schema.type(plan.options.order_by[0].column).id;
    plan.value_local = id != TypeId::kVarchar && id != TypeId::kBoolean;
  }
  if (plan.value_local) {
    plan.uses_range_values = true;
    TypeId id = row_schema.type(plan.options.order_by[0].column).id;
    plan.floating_order = id == TypeId::kReal || id == TypeId::kDouble;
    RangeValue before, after;  // the largest PRECEDING start and FOLLOWING end
    before.null = after.null = false;
    for (const WindowFunction& f : plan.options.functions) {
      if (f.start.kind == WindowBound::Kind::kPreceding) {
        before.exact = std::max(before.exact, f.start.exact);
        before.floating = std::max(before.floating, f.start.floating);
      }
      if (f.end.kind == WindowBound::Kind::kFollowing) {
        after.exact = std::max(after.exact, f.end.exact);
        after.floating = std::max(after.floating, f.end.floating);
      }
    }
    plan.value_reach.null = false;
    plan.value_reach.floating = before.floating + after.floating;
    if (__builtin_add_overflow(before.exact, after.exact, &plan.value_reach.exact))
      plan.value_reach.exact = ~(int128{1} << 127);
  }
  plan.local = plan.rows_ahead != kAll && plan.rows_behind != kAll && !plan.peers_ahead && !plan.peers_behind &&
               !plan.uses_range_values && !plan.options.rank_limit;
  if (plan.uses_range_values) {
    TypeId id = row_schema.type(plan.options.order_by[0].column).id;
    plan.floating_order = id == TypeId::kReal || id == TypeId::kDouble;
  }
  return plan;
}

bool PartitionRows::add(RowRef entry, Weight weight) {
  const std::optional<uint64_t>& limit = plan_.options.rank_limit;
  if (limit) {
    // Stop once every further row ranks above the limit.
    WindowFunctionKind kind = plan_.options.functions[plan_.options.rank_function].kind;
    bool peer = !entries_.empty() &&
                sort_key(entries_.size() - 1) == std::string_view(reinterpret_cast<const char*>(entry.data),
                                                                  sorted_row_payload(entry).data - entry.data);
    if (kind == WindowFunctionKind::kRowNumber && positions() >= *limit) return false;
    if (kind == WindowFunctionKind::kRank && positions() >= *limit && !peer) return false;
    if (kind == WindowFunctionKind::kDenseRank && !peer && distinct_keys_ >= *limit) return false;
    if (!peer) ++distinct_keys_;
    if (kind == WindowFunctionKind::kRowNumber)
      weight = std::min<Weight>(weight, static_cast<Weight>(*limit - positions()));
  }
  uint32_t e = static_cast<uint32_t>(entries_.size());
  entries_.push_back(entry);
  weights_.push_back(weight);
  entry_first_.push_back(static_cast<uint32_t>(position_entry_.size()));
  position_entry_.insert(position_entry_.end(), static_cast<size_t>(weight), e);
  return true;
}

bool PartitionRows::rank_limit_reached() const {
  const std::optional<uint64_t>& limit = plan_.options.rank_limit;
  if (!limit) return false;
  WindowFunctionKind kind = plan_.options.functions[plan_.options.rank_function].kind;
  return kind == WindowFunctionKind::kDenseRank ? distinct_keys_ >= *limit : positions() >= *limit;
}

std::string_view PartitionRows::sort_key(size_t e) const {
  RowRef entry = entries_[e];
  return {reinterpret_cast<const char*>(entry.data), static_cast<size_t>(sorted_row_payload(entry).data - entry.data)};
}

size_t PartitionRows::position_of(RowRef entry, bool after) const {
  auto it = after ? std::upper_bound(entries_.begin(), entries_.end(), entry)
                  : std::lower_bound(entries_.begin(), entries_.end(), entry);
  size_t e = static_cast<size_t>(it - entries_.begin());
  return e == entries_.size() ? positions() : entry_first_[e];
}

void PartitionRows::prepare() {
  if (prepared_) return;
  prepared_ = true;
  peer_first_entry_.resize(entries_.size());
  dense_rank_.resize(entries_.size());
  uint32_t dense = 0;
  for (size_t e = 0; e < entries_.size(); ++e) {
    bool peer = e > 0 && sort_key(e) == sort_key(e - 1);
    peer_first_entry_[e] = peer ? peer_first_entry_[e - 1] : static_cast<uint32_t>(e);
    dense_rank_[e] = peer ? dense : ++dense;
  }
  if (plan_.uses_range_values) {
    values_.reserve(entries_.size());
    for (size_t e = 0; e < entries_.size(); ++e) values_.push_back(range_value(e));
  }
  running_.assign(plan_.options.functions.size(), Running());
}

size_t PartitionRows::peer_end(size_t p) const {
  size_t e = position_entry_[p];
  size_t first = peer_first_entry_[e];
  while (e + 1 < entries_.size() && peer_first_entry_[e + 1] == first) ++e;
  return entry_first_[e] + static_cast<size_t>(weights_[e]);
}

RangeValue PartitionRows::range_value(size_t e) const { return range_value_of(plan_, entries_[e]); }

RangeValue range_value_of(const WindowPlan& plan, RowRef entry) {
  RowReader row(*plan.row_schema, sorted_row_payload(entry));
  size_t column = plan.options.order_by[0].column;
  RangeValue value;
  if (row.is_null(column)) return value;
  value.null = false;
  TypeId id = row.schema().type(column).id;
  if (plan.floating_order) {
    value.floating = row.get_double(column);
  } else {
    value.exact = id == TypeId::kDecimal ? row.get_decimal(column) : int128{row.get_int(column)};
  }
  return value;
}

int compare_in_order(const WindowPlan& plan, const RangeValue& a, const RangeValue& b) {
  int c = plan.floating_order ? (a.floating < b.floating   ? -1
                                 : a.floating > b.floating ? 1
                                                           : 0)
                              : (a.exact < b.exact   ? -1
                                 : a.exact > b.exact ? 1
                                                     : 0);
  return plan.options.order_by[0].descending ? -c : c;
}

RangeValue shifted(const WindowPlan& plan, const RangeValue& value, const WindowBound& bound) {
  // PRECEDING moves against the ORDER BY direction, FOLLOWING with it.
  bool toward_smaller = (bound.kind == WindowBound::Kind::kPreceding) != plan.options.order_by[0].descending;
  RangeValue out = value;
  if (bound.kind == WindowBound::Kind::kCurrentRow) return out;
  if (plan.floating_order) {
    out.floating = toward_smaller ? value.floating - bound.floating : value.floating + bound.floating;
    return out;
  }
  constexpr int128 kMax = ~(int128{1} << 127), kMin = int128{1} << 127;
  int128 result;
  bool overflow = toward_smaller ? __builtin_sub_overflow(value.exact, bound.exact, &result)
                                 : __builtin_add_overflow(value.exact, bound.exact, &result);
  out.exact = overflow ? (toward_smaller ? kMin : kMax) : result;
  return out;
}

std::pair<size_t, size_t> PartitionRows::non_null_segment() const {
  size_t e_begin = 0, e_end = entries_.size();
  if (plan_.options.order_by[0].nulls_first) {
    while (e_begin < e_end && values_[e_begin].null) ++e_begin;
  } else {
    while (e_end > e_begin && values_[e_end - 1].null) --e_end;
  }
  auto position = [&](size_t e) { return e == entries_.size() ? positions() : static_cast<size_t>(entry_first_[e]); };
  return {position(e_begin), position(e_end)};
}

size_t PartitionRows::value_position(const RangeValue& limit, bool after) const {
  auto [begin, end] = non_null_segment();
  size_t low = begin, high = end;  // first position p in [begin, end) with value(p) >= limit (> when after)
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    int c = compare_in_order(values_[position_entry_[mid]], limit);
    if (after ? c <= 0 : c < 0) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

std::pair<size_t, size_t> PartitionRows::affected(RowRef first, RowRef last) {
  prepare();
  size_t first_position = position_of(first, false), last_end = position_of(last, true);
  size_t lo = plan_.rows_ahead == kAll ? 0 : first_position - std::min(first_position, plan_.rows_ahead);
  size_t hi = std::min(positions(), saturating_add(last_end, plan_.rows_behind));
  // Peers of the first and last changed rows, found through a position at or next to them.
  if (plan_.peers_ahead && first_position < positions()) lo = std::min(lo, peer_start(first_position));
  if (plan_.peers_ahead && first_position > 0) lo = std::min(lo, peer_start(first_position - 1));
  if (plan_.peers_behind && last_end > 0) hi = std::max(hi, peer_end(last_end - 1));
  if (plan_.peers_behind && last_end < positions()) hi = std::max(hi, peer_end(last_end));
  if (!plan_.range_ahead.empty() || !plan_.range_behind.empty()) {
    // A row is affected when its frame covers a changed ORDER BY value c:
    // its frame's end reaches c (lo) and its frame's start does not pass c (hi).
    PartitionRows probe(plan_);
    probe.entries_ = {first, last};
    RangeValue first_value = probe.range_value(0), last_value = probe.range_value(1);
    auto [begin, end] = non_null_segment();
    bool nulls_first = plan_.options.order_by[0].nulls_first;
    for (const WindowFunction* f : plan_.range_ahead) {
      if (first_value.null) {
        lo = std::min(lo, nulls_first ? size_t{0} : end);
        continue;
      }
      // Rows p with shifted(value(p), end) >= c, i.e. value(p) >= c shifted back.
      WindowBound back = f->end;
      back.kind =
          back.kind == WindowBound::Kind::kPreceding ? WindowBound::Kind::kFollowing : WindowBound::Kind::kPreceding;
      lo = std::min(lo, value_position(shifted(first_value, back), false));
    }
    for (const WindowFunction* f : plan_.range_behind) {
      if (last_value.null) {
        hi = std::max(hi, nulls_first ? begin : positions());
        continue;
      }
      WindowBound back = f->start;
      back.kind =
          back.kind == WindowBound::Kind::kPreceding ? WindowBound::Kind::kFollowing : WindowBound::Kind::kPreceding;
      hi = std::max(hi, value_position(shifted(last_value, back), true));
    }
  }
  return {lo, std::max(lo, hi)};
}

std::pair<size_t, size_t> PartitionRows::frame(const WindowFunction& f, size_t p) const {
  using Kind = WindowBound::Kind;
  const size_t n = positions();
  auto rows_bound = [&](const WindowBound& b, bool is_end) -> size_t {
    // A ROWS bound as a position, clamped to [0, n]; an end bound is exclusive.
    int64_t at = static_cast<int64_t>(p);
    if (b.kind == Kind::kPreceding) at -= b.rows;
    if (b.kind == Kind::kFollowing) at += b.rows;
    if (is_end) ++at;
    return static_cast<size_t>(std::clamp<int64_t>(at, 0, static_cast<int64_t>(n)));
  };
  auto bound = [&](const WindowBound& b, bool is_end) -> size_t {
    if (b.kind == Kind::kUnboundedPreceding) return 0;
    if (b.kind == Kind::kUnboundedFollowing) return n;
    if (f.rows_frame) return rows_bound(b, is_end);
    if (b.kind == Kind::kCurrentRow) return is_end ? peer_end(p) : peer_start(p);
    const RangeValue& value = values_[position_entry_[p]];
    if (value.null) return is_end ? peer_end(p) : peer_start(p);  // a NULL's frame is its NULL peers
    return value_position(shifted(value, b), is_end);
  };
  size_t start = bound(f.start, false), end = bound(f.end, true);
  return {start, std::max(start, end)};
}

Status PartitionRows::write_aggregate(size_t f, const WindowFunction& function, size_t p, RowBuilder& out) {
  const aggregate_detail::AggregatePlan& plan = plan_.aggregates[f];
  auto [start, end] = frame(function, p);
  const bool min_max = plan.ordered();  // MIN, MAX, ARG_MIN, ARG_MAX: the best row so far
  auto row_at = [&](size_t q) {
    return RowReader(*plan_.row_schema, sorted_row_payload(entries_[position_entry_[q]]));
  };
  // -1/0/1: how `row` compares with the best one in the aggregate's order (ARG_*: the compared
  // column, then the value, NULL lowest).
  auto compare = [&](const RowReader& row, const RowReader& best) {
    if (!plan.arg()) return compare_column(row, best, function.column);
    int c = compare_column(row, best, plan.spec.compared_column);
    if (c != 0) return c;
    const bool null = row.is_null(function.column), best_null = best.is_null(function.column);
    if (null || best_null) return static_cast<int>(best_null) - static_cast<int>(null);
    return compare_column(row, best, function.column);
  };
  const bool lowest = function.aggregate == AggregateKind::kMin || function.aggregate == AggregateKind::kArgMin;
  Running fresh;
  Running& state = function.start.kind == WindowBound::Kind::kUnboundedPreceding ? running_[f] : fresh;
  if (&state == &fresh) state.end = start;
  for (; state.end < end; ++state.end) {
    RowReader row = row_at(state.end);
    ++state.count;
    if (function.aggregate == AggregateKind::kCountStar || row.is_null(plan.null_column())) continue;
    if (min_max) {
      int c = state.best < 0 ? -1 : compare(row, row_at(static_cast<size_t>(state.best)));
      if (state.best < 0 || (lowest ? c < 0 : c > 0)) {
        state.best = static_cast<int64_t>(state.end);
      }
    } else {
      FRESHET_RETURN_IF_ERROR(aggregate_detail::fold_value(plan, row, 1, state.accumulator));
    }
  }
  if (!min_max) return aggregate_detail::write_linear_result(plan, state.count, state.accumulator, out);
  if (state.best < 0) {
    out.set_null(plan.output_column);
  } else {
    out.copy_field(plan.output_column, row_at(static_cast<size_t>(state.best)), function.column);
  }
  return Status::OK();
}

Status PartitionRows::emit(size_t lo, size_t hi, Weight sign, BatchBuilder& out, uint64_t& rows_computed) {
  prepare();
  RowBuilder builder(*plan_.output_schema);
  const size_t width = plan_.row_schema->size();
  for (size_t p = lo; p < hi && p < positions(); ++p) {
    RowReader row(*plan_.row_schema, sorted_row_payload(entries_[position_entry_[p]]));
    for (size_t c = 0; c < width; ++c) builder.copy_field(c, row, c);
    for (size_t f = 0; f < plan_.options.functions.size(); ++f) {
      const WindowFunction& function = plan_.options.functions[f];
      const size_t column = width + f;
      switch (function.kind) {
        case WindowFunctionKind::kRowNumber:
          builder.set_int(column, static_cast<int64_t>(p + 1));
          break;
        case WindowFunctionKind::kRank:
          builder.set_int(column, static_cast<int64_t>(peer_start(p) + 1));
          break;
        case WindowFunctionKind::kDenseRank:
          builder.set_int(column, dense_rank_[position_entry_[p]]);
          break;
        case WindowFunctionKind::kLag:
        case WindowFunctionKind::kLead: {
          int64_t target = static_cast<int64_t>(p) +
                           (function.kind == WindowFunctionKind::kLag ? -function.offset : function.offset);
          if (target >= 0 && target < static_cast<int64_t>(positions())) {
            RowReader other(*plan_.row_schema,
                            sorted_row_payload(entries_[position_entry_[static_cast<size_t>(target)]]));
            builder.copy_field(column, other, function.column);
          } else if (function.default_column) {
            builder.copy_field(column, row, *function.default_column);
          } else {
            builder.set_null(column);
          }
          break;
        }
        case WindowFunctionKind::kAggregate:
          FRESHET_RETURN_IF_ERROR(write_aggregate(f, function, p, builder));
          break;
        case WindowFunctionKind::kFirstValue:
        case WindowFunctionKind::kLastValue: {
          // The frame's first (last) row's value; NULL when the frame is empty.
          auto [start, end] = frame(function, p);
          if (start < end) {
            size_t at = function.kind == WindowFunctionKind::kFirstValue ? start : end - 1;
            builder.copy_field(column, RowReader(*plan_.row_schema, sorted_row_payload(entries_[position_entry_[at]])),
                               function.column);
          } else {
            builder.set_null(column);
          }
          break;
        }
      }
    }
    ++rows_computed;
    out.add_row(builder.finish(), sign);
  }
  return Status::OK();
}

}  // namespace freshet::window_detail
