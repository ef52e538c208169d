// Tests of the window operator: the header's example, oracle runs (random
// inserts and deletes with ties, NULLs and duplicates in a few partitions,
// the integrated output compared after every step with a plain from-scratch
// evaluation of every function), rank limits (the top-k rule), a check that a
// LAG step emits only the rows near the change, and a checkpoint round trip.
#include "freshet/operators/window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "freshet/common/byte_io.h"
#include "support/generators.h"
#include "support/oracle.h"
#include "support/rank_limit_oracle.h"

namespace freshet {
namespace {

using testing::ZSetMap;
using Kind = WindowBound::Kind;

// ---- The reference: every function computed plainly per position ----

int compare_column(const RowReader& a, const RowReader& b, size_t column) {
  if (a.schema().type(column).id == TypeId::kVarchar) {
    int c = a.get_string(column).compare(b.get_string(column));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int64_t x = a.get_int(column), y = b.get_int(column);
  return x < y ? -1 : (x > y ? 1 : 0);
}

//! -1/0/1: a before, a peer of, after b in ORDER BY order (NULLs per nulls_first).
int sql_order(const RowReader& a, const RowReader& b, const std::vector<SortColumn>& order_by) {
  for (const SortColumn& sort : order_by) {
    bool a_null = a.is_null(sort.column), b_null = b.is_null(sort.column);
    if (a_null && b_null) continue;
    if (a_null || b_null) return (a_null == sort.nulls_first) ? -1 : 1;
    int c = compare_column(a, b, sort.column);
    if (c != 0) return sort.descending ? -c : c;
  }
  return 0;
}

struct Bounds {
  size_t start, end;
};

//! The frame of position i, from its definition: every position j tested.
Bounds reference_frame(const std::vector<RowReader>& rows, size_t i, const WindowFunction& f,
                       const std::vector<SortColumn>& order_by) {
  size_t start = rows.size(), end = 0;
  for (size_t j = 0; j < rows.size(); ++j) {
    bool in;
    if (f.rows_frame) {
      int64_t d = static_cast<int64_t>(j) - static_cast<int64_t>(i);
      bool after_start =
          f.start.kind == Kind::kUnboundedPreceding || (f.start.kind == Kind::kPreceding && d >= -f.start.rows) ||
          (f.start.kind == Kind::kCurrentRow && d >= 0) || (f.start.kind == Kind::kFollowing && d >= f.start.rows);
      bool before_end =
          f.end.kind == Kind::kUnboundedFollowing || (f.end.kind == Kind::kFollowing && d <= f.end.rows) ||
          (f.end.kind == Kind::kCurrentRow && d <= 0) || (f.end.kind == Kind::kPreceding && d <= -f.end.rows);
      in = after_start && before_end;
    } else {
      int order = sql_order(rows[j], rows[i], order_by);  // j relative to i
      auto value_ok = [&](const WindowBound& b, bool is_start) {
        if (b.kind == Kind::kUnboundedPreceding || b.kind == Kind::kUnboundedFollowing) return true;
        if (b.kind == Kind::kCurrentRow) return is_start ? order >= 0 : order <= 0;
        size_t column = order_by[0].column;
        // A NULL's offsets mean its peers; a non-NULL's offsets stop short of the NULLs
        // (the frame stays contiguous: UNBOUNDED on the NULLs' side reaches them).
        if (rows[i].is_null(column) || rows[j].is_null(column)) return is_start ? order >= 0 : order <= 0;
        int64_t distance = rows[j].get_int(column) - rows[i].get_int(column);
        if (order_by[0].descending) distance = -distance;  // in ORDER BY direction
        int64_t limit = b.kind == Kind::kPreceding ? -static_cast<int64_t>(b.exact) : static_cast<int64_t>(b.exact);
        return is_start ? distance >= limit : distance <= limit;
      };
      in = value_ok(f.start, true) && value_ok(f.end, false);
    }
    if (in) {
      start = std::min(start, j);
      end = std::max(end, j + 1);
    }
  }
  return start < end ? Bounds{start, end} : Bounds{0, 0};
}

void reference_aggregate(const std::vector<RowReader>& rows, Bounds frame, const WindowFunction& f, size_t column,
                         RowBuilder& out) {
  int64_t count = 0, sum = 0;
  std::optional<int64_t> best;
  for (size_t j = frame.start; j < frame.end; ++j) {
    if (f.aggregate == AggregateKind::kCountStar) {
      ++count;
      continue;
    }
    if (rows[j].is_null(f.column)) continue;
    int64_t v = rows[j].get_int(f.column);
    ++count;
    sum += v;
    if (!best || (f.aggregate == AggregateKind::kMin ? v < *best : v > *best)) best = v;
  }
  switch (f.aggregate) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      out.set_int(column, count);
      return;
    case AggregateKind::kSum:
      count ? out.set_int(column, sum) : out.set_null(column);
      return;
    case AggregateKind::kAvg:
      count ? out.set_int(column, sum / count) : out.set_null(column);
      return;
    default:
      best ? out.set_int(column, *best) : out.set_null(column);
      return;
  }
}

ZSetMap window_reference(const ZSetMap& input, const WindowOptions& options, const Schema& output_schema) {
  const Schema& schema = *testing::kxs_schema();
  std::map<std::string, std::vector<std::pair<std::string, Weight>>> partitions;
  for (const auto& [entry, weight] : input) {
    if (weight > 0) partitions[entry.first].push_back({entry.second, weight});
  }
  ZSetMap out;
  for (auto& [partition, entries] : partitions) {
    std::sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
      RowReader x(schema, RowRef(a.first)), y(schema, RowRef(b.first));
      int c = sql_order(x, y, options.order_by);
      return c != 0 ? c < 0 : compare_rows(x.row(), y.row()) < 0;
    });
    std::vector<RowReader> rows;
    for (const auto& [row, weight] : entries) {
      for (Weight w = 0; w < weight; ++w) rows.emplace_back(schema, RowRef(row));
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      RowBuilder builder(output_schema);
      for (size_t c = 0; c < schema.size(); ++c) builder.copy_field(c, rows[i], c);
      std::optional<int64_t> rank_value;
      for (size_t f = 0; f < options.functions.size(); ++f) {
        const WindowFunction& function = options.functions[f];
        const size_t column = schema.size() + f;
        int64_t value = 0;
        switch (function.kind) {
          case WindowFunctionKind::kRowNumber:
            value = static_cast<int64_t>(i) + 1;
            break;
          case WindowFunctionKind::kRank:
            value = 1;
            for (size_t j = 0; j < rows.size(); ++j) value += sql_order(rows[j], rows[i], options.order_by) < 0;
            break;
          case WindowFunctionKind::kDenseRank: {
            value = 1;
            for (size_t j = 1; j <= i; ++j) value += sql_order(rows[j - 1], rows[j], options.order_by) != 0;
            break;
          }
          case WindowFunctionKind::kLag:
          case WindowFunctionKind::kLead: {
            int64_t target = static_cast<int64_t>(i) +
                             (function.kind == WindowFunctionKind::kLag ? -function.offset : function.offset);
            if (target >= 0 && target < static_cast<int64_t>(rows.size())) {
              builder.copy_field(column, rows[static_cast<size_t>(target)], function.column);
            } else if (function.default_column) {
              builder.copy_field(column, rows[i], *function.default_column);
            } else {
              builder.set_null(column);
            }
            continue;
          }
          case WindowFunctionKind::kAggregate:
            reference_aggregate(rows, reference_frame(rows, i, function, options.order_by), function, column, builder);
            continue;
          case WindowFunctionKind::kFirstValue:
          case WindowFunctionKind::kLastValue: {
            Bounds frame = reference_frame(rows, i, function, options.order_by);
            if (frame.start == frame.end) {
              builder.set_null(column);
            } else {
              size_t at = function.kind == WindowFunctionKind::kFirstValue ? frame.start : frame.end - 1;
              builder.copy_field(column, rows[at], function.column);
            }
            continue;
          }
        }
        builder.set_int(column, value);
        if (options.rank_limit && f == options.rank_function) rank_value = value;
      }
      if (rank_value && static_cast<uint64_t>(*rank_value) > *options.rank_limit) continue;
      testing::add_entry(out, builder.finish().to_bytes(), "", 1);
    }
  }
  return out;
}

// ---- Functions under test ----

WindowFunction ranking(WindowFunctionKind kind) {
  WindowFunction f;
  f.kind = kind;
  f.result_type = SqlType::bigint(false);
  return f;
}

WindowFunction shift(WindowFunctionKind kind, size_t column, int64_t offset, std::optional<size_t> fallback,
                     SqlType type) {
  WindowFunction f;
  f.kind = kind;
  f.column = column;
  f.offset = offset;
  f.default_column = fallback;
  f.result_type = type.with_nullable(true);
  return f;
}

//! FIRST_VALUE or LAST_VALUE of `column` over a frame (the operator takes any frame; SQL allows fewer).
WindowFunction frame_value(WindowFunctionKind kind, size_t column, SqlType type, bool rows, WindowBound start,
                           WindowBound end) {
  WindowFunction f;
  f.kind = kind;
  f.column = column;
  f.result_type = type.with_nullable(true);
  f.rows_frame = rows;
  f.start = start;
  f.end = end;
  return f;
}

WindowFunction aggregate(AggregateKind kind, bool rows, WindowBound start, WindowBound end) {
  WindowFunction f;
  f.kind = WindowFunctionKind::kAggregate;
  f.aggregate = kind;
  f.column = 1;
  f.rows_frame = rows;
  f.start = start;
  f.end = end;
  f.result_type = default_aggregate_type(kind, SqlType::bigint());
  return f;
}

WindowBound rows_bound(Kind kind, int64_t n = 0) {
  WindowBound b;
  b.kind = kind;
  b.rows = n;
  b.exact = n;
  return b;
}

//! Every kind of function over one order: ranks, LAG/LEAD, and aggregates over ROWS and default frames.
std::vector<WindowFunction> all_functions(bool range_offsets) {
  std::vector<WindowFunction> fs = {
      ranking(WindowFunctionKind::kRowNumber),
      ranking(WindowFunctionKind::kRank),
      ranking(WindowFunctionKind::kDenseRank),
      shift(WindowFunctionKind::kLag, 1, 1, std::nullopt, SqlType::bigint()),
      shift(WindowFunctionKind::kLead, 2, 2, 2, SqlType::varchar()),
      shift(WindowFunctionKind::kLag, 2, 3, std::nullopt, SqlType::varchar()),
      aggregate(AggregateKind::kSum, false, rows_bound(Kind::kUnboundedPreceding), rows_bound(Kind::kCurrentRow)),
      aggregate(AggregateKind::kCountStar, true, rows_bound(Kind::kPreceding, 1), rows_bound(Kind::kFollowing, 1)),
      aggregate(AggregateKind::kMin, true, rows_bound(Kind::kPreceding, 2), rows_bound(Kind::kCurrentRow)),
      aggregate(AggregateKind::kMax, true, rows_bound(Kind::kCurrentRow), rows_bound(Kind::kUnboundedFollowing)),
      aggregate(AggregateKind::kAvg, true, rows_bound(Kind::kUnboundedPreceding),
                rows_bound(Kind::kUnboundedFollowing)),
      aggregate(AggregateKind::kCount, true, rows_bound(Kind::kFollowing, 1), rows_bound(Kind::kFollowing, 3)),
      frame_value(WindowFunctionKind::kFirstValue, 1, SqlType::bigint(), false, rows_bound(Kind::kUnboundedPreceding),
                  rows_bound(Kind::kCurrentRow)),
      frame_value(WindowFunctionKind::kLastValue, 2, SqlType::varchar(), false, rows_bound(Kind::kCurrentRow),
                  rows_bound(Kind::kUnboundedFollowing)),
      frame_value(WindowFunctionKind::kFirstValue, 2, SqlType::varchar(), true, rows_bound(Kind::kPreceding, 2),
                  rows_bound(Kind::kFollowing, 1)),
      frame_value(WindowFunctionKind::kLastValue, 1, SqlType::bigint(), true, rows_bound(Kind::kPreceding, 3),
                  rows_bound(Kind::kPreceding, 1)),
  };
  if (range_offsets) {
    fs.push_back(aggregate(AggregateKind::kSum, false, rows_bound(Kind::kPreceding, 2), rows_bound(Kind::kCurrentRow)));
    fs.push_back(
        aggregate(AggregateKind::kMax, false, rows_bound(Kind::kPreceding, 3), rows_bound(Kind::kFollowing, 1)));
    fs.push_back(
        aggregate(AggregateKind::kCountStar, false, rows_bound(Kind::kFollowing, 1), rows_bound(Kind::kFollowing, 4)));
    fs.push_back(
        aggregate(AggregateKind::kMin, false, rows_bound(Kind::kCurrentRow), rows_bound(Kind::kUnboundedFollowing)));
    fs.push_back(frame_value(WindowFunctionKind::kLastValue, 2, SqlType::varchar(), false,
                             rows_bound(Kind::kPreceding, 2), rows_bound(Kind::kFollowing, 1)));
  }
  for (size_t i = 0; i < fs.size(); ++i) fs[i].name = "f" + std::to_string(i);
  return fs;
}

//! Only functions whose reach is bounded (LAG/LEAD, bounded ROWS and RANGE frames):
//! a step recomputes only the rows near each change, which these runs check.
std::vector<WindowFunction> bounded_functions(bool range_offsets) {
  std::vector<WindowFunction> fs;
  for (WindowFunction& f : all_functions(range_offsets)) {
    bool unbounded =
        f.kind == WindowFunctionKind::kRowNumber || f.kind == WindowFunctionKind::kRank ||
        f.kind == WindowFunctionKind::kDenseRank ||
        (reads_frame(f.kind) && (f.start.kind == Kind::kUnboundedPreceding || f.end.kind == Kind::kUnboundedFollowing));
    if (!unbounded) fs.push_back(std::move(f));
  }
  return fs;
}

void run_window_oracle(const testing::OracleInput& input, WindowOptions options, uint64_t seed,
                       double delete_probability = 0.5) {
  ASSERT_TRUE(validate_window(*testing::kxs_schema(), options).ok());
  SchemaPtr output_schema;
  testing::run_oracle(
      {input},
      [&](const std::vector<Stream>& in) {
        Stream out = window(in[0], options);
        output_schema = out.key_schema_ptr();
        return out;
      },
      [&](const std::vector<ZSetMap>& in) { return window_reference(in[0], options, *output_schema); }, seed,
      // As many deletes as inserts keeps partitions small enough for the quadratic reference.
      testing::OracleOptions{1000, 4, delete_probability});
}

WindowOptions unlimited(std::vector<SortColumn> order_by, std::vector<WindowFunction> functions) {
  WindowOptions options;
  options.order_by = std::move(order_by);
  options.functions = std::move(functions);
  return options;
}

testing::OracleInput global_input() {
  return {empty_schema(), testing::kxs_schema(),
          [](std::mt19937_64& random, RowBuilder&, RowBuilder& value) { testing::random_kxs(random, value, 3); }};
}

TEST(WindowTest, MatchesOracleXAscendingWithRangeFrames) {
  run_window_oracle(testing::indexed_kxs_input(3), unlimited({{1, false, false}}, all_functions(true)),
                    testing::test_seed(401));
}

TEST(WindowTest, MatchesOracleXDescendingNullsFirstWithRangeFrames) {
  run_window_oracle(testing::indexed_kxs_input(3), unlimited({{1, true, true}}, all_functions(true)),
                    testing::test_seed(402));
}

TEST(WindowTest, MatchesOracleStringThenXGlobal) {
  run_window_oracle(global_input(), unlimited({{2, false, true}, {1, true, false}}, all_functions(false)),
                    testing::test_seed(403));
}

TEST(WindowTest, MatchesOracleBoundedReachAscending) {
  run_window_oracle(testing::indexed_kxs_input(2), unlimited({{1, false, false}}, bounded_functions(true)),
                    testing::test_seed(409), 0.4);
}

TEST(WindowTest, MatchesOracleBoundedReachDescendingNullsFirst) {
  run_window_oracle(testing::indexed_kxs_input(2), unlimited({{1, true, true}}, bounded_functions(true)),
                    testing::test_seed(410), 0.4);
}

TEST(WindowTest, MatchesOracleBoundedReachTwoColumns) {
  run_window_oracle(global_input(), unlimited({{2, true, false}, {1, false, true}}, bounded_functions(false)),
                    testing::test_seed(411), 0.4);
}

// Positional functions only: each cluster of changes is computed from the
// rows around it, read by walking the trace from the change.
TEST(WindowTest, MatchesOracleLocalAscending) {
  run_window_oracle(testing::indexed_kxs_input(2), unlimited({{1, false, false}}, bounded_functions(false)),
                    testing::test_seed(412), 0.35);
}

TEST(WindowTest, MatchesOracleLocalDescendingNullsFirstManyChanges) {
  WindowOptions options = unlimited({{1, true, true}, {2, false, false}}, bounded_functions(false));
  ASSERT_TRUE(validate_window(*testing::kxs_schema(), options).ok());
  SchemaPtr output_schema;
  testing::run_oracle(
      {testing::indexed_kxs_input(2)},
      [&](const std::vector<Stream>& in) {
        Stream out = window(in[0], options);
        output_schema = out.key_schema_ptr();
        return out;
      },
      [&](const std::vector<ZSetMap>& in) { return window_reference(in[0], options, *output_schema); },
      testing::test_seed(413), testing::OracleOptions{1000, 12, 0.45});
}

TEST(WindowTest, MatchesOracleLocalReachZero) {
  std::vector<WindowFunction> fs = {
      shift(WindowFunctionKind::kLag, 2, 0, std::nullopt, SqlType::varchar()),
      aggregate(AggregateKind::kSum, true, rows_bound(Kind::kCurrentRow), rows_bound(Kind::kCurrentRow))};
  for (size_t i = 0; i < fs.size(); ++i) fs[i].name = "f" + std::to_string(i);
  run_window_oracle(testing::indexed_kxs_input(2), unlimited({{1, false, false}}, fs), testing::test_seed(414), 0.4);
}

//! Aggregates over RANGE frames bounded on both sides: computed from the rows
//! within the frames' reach of each change, found by walking from it.
std::vector<WindowFunction> range_functions() {
  std::vector<WindowFunction> fs = {
      aggregate(AggregateKind::kSum, false, rows_bound(Kind::kPreceding, 2), rows_bound(Kind::kCurrentRow)),
      aggregate(AggregateKind::kMax, false, rows_bound(Kind::kPreceding, 3), rows_bound(Kind::kFollowing, 1)),
      aggregate(AggregateKind::kCountStar, false, rows_bound(Kind::kFollowing, 1), rows_bound(Kind::kFollowing, 4)),
      aggregate(AggregateKind::kCount, false, rows_bound(Kind::kCurrentRow), rows_bound(Kind::kCurrentRow)),
      aggregate(AggregateKind::kAvg, false, rows_bound(Kind::kPreceding, 1), rows_bound(Kind::kPreceding, 1))};
  for (size_t i = 0; i < fs.size(); ++i) fs[i].name = "f" + std::to_string(i);
  return fs;
}

TEST(WindowTest, MatchesOracleRangeLocalAscending) {
  run_window_oracle(testing::indexed_kxs_input(2), unlimited({{1, false, false}}, range_functions()),
                    testing::test_seed(415), 0.35);
}

TEST(WindowTest, MatchesOracleRangeLocalDescendingNullsFirst) {
  run_window_oracle(testing::indexed_kxs_input(2), unlimited({{1, true, true}}, range_functions()),
                    testing::test_seed(416), 0.35);
}

TEST(WindowTest, MatchesOracleWithoutOrderBy) {
  // No ORDER BY: every row is a peer of every other; frames are the whole partition.
  std::vector<WindowFunction> fs = {
      ranking(WindowFunctionKind::kRowNumber),
      aggregate(AggregateKind::kSum, false, rows_bound(Kind::kUnboundedPreceding),
                rows_bound(Kind::kUnboundedFollowing)),
      aggregate(AggregateKind::kMin, false, rows_bound(Kind::kUnboundedPreceding),
                rows_bound(Kind::kUnboundedFollowing)),
      aggregate(AggregateKind::kCount, false, rows_bound(Kind::kUnboundedPreceding), rows_bound(Kind::kCurrentRow)),
      frame_value(WindowFunctionKind::kFirstValue, 1, SqlType::bigint(), false, rows_bound(Kind::kUnboundedPreceding),
                  rows_bound(Kind::kUnboundedFollowing)),
      frame_value(WindowFunctionKind::kLastValue, 2, SqlType::varchar(), false, rows_bound(Kind::kUnboundedPreceding),
                  rows_bound(Kind::kUnboundedFollowing))};
  for (size_t i = 0; i < fs.size(); ++i) fs[i].name = "f" + std::to_string(i);
  run_window_oracle(testing::indexed_kxs_input(3), unlimited({}, fs), testing::test_seed(404));
}

WindowOptions limited(WindowFunctionKind kind, uint64_t k) {
  WindowOptions options;
  options.order_by = {{1, true, true}, {2, false, false}};
  options.functions = {
      ranking(kind), shift(WindowFunctionKind::kLag, 1, 1, std::nullopt, SqlType::bigint()),
      aggregate(AggregateKind::kSum, true, rows_bound(Kind::kUnboundedPreceding), rows_bound(Kind::kCurrentRow))};
  for (size_t i = 0; i < options.functions.size(); ++i) options.functions[i].name = "f" + std::to_string(i);
  options.rank_limit = k;
  options.rank_function = 0;
  return options;
}

TEST(WindowTest, MatchesOracleRowNumberLimit) {
  run_window_oracle(testing::indexed_kxs_input(3), limited(WindowFunctionKind::kRowNumber, 2), testing::test_seed(405));
}

TEST(WindowTest, MatchesOracleRankLimit) {
  run_window_oracle(testing::indexed_kxs_input(3), limited(WindowFunctionKind::kRank, 3), testing::test_seed(406));
}

TEST(WindowTest, MatchesOracleDenseRankLimit) {
  run_window_oracle(testing::indexed_kxs_input(3), limited(WindowFunctionKind::kDenseRank, 2), testing::test_seed(407));
}

// Runs whose changes mostly land past the ranked rows, which the operator
// then skips without reading (rank_limit_oracle.h): ties, weights, upserts,
// and a checkpoint restored over a later state.
void run_rank_limit_skip_oracle(WindowOptions options, uint64_t seed, testing::RankLimitRunOptions run = {},
                                double least_skipped = 0.33) {
  ASSERT_TRUE(validate_window(*testing::kxs_schema(), options).ok());
  SchemaPtr output_schema;
  const WindowStats* live_stats = nullptr;  // the operator's, gone with the circuit
  std::optional<WindowStats> stats;
  testing::run_rank_limit_oracle(
      [&](const std::vector<Stream>& in) {
        Stream out = window(in[0], options, &live_stats);
        output_schema = out.key_schema_ptr();
        return out;
      },
      [&](const std::vector<ZSetMap>& in) { return window_reference(in[0], options, *output_schema); }, seed, run,
      [&] { stats = *live_stats; });
  ASSERT_TRUE(stats.has_value());
  EXPECT_GT(static_cast<double>(stats->partitions_unchanged), least_skipped * stats->partitions_touched);
  EXPECT_LT(stats->partitions_unchanged, stats->partitions_touched);
}

//! limited(), ordered by x alone: rows that differ in s are peers.
WindowOptions limited_by_x(WindowFunctionKind kind, uint64_t k) {
  WindowOptions options = limited(kind, k);
  options.order_by = {{1, true, true}};
  return options;
}

TEST(WindowTest, ChangesPastTheRowNumberLimitMatchOracle) {
  run_rank_limit_skip_oracle(limited(WindowFunctionKind::kRowNumber, 3), testing::test_seed(409));
  run_rank_limit_skip_oracle(limited_by_x(WindowFunctionKind::kRowNumber, 3), testing::test_seed(413));
}

// RANK and DENSE_RANK take peers of the last ranked row: a change tying with
// it on ORDER BY must be read even when it comes after it.
TEST(WindowTest, ChangesPastTheRankLimitMatchOracle) {
  run_rank_limit_skip_oracle(limited(WindowFunctionKind::kRank, 3), testing::test_seed(410));
  run_rank_limit_skip_oracle(limited_by_x(WindowFunctionKind::kRank, 3), testing::test_seed(414));
}

TEST(WindowTest, ChangesPastTheDenseRankLimitMatchOracle) {
  run_rank_limit_skip_oracle(limited(WindowFunctionKind::kDenseRank, 2), testing::test_seed(411));
  run_rank_limit_skip_oracle(limited_by_x(WindowFunctionKind::kDenseRank, 2), testing::test_seed(415));
}

// 8000 partitions in the first step: more than the operator keeps (a
// megabyte), so some are read again from the trace on their next change.
TEST(WindowTest, ChangesPastTheRankLimitMatchOracleManyPartitions) {
  testing::RankLimitRunOptions run;
  run.partitions = 8000;
  run.initial_rows = 3;
  run.steps = 300;
  run.check_every = 30;
  run.save_at = 100;
  run.restore_at = 200;
  run_rank_limit_skip_oracle(limited(WindowFunctionKind::kRank, 2), testing::test_seed(412), run, 0.02);
}

// ---- Work and state ----

std::string kxs_row(int64_t k, int64_t x) {
  RowBuilder row(*testing::kxs_schema());
  row.set_int(0, k);
  row.set_int(1, x);
  row.set_string(2, "");
  return row.finish().to_bytes();
}

struct WindowCircuit {
  explicit WindowCircuit(WindowOptions options) {
    input = add_input(circuit, empty_schema(), testing::kxs_schema());
    out = window(input->stream(), std::move(options), &stats);
  }
  void push(int64_t x, Weight w) {
    std::string row = kxs_row(1, x);
    input->push(RowRef(), RowRef(row), w);
  }
  Circuit circuit;
  InputOperator* input = nullptr;
  Stream out;
  const WindowStats* stats = nullptr;
};

// A LAG over 10,000 rows: inserting one row changes two results (its own and
// the next row's), and only those rows are computed.
TEST(WindowTest, LagComputesOnlyTheRowsNearTheChange) {
  WindowOptions options;
  options.order_by = {{1, false, false}};
  options.functions = {shift(WindowFunctionKind::kLag, 1, 1, std::nullopt, SqlType::bigint())};
  options.functions[0].name = "lag";
  WindowCircuit t(options);
  for (int64_t x = 0; x < 10000; ++x) t.push(2 * x, 1);
  ASSERT_TRUE(t.circuit.step().ok());
  uint64_t before = t.stats->rows_computed;
  uint64_t visited = t.stats->entries_visited;
  t.push(5001, 1);
  ASSERT_TRUE(t.circuit.step().ok());
  EXPECT_LE(t.stats->rows_computed - before, 3u);      // old: the next row; new: the row and the next one
  EXPECT_LE(t.stats->entries_visited - visited, 12u);  // the walks start at the change, not the partition's start
  ZSetMap delta;
  testing::add_batch(delta, *t.out.current());
  EXPECT_EQ(delta.size(), 3u);  // -(5002, lag 5000), +(5001, lag 5000), +(5002, lag 5001)
}

// A sliding RANGE window over 10,000 rows: an insert reads only the rows
// within its reach, whatever the partition's size.
TEST(WindowTest, RangeFrameReadsOnlyTheRowsWithinReach) {
  WindowOptions options;
  options.order_by = {{1, false, false}};
  options.functions = {
      aggregate(AggregateKind::kSum, false, rows_bound(Kind::kPreceding, 10), rows_bound(Kind::kCurrentRow))};
  options.functions[0].name = "sum10";
  WindowCircuit t(options);
  for (int64_t x = 0; x < 10000; ++x) t.push(2 * x, 1);
  ASSERT_TRUE(t.circuit.step().ok());
  uint64_t visited = t.stats->entries_visited;
  t.push(10001, 1);
  ASSERT_TRUE(t.circuit.step().ok());
  // Rows 9981..10021 (about 20 on each side, twice: before and after).
  EXPECT_LE(t.stats->entries_visited - visited, 60u);
  ZSetMap delta;
  testing::add_batch(delta, *t.out.current());
  EXPECT_EQ(delta.size(), 11u);  // the new row, and -old/+new of the 5 rows whose frame covers 10001
}

TEST(WindowTest, CheckpointRoundTrip) {
  WindowOptions options = unlimited({{1, false, false}}, all_functions(true));
  std::mt19937_64 random(testing::test_seed(408));
  auto make = [&] {
    auto t = std::make_unique<WindowCircuit>(options);
    return t;
  };
  auto original = make();
  std::vector<std::pair<int64_t, Weight>> log;
  for (int step = 0; step < 30; ++step) {
    for (int i = 0; i < 5; ++i) {
      int64_t x = std::uniform_int_distribution<int64_t>(0, 20)(random);
      original->push(x, 1);
    }
    ASSERT_TRUE(original->circuit.step().ok());
  }
  ByteWriter saved;
  original->circuit.save_state(saved);
  auto restored = make();
  ASSERT_TRUE(restored->circuit.restore_state(saved.data()).ok());
  for (int step = 0; step < 30; ++step) {
    int64_t x = std::uniform_int_distribution<int64_t>(0, 20)(random);
    Weight w = step % 3 == 0 ? -1 : 1;
    if (w < 0) {
      original->push(x, 1);
      restored->push(x, 1);
      ASSERT_TRUE(original->circuit.step().ok());
      ASSERT_TRUE(restored->circuit.step().ok());
    }
    original->push(x, w);
    restored->push(x, w);
    ASSERT_TRUE(original->circuit.step().ok());
    ASSERT_TRUE(restored->circuit.step().ok());
    ZSetMap a, b;
    testing::add_batch(a, *original->out.current());
    testing::add_batch(b, *restored->out.current());
    ASSERT_EQ(a, b) << "step " << step << " after the restore";
  }
  const std::string& bytes = saved.data();
  auto damaged = make();
  EXPECT_EQ(damaged->circuit.restore_state(std::string_view(bytes).substr(0, bytes.size() / 2)).code(),
            ErrorCode::kCheckpointCorrupt);
}

}  // namespace
}  // namespace freshet
