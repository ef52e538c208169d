// Tests of MIN, MAX, ARG_MIN and ARG_MAX as the aggregate keeps them: one
// trace for a MIN and a MAX of the same column (MAX read from its last live
// entry), and a step that tells a group's new extreme from its emitted row
// and the step's changes, reading the trace only when a change is at the
// extreme itself. Oracle runs with ties, NULLs, weights above one and groups
// that vanish compare the integrated output with a from-scratch answer after
// every step; checkpoints of the layout before the traces were shared
// still restore.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>

#include "freshet/operators/aggregate.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;
using K = AggregateKind;

//! (x BIGINT, d DOUBLE, s VARCHAR, x2 BIGINT): x2 is always x (for a plan
//! that takes the same values from two columns, as the older layout did).
SchemaPtr extreme_schema() {
  static const SchemaPtr kSchema = make_schema({{"x", SqlType::bigint()},
                                                {"d", SqlType::double_precision()},
                                                {"s", SqlType::varchar()},
                                                {"x2", SqlType::bigint()}});
  return kSchema;
}

AggregateSpec spec(K kind, size_t column, bool distinct = false, size_t compared = 0) {
  const Schema& schema = *extreme_schema();
  SqlType input = kind == K::kCountStar ? SqlType::bigint() : schema.type(column);
  AggregateSpec s{kind, column, std::string(aggregate_kind_name(kind)) + "_" + std::to_string(column),
                  default_aggregate_type(kind, input)};
  s.name += distinct ? "_distinct" : "";
  s.distinct = distinct;
  s.compared_column = compared;
  return s;
}

//! MIN and MAX of x share MIN's trace (MAX reads its last entry), MAX and
//! MIN of d share MAX's (MIN reads the last), MIN(DISTINCT s) reads MIN(s)'s
//! first entry; ARG_* and MAX(x2) keep their own.
std::vector<AggregateSpec> extreme_specs() {
  return {spec(K::kCountStar, 0),
          spec(K::kMin, 0),
          spec(K::kMax, 0),
          spec(K::kMax, 1),
          spec(K::kMin, 1),
          spec(K::kMin, 2),
          spec(K::kMax, 2),
          spec(K::kMin, 2, true),
          spec(K::kArgMax, 0, false, 1),
          spec(K::kArgMin, 0, false, 1),
          spec(K::kMax, 3)};
}

bool less_value(const Value& a, const Value& b) {
  switch (a.type()) {
    case TypeId::kDouble:
      return a.as_double() < b.as_double();
    case TypeId::kVarchar:
      return a.as_string() < b.as_string();
    default:
      return a.as_int() < b.as_int();
  }
}

//! Feldera's ARG_MAX: the value of the largest (compared, value) pair,
//! NULL values lowest; ARG_MIN the smallest. Rows with a NULL compared skip.
Value arg_extreme(const AggregateSpec& s, const std::vector<std::pair<std::vector<Value>, Weight>>& rows) {
  const bool max = s.kind == K::kArgMax;
  const std::vector<Value>* best = nullptr;
  auto pair_less = [&](const std::vector<Value>& a, const std::vector<Value>& b) {
    const Value &ac = a[s.compared_column], &bc = b[s.compared_column];
    if (less_value(ac, bc)) return true;
    if (less_value(bc, ac)) return false;
    const Value &av = a[s.column], &bv = b[s.column];
    if (av.is_null() || bv.is_null()) return av.is_null() && !bv.is_null();
    return less_value(av, bv);
  };
  for (const auto& [row, weight] : rows) {
    if (weight <= 0 || row[s.compared_column].is_null()) continue;
    if (!best || (max ? pair_less(*best, row) : pair_less(row, *best))) best = &row;
  }
  return best ? (*best)[s.column] : Value::null(s.result_type.id);
}

Value reference_one(const AggregateSpec& s, const std::vector<std::pair<std::vector<Value>, Weight>>& rows) {
  if (s.kind == K::kCountStar) {
    Weight count = 0;
    for (const auto& row : rows) count += row.second;
    return Value::bigint(count);
  }
  if (s.kind == K::kArgMax || s.kind == K::kArgMin) return arg_extreme(s, rows);
  std::optional<Value> best;
  for (const auto& [row, weight] : rows) {
    const Value& x = row[s.column];
    if (weight <= 0 || x.is_null()) continue;
    if (!best || (s.kind == K::kMin ? less_value(x, *best) : less_value(*best, x))) best = x;
  }
  return best ? *best : Value::null(s.result_type.id);
}

//! The view from scratch: a row per group of positive total weight.
ZSetMap reference(const ZSetMap& input, const std::vector<AggregateSpec>& specs) {
  std::map<std::string, std::vector<std::pair<std::vector<Value>, Weight>>> groups;
  for (const auto& [entry, weight] : input) {
    groups[entry.first].push_back({decode_row(*extreme_schema(), RowRef(entry.second)), weight});
  }
  std::vector<Column> columns = testing::bigint_schema()->columns();
  for (const AggregateSpec& s : specs) columns.push_back({s.name, s.result_type});
  Schema output(columns);
  ZSetMap out;
  for (const auto& [key, rows] : groups) {
    Weight count = 0;
    for (const auto& row : rows) count += row.second;
    if (count <= 0) continue;
    std::vector<Value> values = decode_row(*testing::bigint_schema(), RowRef(key));
    for (const AggregateSpec& s : specs) values.push_back(reference_one(s, rows));
    testing::add_entry(out, encode_row(output, values), "", 1);
  }
  return out;
}

//! One input keyed by g BIGINT into one aggregate, with the input's and the
//! output's integrals.
struct ExtremeCircuit {
  explicit ExtremeCircuit(const std::vector<AggregateSpec>& specs) {
    input = add_input(circuit, testing::bigint_schema(), extreme_schema());
    output = aggregate(input->stream(), specs, &work);
  }
  void push(const std::string& key, const std::string& value, Weight weight) {
    input->push(RowRef(key), RowRef(value), weight);
  }
  void step() {
    ASSERT_TRUE(circuit.step().ok());
    testing::add_batch(view, *output.current());
  }
  //! Groups plus the entries of the value traces.
  size_t state_rows() const {
    size_t rows = 0;
    for (size_t i = 0; i < circuit.operator_count(); ++i) rows += circuit.operator_at(i).state_rows();
    return rows;
  }
  Circuit circuit;
  InputOperator* input = nullptr;
  Stream output;
  const AggregateWork* work = nullptr;
  ZSetMap view;
};

//! Random changes over few groups and few values: inserts of weight 1 to 3,
//! deletes of part or all of a row's weight, deletes aimed at a group's
//! current MIN or MAX, a group's rows all deleted at once, and rows inserted
//! and deleted in one step.
class ExtremeWorkload {
 public:
  ExtremeWorkload(uint64_t seed, int groups) : random_(seed), groups_(groups) {}

  //! The changes of one step, as (key, value, weight), given what is live:
  //! each deletes only what the ones before it left.
  std::vector<std::tuple<std::string, std::string, Weight>> step(ZSetMap live) {
    std::vector<std::tuple<std::string, std::string, Weight>> changes;
    const int count = pick(1, 6);
    for (int c = 0; c < count; ++c) {
      const size_t first_new = changes.size();
      add_changes(live, changes);
      for (size_t i = first_new; i < changes.size(); ++i) {
        testing::add_entry(live, std::get<0>(changes[i]), std::get<1>(changes[i]), std::get<2>(changes[i]));
      }
    }
    return changes;
  }

 private:
  void add_changes(const ZSetMap& live, std::vector<std::tuple<std::string, std::string, Weight>>& changes) {
    const double what = uniform();
    if (live.empty() || what < 0.45) {
      auto [key, value] = row();
      Weight weight = pick(1, 3);
      changes.push_back({key, value, weight});
      if (chance(0.1)) changes.push_back({key, value, -weight});  // in and out in one step
      return;
    }
    auto some = live.begin();
    std::advance(some, pick(0, static_cast<int>(live.size()) - 1));
    const std::string& group = some->first.first;
    if (what < 0.75) {
      changes.push_back({group, some->first.second, -pick(1, static_cast<int>(some->second))});
    } else if (what < 0.95) {
      // The row holding the group's smallest or largest x, all of its weight.
      const bool largest = chance(0.5);
      const ZSetMap::value_type* best = nullptr;
      for (const auto& entry : live) {
        if (entry.first.first != group) continue;
        RowReader row(*extreme_schema(), RowRef(entry.first.second));
        if (row.is_null(0)) continue;
        const int64_t x = row.get_int(0);
        if (!best || (largest ? x > RowReader(*extreme_schema(), RowRef(best->first.second)).get_int(0)
                              : x < RowReader(*extreme_schema(), RowRef(best->first.second)).get_int(0))) {
          best = &entry;
        }
      }
      if (best) changes.push_back({group, best->first.second, -best->second});
    } else {
      // The whole group leaves.
      for (const auto& entry : live) {
        if (entry.first.first == group) changes.push_back({group, entry.first.second, -entry.second});
      }
    }
  }

  std::pair<std::string, std::string> row() {
    RowBuilder key(*testing::bigint_schema()), value(*extreme_schema());
    key.set_int(0, pick(0, groups_ - 1));
    if (chance(0.1)) {
      value.set_null(0);
      value.set_null(3);
    } else {
      const int x = pick(-5, 5);
      value.set_int(0, x);
      value.set_int(3, x);
    }
    if (chance(0.1))
      value.set_null(1);
    else
      value.set_double(1, pick(-4, 4) / 2.0);
    static const char* kStrings[] = {"", "a", "ab", "b", "long string value", "z"};
    if (chance(0.1))
      value.set_null(2);
    else
      value.set_string(2, kStrings[pick(0, 5)]);
    std::string k = key.finish().to_bytes();
    return {k, value.finish().to_bytes()};
  }
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(random_); }
  double uniform() { return std::uniform_real_distribution<double>(0, 1)(random_); }

  std::mt19937_64 random_;
  int groups_;
};

void run_extreme_oracle(uint64_t seed, int groups, int steps) {
  const std::vector<AggregateSpec> specs = extreme_specs();
  ExtremeCircuit circuit(specs);
  ExtremeWorkload workload(seed, groups);
  ZSetMap live;
  for (int step = 0; step < steps; ++step) {
    for (const auto& [key, value, weight] : workload.step(live)) {
      circuit.push(key, value, weight);
      testing::add_entry(live, key, value, weight);
    }
    circuit.step();
    ASSERT_EQ(circuit.view, reference(live, specs)) << "step " << step << ", seed " << seed;
  }
}

TEST(AggregateExtremeOracleTest, FewGroupsManyTies) { run_extreme_oracle(testing::test_seed(1901), 2, 1500); }

TEST(AggregateExtremeOracleTest, ManyGroupsThatVanish) { run_extreme_oracle(testing::test_seed(1902), 9, 1500); }

TEST(AggregateExtremeTest, MinAndMaxOfAColumnKeepOneTrace) {
  // Fed the same rows, MIN(x), MAX(x2) keep two traces alike and MIN(x), MAX(x) one of them.
  ExtremeCircuit shared({spec(K::kMin, 0), spec(K::kMax, 0)}), apart({spec(K::kMin, 0), spec(K::kMax, 3)});
  ExtremeWorkload workload(7, 3);
  ZSetMap live;
  for (int step = 0; step < 50; ++step) {
    for (const auto& [key, value, weight] : workload.step(live)) {
      shared.push(key, value, weight);
      apart.push(key, value, weight);
      testing::add_entry(live, key, value, weight);
    }
    shared.step();
    apart.step();
  }
  const size_t groups = shared.view.size();
  ASSERT_GT(shared.state_rows(), groups + 10);
  EXPECT_EQ(apart.state_rows() - groups, 2 * (shared.state_rows() - groups));
}

// A one-row step reads no trace when the row is not better than the
// group's MIN or MAX, or is better (it is then the answer); deleting the
// current MIN reads it once, and deleting a value between MIN and MAX not at all.
TEST(AggregateExtremeTest, AStepReadsTheTraceOnlyForAChangeAtTheExtreme) {
  ExtremeCircuit circuit({spec(K::kMin, 0), spec(K::kMax, 0)});
  auto row = [](int64_t x) {
    RowBuilder value(*extreme_schema());
    value.set_int(0, x);
    value.set_null(1);
    value.set_null(2);
    value.set_int(3, x);
    return value.finish().to_bytes();
  };
  const std::string group = encode_row(*testing::bigint_schema(), {Value::bigint(1)});
  for (int64_t x = 10; x <= 20; ++x) circuit.push(group, row(x), 1);
  circuit.step();
  auto seeks_of = [&](const std::vector<std::pair<int64_t, Weight>>& changes) {
    const uint64_t before = circuit.work->trace_seeks;
    for (auto [x, weight] : changes) circuit.push(group, row(x), weight);
    circuit.step();
    return circuit.work->trace_seeks - before;
  };
  EXPECT_EQ(seeks_of({{15, 1}}), 0u);           // between: both stay
  EXPECT_EQ(seeks_of({{5, 1}, {25, 2}}), 0u);   // both better: they are the answers
  EXPECT_EQ(seeks_of({{15, -1}}), 0u);          // a copy of 15 between them leaves
  EXPECT_EQ(seeks_of({{5, -1}}), 1u);           // the MIN leaves: MIN reads the trace
  EXPECT_EQ(seeks_of({{25, -1}, {3, 1}}), 1u);  // one copy of two of the MAX leaves; a new MIN
  const std::string expected =
      encode_row(circuit.output.key_schema(), {Value::bigint(1), Value::bigint(3), Value::bigint(25)});
  ZSetMap view;
  testing::add_entry(view, expected, "", 1);
  EXPECT_EQ(circuit.view, view);
}

//! Steps `first` and `second` alike (x2 = x) and compares their views after each step.
void go_on_alike(ExtremeCircuit& first, ExtremeCircuit& second, ExtremeWorkload& workload, ZSetMap& live,
                 const std::vector<AggregateSpec>& specs, int steps) {
  for (int step = 0; step < steps; ++step) {
    for (const auto& [key, value, weight] : workload.step(live)) {
      first.push(key, value, weight);
      second.push(key, value, weight);
      testing::add_entry(live, key, value, weight);
    }
    first.step();
    second.step();
    ASSERT_EQ(first.view, reference(live, specs)) << "step " << step;
    ASSERT_EQ(second.view, first.view) << "step " << step;
  }
}

// The state of MIN(x), MAX(x2) with x2 = x is, byte for byte, what a build
// keeping a trace per MIN and MAX saved for MIN(x), MAX(x): it restores into
// MIN(x), MAX(x), which drops the second trace and goes on as a circuit fed
// from the start. A state of today's layout is refused by a plan that would
// keep both traces (as a build of the older layout refuses it: bytes left over).
TEST(AggregateExtremeCheckpointTest, TheLayoutWithATracePerAggregateStillRestores) {
  const std::vector<AggregateSpec> older = {spec(K::kCountStar, 0), spec(K::kMin, 0), spec(K::kMax, 3)};
  const std::vector<AggregateSpec> today = {spec(K::kCountStar, 0), spec(K::kMin, 0), spec(K::kMax, 0)};
  ExtremeCircuit written(older), straight(today);
  ExtremeWorkload workload(testing::test_seed(1903), 3);
  ZSetMap live;
  go_on_alike(written, straight, workload, live, older, 200);

  ByteWriter saved;
  written.circuit.save_state(saved);
  ExtremeCircuit restored(today);
  ASSERT_TRUE(restored.circuit.restore_state(saved.data()).ok());
  restored.view = written.view;
  EXPECT_LT(restored.state_rows(), written.state_rows());
  go_on_alike(straight, restored, workload, live, today, 300);

  ByteWriter shared_layout;
  restored.circuit.save_state(shared_layout);
  ExtremeCircuit again(today), refusing(older);
  EXPECT_TRUE(again.circuit.restore_state(shared_layout.data()).ok());
  Status refused = refusing.circuit.restore_state(shared_layout.data());
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("reads the trace of aggregate"), std::string::npos) << refused.to_string();
}

}  // namespace
}  // namespace freshet
