// Tests of the join-aggregate whose grouped rows are picked columns of the
// two sides (join_aggregate.h): no row is built and a run of pairs of one row
// of the key's side finds its group once. Checked against a from-scratch
// join followed by the aggregate (random changes, and a script where a
// group found for a run is emptied and erased, groups alternate pair by
// pair, and rows are deleted), against the mapper form step by step (the
// same floating sums to the bit, the same failed step), and through a
// checkpoint.
#include <gtest/gtest.h>

#include <climits>

#include "freshet/circuit/work_meter.h"
#include "freshet/operators/input.h"
#include "freshet/operators/join.h"
#include "freshet/operators/join_aggregate.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

//! The grouped row as columns of the sides: the group key's first.
struct Picks {
  std::vector<JoinedColumn> columns;
  size_t group_count = 0;
};

SchemaPtr row_schema_of(const Schema& side, const Picks& picks, size_t count) {
  std::vector<Column> columns;
  for (size_t c = 0; c < count; ++c) columns.push_back({"c" + std::to_string(c), side.type(picks.columns[c].column)});
  return make_schema(std::move(columns));
}

//! The mapper writing the same group key and row, for the join of the reference.
JoinMapper mapper_of(const Picks& picks) {
  return [picks](const RowReader&, const RowReader& left, const RowReader* right, RowBuilder& group, RowBuilder& row) {
    for (size_t c = 0; c < picks.columns.size(); ++c) {
      const RowReader& side = picks.columns[c].from_left ? left : *right;
      if (c < picks.group_count) group.copy_field(c, side, picks.columns[c].column);
      row.copy_field(c, side, picks.columns[c].column);
    }
  };
}

AggregateSpec spec_of(const Schema& row, AggregateKind kind, size_t column, const char* name, size_t compared = 0) {
  SqlType input = kind == AggregateKind::kCountStar ? SqlType::bigint() : row.type(column);
  AggregateSpec spec{kind, column, name, default_aggregate_type(kind, input)};
  spec.compared_column = compared;
  return spec;
}

// ---- (k, x, s) sides: every kind of aggregate, the key from either side ----

//! Group key columns, then left x, right s, right x, left s.
Picks kxs_picks(std::vector<JoinedColumn> group) {
  Picks picks{std::move(group), 0};
  picks.group_count = picks.columns.size();
  for (JoinedColumn column :
       {JoinedColumn{true, 1}, JoinedColumn{false, 2}, JoinedColumn{false, 1}, JoinedColumn{true, 2}}) {
    picks.columns.push_back(column);
  }
  return picks;
}

std::vector<AggregateSpec> kxs_specs(const Schema& row, size_t g) {
  using K = AggregateKind;
  const size_t lx = g, rs = g + 1, rx = g + 2, ls = g + 3;
  AggregateSpec distinct_sum = spec_of(row, K::kSum, rx, "sum_distinct_rx");
  distinct_sum.distinct = true;
  return {spec_of(row, K::kCountStar, 0, "n"),
          spec_of(row, K::kCount, lx, "count_lx"),
          spec_of(row, K::kSum, lx, "sum_lx"),
          spec_of(row, K::kAvg, rx, "avg_rx"),
          spec_of(row, K::kMin, rs, "min_rs"),
          spec_of(row, K::kMax, rs, "max_rs"),  // reads MIN's trace
          spec_of(row, K::kMax, lx, "max_lx"),
          spec_of(row, K::kCountDistinct, ls, "distinct_ls"),
          spec_of(row, K::kArgMax, rs, "rs_of_max_lx", lx),  // value and compared column from different sides
          distinct_sum,
          spec_of(row, K::kBitXor, lx, "xor_lx"),
          spec_of(row, K::kVarPop, rx, "var_rx")};
}

//! A circuit of two (k, x, s) inputs; `out` is what a test builds over them.
struct KxsSides {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  Stream out;
};

struct KxsGrouping {
  Picks picks;
  SchemaPtr group_schema, row_schema;
  std::vector<AggregateSpec> specs;

  explicit KxsGrouping(Picks p)
      : picks(std::move(p)),
        group_schema(row_schema_of(*testing::kxs_schema(), picks, picks.group_count)),
        row_schema(row_schema_of(*testing::kxs_schema(), picks, picks.columns.size())),
        specs(kxs_specs(*row_schema, picks.group_count)) {}

  Stream picked(const std::vector<Stream>& in) const {
    return join_aggregate(in[0], in[1], group_schema, row_schema, picks.columns, specs);
  }
  //! The join, then the aggregate, from scratch in one step over the integrated inputs.
  ZSetMap reference(const std::vector<ZSetMap>& inputs) const {
    KxsSides c;
    Stream joined = join(c.left->stream(), c.right->stream(), group_schema, row_schema, mapper_of(picks));
    c.out = aggregate(joined, specs);
    for (const auto& [entry, weight] : inputs[0]) c.left->push(RowRef(entry.first), RowRef(entry.second), weight);
    for (const auto& [entry, weight] : inputs[1]) c.right->push(RowRef(entry.first), RowRef(entry.second), weight);
    EXPECT_TRUE(c.circuit.step().ok());
    ZSetMap result;
    testing::add_batch(result, *c.out.current());
    return result;
  }
};

void run_kxs_oracle(Picks picks, int key_domain, uint64_t seed) {
  const KxsGrouping grouping(std::move(picks));
  testing::run_oracle(
      {testing::indexed_kxs_input(key_domain), testing::indexed_kxs_input(key_domain)},
      [&](const std::vector<Stream>& in) { return grouping.picked(in); },
      [&](const std::vector<ZSetMap>& inputs) { return grouping.reference(inputs); }, testing::test_seed(seed),
      {.steps = 250, .max_updates_per_step = 10, .delete_probability = 0.45});
}

TEST(JoinAggregatePickedTest, KeyOfTheRightSideMatchesTheReference) { run_kxs_oracle(kxs_picks({{false, 1}}), 4, 231); }

TEST(JoinAggregatePickedTest, KeyOfTheLeftSideMatchesTheReference) { run_kxs_oracle(kxs_picks({{true, 2}}), 4, 232); }

TEST(JoinAggregatePickedTest, KeyOfBothSidesMatchesTheReference) {
  run_kxs_oracle(kxs_picks({{true, 1}, {false, 2}}), 3, 233);
}

TEST(JoinAggregatePickedTest, NoGroupKeyMatchesTheReference) { run_kxs_oracle(kxs_picks({}), 3, 234); }

//! Entries pushed by hand, the integrated output checked against the
//! reference after every step.
class ScriptedRun {
 public:
  explicit ScriptedRun(Picks picks) : grouping_(std::move(picks)) {
    out_ = grouping_.picked({left_->stream(), right_->stream()});
  }
  void left(int64_t k, int64_t x, const char* s, Weight weight) { push(0, k, x, s, weight); }
  void right(int64_t k, int64_t x, const char* s, Weight weight) { push(1, k, x, s, weight); }
  void step_and_check(const char* what) {
    Status status = circuit_.step();
    ASSERT_TRUE(status.ok()) << status.to_string();
    testing::add_batch(output_, *out_.current());
    ASSERT_EQ(testing::describe(output_, out_.key_schema(), out_.value_schema()),
              testing::describe(grouping_.reference(inputs_), out_.key_schema(), out_.value_schema()))
        << what;
  }
  size_t groups() const { return output_.size(); }

 private:
  void push(int side, int64_t k, int64_t x, const char* s, Weight weight) {
    std::string key = encode_row(*testing::bigint_schema(), {Value::bigint(k)});
    std::string value = encode_row(*testing::kxs_schema(), {Value::bigint(k), Value::bigint(x), Value::varchar(s)});
    (side == 0 ? left_ : right_)->push(RowRef(key), RowRef(value), weight);
    testing::add_entry(inputs_[side], key, value, weight);
  }

  KxsGrouping grouping_;
  Circuit circuit_;
  InputOperator* left_ = add_input(circuit_, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right_ = add_input(circuit_, testing::bigint_schema(), testing::kxs_schema());
  Stream out_;
  std::vector<ZSetMap> inputs_{2};
  ZSetMap output_;
};

// Orders (left) of customers (right) grouped by the customer's region (right s).
TEST(JoinAggregatePickedTest, GroupsEmptiedAlternatingAndDeletedWithinSteps) {
  ScriptedRun run(kxs_picks({{false, 2}}));
  run.right(1, 10, "east", 1);
  run.right(2, 20, "west", 1);
  for (int i = 0; i < 5; ++i) run.left(1, i, "o", 1), run.left(2, i, "o", 1);
  run.step_and_check("the load: a run of five pairs per customer");
  EXPECT_EQ(run.groups(), 2u);

  // Customer 1 moves: its old row's pairs empty "east" (erased when the step
  // ends), its new row's fill "west"; a new order meets the new row too.
  run.right(1, 10, "east", -1);
  run.right(1, 10, "west", 1);
  run.left(1, 7, "o", 1);
  run.step_and_check("customer 1 moves west");
  EXPECT_EQ(run.groups(), 1u);

  // Back east, and a second row of customer 2 in another region: each order
  // of customer 2 then pairs with both, its pairs alternating west and north.
  run.right(1, 10, "west", -1);
  run.right(1, 10, "east", 1);
  run.right(2, 21, "north", 1);
  run.step_and_check("east again, customer 2 in two regions");
  for (int i = 10; i < 14; ++i) run.left(2, i, "p", i % 2 ? 1 : 2);
  run.step_and_check("orders alternating between two groups");

  // Deletes: the orders of customer 2 leave (north is emptied), then a group
  // is emptied and refilled in one step (other rows, same region).
  for (int i = 0; i < 5; ++i) run.left(2, i, "o", -1);
  for (int i = 10; i < 14; ++i) run.left(2, i, "p", i % 2 ? -1 : -2);
  run.step_and_check("customer 2's orders deleted");
  run.right(1, 10, "east", -1);
  run.right(1, 11, "east", 1);
  run.step_and_check("east emptied and refilled in one step");
  run.right(1, 11, "east", -1);
  run.right(2, 20, "west", -1);
  run.right(2, 21, "north", -1);
  run.step_and_check("every customer deleted");
  EXPECT_EQ(run.groups(), 0u);
}

// Under a meter (an ad-hoc query's, or a step's under a memory budget) the
// walk stops at the first pair past the bound. A run's pairs are charged
// before their folds charge their trace entries, so where it stops may
// differ from the mapper form's walk, pair by pair; whether the bound is
// passed may not, and below it the forms charge and emit alike.
TEST(JoinAggregatePickedTest, UnderAMeterBothFormsPassTheBoundAlike) {
  const KxsGrouping grouping(kxs_picks({{false, 2}}));
  auto run = [&](bool picked, uint64_t max_rows, ZSetMap* output) {
    KxsSides m;
    m.out = picked ? grouping.picked({m.left->stream(), m.right->stream()})
                   : join_aggregate(m.left->stream(), m.right->stream(), grouping.group_schema, grouping.row_schema,
                                    mapper_of(grouping.picks), grouping.specs);
    auto push = [](InputOperator* side, int64_t k, int64_t x, const char* s) {
      std::string key = encode_row(*testing::bigint_schema(), {Value::bigint(k)});
      std::string value = encode_row(*testing::kxs_schema(), {Value::bigint(k), Value::bigint(x), Value::varchar(s)});
      side->push(RowRef(key), RowRef(value), 1);
    };
    for (int64_t k = 0; k < 4; ++k) push(m.right, k, k, k % 2 ? "east" : "west");
    EXPECT_TRUE(m.circuit.step().ok());
    for (int64_t k = 0; k < 4; ++k) {
      for (int64_t x = 0; x < 10; ++x) push(m.left, k, x, "o");
    }
    WorkMeter meter(max_rows, UINT64_MAX);
    {
      ScopedWorkMeter metered(&meter);
      EXPECT_TRUE(m.circuit.step().ok());
    }
    if (output) testing::add_batch(*output, *m.out.current());
    return std::make_pair(meter.rows(), meter.exceeded());
  };
  // 40 pairs in runs of 10, after the inputs' own entries.
  const uint64_t total = run(false, UINT64_MAX, nullptr).first;
  ASSERT_EQ(run(true, UINT64_MAX, nullptr).first, total);
  for (uint64_t max_rows : {uint64_t{45}, uint64_t{67}, total - 1, total, total + 1}) {
    ZSetMap mapped, picked;
    const auto by_pairs = run(false, max_rows, &mapped);
    const auto by_runs = run(true, max_rows, &picked);
    ASSERT_EQ(by_pairs.second, by_runs.second) << "bound " << max_rows;
    EXPECT_EQ(by_runs.second, max_rows < total) << "bound " << max_rows;
    // Past a bound met in the walk, it stops: a whole run of pairs and their
    // folds are never charged.
    if (by_runs.second && max_rows <= 67) {
      EXPECT_LT(by_runs.first, total - 10 * 6) << "bound " << max_rows;
    } else if (!by_runs.second) {
      EXPECT_EQ(by_pairs.first, by_runs.first);
      EXPECT_EQ(mapped, picked);
      EXPECT_EQ(picked.size(), 2u);
    }
  }
}

// ---- (k, d, i, s) sides: floating sums and failures against the mapper form ----

SchemaPtr kdis_schema() {
  static const SchemaPtr kSchema = make_schema({{"k", SqlType::bigint()},
                                                {"d", SqlType::double_precision()},
                                                {"i", SqlType::integer()},
                                                {"s", SqlType::varchar()}});
  return kSchema;
}

//! A row whose doubles add up differently in different orders and whose
//! integers overflow an INTEGER sum.
void random_kdis(std::mt19937_64& random, RowBuilder& key, RowBuilder& value) {
  static const double kDoubles[] = {0.1, 0.2, 0.3, 1e16, -1e16, 1.5, -2.25, 3e-17};
  static const int32_t kInts[] = {INT32_MAX, INT32_MAX - 1, -INT32_MAX, 1, -1, 7};
  static const char* kStrings[] = {"a", "b", "c"};
  const int64_t k = std::uniform_int_distribution<int>(0, 2)(random);
  key.set_int(0, k);
  value.set_int(0, k);
  auto null_now = [&] { return std::bernoulli_distribution(0.1)(random); };
  if (null_now())
    value.set_null(1);
  else
    value.set_double(1, kDoubles[random() % 8]);
  if (null_now())
    value.set_null(2);
  else
    value.set_int(2, kInts[random() % 6]);
  if (null_now())
    value.set_null(3);
  else
    value.set_string(3, kStrings[random() % 3]);
}

//! Groups by right s; the row: right s, left d, right d, left i.
const Picks& kdis_picks() {
  static const Picks kPicks{{{false, 3}, {true, 1}, {false, 1}, {true, 2}}, 1};
  return kPicks;
}

std::vector<AggregateSpec> kdis_specs(const Schema& row) {
  using K = AggregateKind;
  return {spec_of(row, K::kCountStar, 0, "n"), spec_of(row, K::kSum, 1, "sum_ld"), spec_of(row, K::kAvg, 2, "avg_rd"),
          spec_of(row, K::kSum, 3, "sum_li"), spec_of(row, K::kVarSamp, 1, "var_ld")};
}

//! Only aggregates folded inline (no error possible): a run is folded one
//! aggregate at a time.
std::vector<AggregateSpec> inline_kdis_specs(const Schema& row) {
  using K = AggregateKind;
  return {spec_of(row, K::kSum, 1, "sum_ld"),     spec_of(row, K::kCountStar, 0, "n"),
          spec_of(row, K::kAvg, 2, "avg_rd"),     spec_of(row, K::kCount, 3, "count_li"),
          spec_of(row, K::kCount, 2, "count_rd"), spec_of(row, K::kSum, 2, "sum_rd")};
}

// Both forms over the same inputs, in one circuit: equal outputs, byte for
// byte, every step, and the same steps failed. A load first (a row per key
// on the right, then many on the left: runs of many pairs), then random
// changes.
void compare_forms(std::vector<AggregateSpec> (*specs)(const Schema&), bool null_on_overflow, bool fails,
                   uint64_t seed) {
  const Picks& picks = kdis_picks();
  SchemaPtr group = row_schema_of(*kdis_schema(), picks, 1), row = row_schema_of(*kdis_schema(), picks, 4);
  AggregateErrorHandler handler;
  if (null_on_overflow) handler = [](const Status&, const AggregateSpec&, const RowReader&) { return true; };
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), kdis_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), kdis_schema());
  Stream mapped = join_aggregate(left->stream(), right->stream(), group, row, mapper_of(picks), specs(*row), handler);
  Stream picked = join_aggregate(left->stream(), right->stream(), group, row, picks.columns, specs(*row), handler);
  std::mt19937_64 random(testing::test_seed(seed));
  std::vector<std::pair<std::string, std::string>> live[2];
  RowBuilder key(*testing::bigint_schema()), value(*kdis_schema());
  bool failed = false;
  for (int step = 0; step < 200; ++step) {
    for (int side = 0; side < 2; ++side) {
      InputOperator* input = side == 0 ? left : right;
      const int loaded = step == 0 && side == 1 ? 3 : step == 1 && side == 0 ? 40 : 0;
      for (int u = loaded; u > 0; --u) {
        random_kdis(random, key, value);
        key.set_int(0, side == 1 ? u - 1 : u % 3);  // the right side's rows: one per key
        value.set_int(0, side == 1 ? u - 1 : u % 3);
        live[side].emplace_back(key.finish().to_bytes(), value.finish().to_bytes());
        input->push(RowRef(live[side].back().first), RowRef(live[side].back().second), 1);
      }
      for (int u = step < 2 ? 0 : std::uniform_int_distribution<int>(0, 8)(random); u > 0; --u) {
        if (!live[side].empty() && std::bernoulli_distribution(0.4)(random)) {
          const size_t at = random() % live[side].size();
          input->push(RowRef(live[side][at].first), RowRef(live[side][at].second), -1);
          live[side].erase(live[side].begin() + static_cast<std::ptrdiff_t>(at));
          continue;
        }
        random_kdis(random, key, value);
        live[side].emplace_back(key.finish().to_bytes(), value.finish().to_bytes());
        input->push(RowRef(live[side].back().first), RowRef(live[side].back().second), 1);
      }
    }
    ASSERT_TRUE(circuit.step().ok());
    const bool mapped_failed = circuit.stream_failure(mapped) != nullptr;
    ASSERT_EQ(mapped_failed, circuit.stream_failure(picked) != nullptr) << "step " << step;
    failed = failed || mapped_failed;
    if (mapped_failed) continue;
    ASSERT_EQ(testing::to_map(*mapped.current()), testing::to_map(*picked.current())) << "step " << step;
  }
  EXPECT_EQ(failed, fails);
}

TEST(JoinAggregatePickedTest, FoldsAsTheMapperFormToTheBit) {
  compare_forms(kdis_specs, /*null_on_overflow=*/true, /*fails=*/false, 235);
}

TEST(JoinAggregatePickedTest, FoldsRunsOfInlineAggregatesAsTheMapperFormToTheBit) {
  compare_forms(inline_kdis_specs, /*null_on_overflow=*/false, /*fails=*/false, 238);
}

// Without the handler an INTEGER sum leaves its range at some step.
TEST(JoinAggregatePickedTest, FailsTheStepTheMapperFormFails) {
  compare_forms(kdis_specs, /*null_on_overflow=*/false, /*fails=*/true, 236);
}

TEST(JoinAggregatePickedTest, ItsStateSurvivesACheckpoint) {
  const KxsGrouping grouping(kxs_picks({{false, 1}}));
  auto build = [&](KxsSides& c) { c.out = grouping.picked({c.left->stream(), c.right->stream()}); };
  std::mt19937_64 random(testing::test_seed(237));
  testing::OracleInput input = testing::indexed_kxs_input(4);
  RowBuilder key(*testing::bigint_schema()), value(*testing::kxs_schema());
  auto push_random = [&](std::vector<InputOperator*> sides) {
    for (int i = 0; i < 5; ++i) {
      input.generate(random, key, value);
      std::string k = key.finish().to_bytes(), v = value.finish().to_bytes();
      for (InputOperator* side : sides) side->push(RowRef(k), RowRef(v), 1);
    }
  };
  KxsSides original;
  build(original);
  for (int step = 0; step < 30; ++step) {
    push_random({step % 2 ? original.left : original.right});
    ASSERT_TRUE(original.circuit.step().ok());
  }
  ByteWriter saved;
  original.circuit.save_state(saved);
  KxsSides restored;
  build(restored);
  ASSERT_TRUE(restored.circuit.restore_state(saved.data()).ok());
  for (int step = 0; step < 30; ++step) {
    const bool to_left = step % 3 == 0;
    push_random({to_left ? original.left : original.right, to_left ? restored.left : restored.right});
    ASSERT_TRUE(original.circuit.step().ok());
    ASSERT_TRUE(restored.circuit.step().ok());
    ASSERT_EQ(testing::to_map(*original.out.current()), testing::to_map(*restored.out.current()))
        << "step " << step << " after the restore";
  }
}

}  // namespace
}  // namespace freshet
