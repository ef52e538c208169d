// Oracle tests of the aggregates added for issue 17: VAR_*/STDDEV_* over
// BIGINT, DECIMAL and DOUBLE, BOOL_AND/BOOL_OR/COUNTIF, BIT_AND/BIT_OR/
// BIT_XOR, ARG_MIN/ARG_MAX, and DISTINCT inside SUM/AVG/VAR/BIT_XOR. Random
// inserts and deletes over many steps; after every step the integrated
// output must equal the aggregates computed from scratch; the harness must
// notice an operator computing a slightly different function; and a circuit
// restored from a checkpoint taken halfway goes on exactly like the original.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "freshet/common/byte_io.h"
#include "freshet/operators/aggregate.h"
#include "freshet/operators/input.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;
using K = AggregateKind;

//! (g BIGINT, i BIGINT, b BOOLEAN, d DOUBLE, m DECIMAL(6, 2), s VARCHAR), keyed by g.
SchemaPtr value_schema() {
  static const SchemaPtr kSchema = make_schema({{"g", SqlType::bigint()},
                                                {"i", SqlType::bigint()},
                                                {"b", SqlType::boolean()},
                                                {"d", SqlType::double_precision()},
                                                {"m", SqlType::decimal(6, 2)},
                                                {"s", SqlType::varchar()}});
  return kSchema;
}
enum Field : size_t { kI = 1, kB = 2, kD = 3, kM = 4, kS = 5 };

//! Small domains, so that values repeat (DISTINCT, ties) and groups empty;
//! doubles are quarters, whose sums are exact in any order.
testing::OracleInput input(int groups) {
  return {testing::bigint_schema(), value_schema(),
          [groups](std::mt19937_64& random, RowBuilder& key, RowBuilder& value) {
            auto null_now = [&] { return std::bernoulli_distribution(0.15)(random); };
            auto small = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
            const int group = small(0, groups - 1);
            key.set_int(0, group);
            value.set_int(0, group);
            if (null_now())
              value.set_null(kI);
            else
              value.set_int(kI, small(-9, 9));
            if (null_now())
              value.set_null(kB);
            else
              value.set_bool(kB, small(0, 2) != 0);
            if (null_now())
              value.set_null(kD);
            else
              value.set_double(kD, small(-12, 12) / 4.0);
            if (null_now())
              value.set_null(kM);
            else
              value.set_decimal(kM, small(-2000, 2000));
            static const char* kStrings[] = {"", "a", "b", "zz"};
            if (null_now())
              value.set_null(kS);
            else
              value.set_string(kS, kStrings[random() % 4]);
          }};
}

AggregateSpec spec(K kind, size_t column, bool distinct = false, size_t compared = 0) {
  AggregateSpec out{kind, column, std::string(aggregate_kind_name(kind)) + "_" + std::to_string(column),
                    default_aggregate_type(kind, value_schema()->type(column))};
  out.distinct = distinct;
  out.compared_column = compared;
  if (distinct) out.name += "_distinct";
  return out;
}

std::vector<AggregateSpec> all_specs() {
  std::vector<AggregateSpec> specs;
  for (size_t column : {kI, kD, kM}) {
    for (K kind : {K::kVarPop, K::kVarSamp, K::kStddevPop, K::kStddevSamp}) specs.push_back(spec(kind, column));
    for (K kind : {K::kVarSamp, K::kSum, K::kAvg}) specs.push_back(spec(kind, column, true));
  }
  for (K kind : {K::kBoolAnd, K::kBoolOr, K::kCountIf}) specs.push_back(spec(kind, kB));
  specs.push_back(spec(K::kCountIf, kB, true));
  for (K kind : {K::kBitAnd, K::kBitOr, K::kBitXor}) specs.push_back(spec(kind, kI));
  specs.push_back(spec(K::kBitXor, kI, true));
  specs.push_back(spec(K::kBitOr, kI, true));
  for (K kind : {K::kArgMin, K::kArgMax}) {
    specs.push_back(spec(kind, kS, false, kI));
    specs.push_back(spec(kind, kI, false, kD));
    specs.push_back(spec(kind, kB, false, kM));
  }
  return specs;
}

// ------------------------------------------------------------ the reference

using Rows = std::vector<std::pair<std::vector<Value>, Weight>>;

//! -1/0/1 for two non-NULL values of one column.
int compare(const Value& a, const Value& b) {
  switch (a.type()) {
    case TypeId::kDouble:
      return a.as_double() < b.as_double() ? -1 : a.as_double() > b.as_double() ? 1 : 0;
    case TypeId::kDecimal:
      return a.as_decimal() < b.as_decimal() ? -1 : a.as_decimal() > b.as_decimal() ? 1 : 0;
    case TypeId::kVarchar:
      return a.as_string() < b.as_string() ? -1 : a.as_string() > b.as_string() ? 1 : 0;
    default:
      return a.as_int() < b.as_int() ? -1 : a.as_int() > b.as_int() ? 1 : 0;
  }
}

//! The non-NULL values of `column` with their total weights (DISTINCT: weight 1), positive only.
std::vector<std::pair<Value, Weight>> values_of(const Rows& rows, size_t column, bool distinct) {
  std::map<std::string, std::pair<Value, Weight>> totals;
  for (const auto& [row, weight] : rows) {
    if (row[column].is_null()) continue;
    auto& entry = totals.try_emplace(row[column].to_string(), row[column], 0).first->second;
    entry.second += weight;
  }
  std::vector<std::pair<Value, Weight>> out;
  for (auto& [text, entry] : totals) {
    if (entry.second > 0) out.push_back({entry.first, distinct ? 1 : entry.second});
  }
  return out;
}

//! Feldera's VAR/STDDEV: (Σx² − (Σx)²/n) / (n or n − 1), truncating at scale t.
Value variance(const AggregateSpec& spec, const std::vector<std::pair<Value, Weight>>& values) {
  const bool sample = spec.kind == K::kVarSamp || spec.kind == K::kStddevSamp;
  const bool root = spec.kind == K::kStddevPop || spec.kind == K::kStddevSamp;
  const TypeId type = spec.result_type.id;
  int128 n = 0;
  for (const auto& [value, weight] : values) n += weight;
  if (n == 0 || (sample && n == 1)) return Value::null(type);
  if (type == TypeId::kDouble) {
    double sum = 0, squares = 0;
    for (const auto& [value, weight] : values) {
      sum += value.as_double() * static_cast<double>(weight);
      squares += value.as_double() * value.as_double() * static_cast<double>(weight);
    }
    double result = (squares - sum * sum / static_cast<double>(n)) / static_cast<double>(sample ? n - 1 : n);
    return Value::double_precision(root ? std::sqrt(std::max(0.0, result)) : result);
  }
  const bool decimal = type == TypeId::kDecimal;
  // DECIMAL(6, 2): values at scale 2, squares at 4, the intermediate scale is 6.
  int128 sum = 0, squares = 0;
  for (const auto& [value, weight] : values) {
    int128 x = decimal ? value.as_decimal() : int128{value.as_int()};
    sum += x * weight;
    squares += x * x * weight;
  }
  const int128 factor = decimal ? 100 : 1;
  int128 result = (squares * factor - sum * sum * factor / n) / (sample ? n - 1 : n);
  if (!root) return decimal ? Value::decimal(result / 10000, 2) : Value::bigint(static_cast<int64_t>(result));
  double root_value = std::sqrt(std::max(0.0, static_cast<double>(result) / (decimal ? 1e6 : 1.0)));
  if (decimal) return Value::decimal(static_cast<int128>(std::trunc(root_value * 100)), 2);
  return Value::bigint(static_cast<int64_t>(std::trunc(root_value)));
}

Value sum_or_average(const AggregateSpec& spec, const std::vector<std::pair<Value, Weight>>& values) {
  const TypeId type = spec.result_type.id;
  if (values.empty()) return Value::null(type);
  int128 exact = 0, n = 0;
  double floating = 0;
  for (const auto& [value, weight] : values) {
    n += weight;
    if (type == TypeId::kDouble) floating += value.as_double() * static_cast<double>(weight);
    if (type == TypeId::kDecimal) exact += value.as_decimal() * weight;
    if (type == TypeId::kBigInt) exact += int128{value.as_int()} * weight;
  }
  const bool sum = spec.kind == K::kSum;
  if (type == TypeId::kDouble) return Value::double_precision(sum ? floating : floating / static_cast<double>(n));
  if (type == TypeId::kBigInt) return Value::bigint(static_cast<int64_t>(sum ? exact : exact / n));
  if (sum) return Value::decimal(exact, 2);
  int128 magnitude = exact < 0 ? -exact : exact;
  int128 rounded = (2 * magnitude + n) / (2 * n);
  return Value::decimal(exact < 0 ? -rounded : rounded, 2);
}

//! ARG_MAX: the value of the row with the largest (compared, value), NULL values lowest; ARG_MIN the smallest.
Value arg_extreme(const AggregateSpec& spec, const Rows& rows) {
  const bool max = spec.kind == K::kArgMax;
  const std::vector<Value>* best = nullptr;
  for (const auto& [row, weight] : rows) {
    if (weight <= 0 || row[spec.compared_column].is_null()) continue;
    if (best) {
      int c = compare(row[spec.compared_column], (*best)[spec.compared_column]);
      if (c == 0) {
        const bool null = row[spec.column].is_null(), best_null = (*best)[spec.column].is_null();
        c = null || best_null ? static_cast<int>(best_null) - static_cast<int>(null)
                              : compare(row[spec.column], (*best)[spec.column]);
      }
      if (max ? c <= 0 : c >= 0) continue;
    }
    best = &row;
  }
  return best ? (*best)[spec.column] : Value::null(spec.result_type.id);
}

Value reference(const AggregateSpec& spec, const Rows& rows) {
  const TypeId type = spec.result_type.id;
  if (spec.kind == K::kArgMin || spec.kind == K::kArgMax) return arg_extreme(spec, rows);
  const auto values = values_of(rows, spec.column, spec.distinct);
  switch (spec.kind) {
    case K::kSum:
    case K::kAvg:
      return sum_or_average(spec, values);
    case K::kBoolAnd:
    case K::kBoolOr:
    case K::kCountIf: {
      Weight trues = 0;
      for (const auto& [value, weight] : values) trues += value.as_bool() ? weight : 0;
      if (spec.kind == K::kCountIf) return Value::bigint(trues);
      if (values.empty()) return Value::null(type);
      if (spec.kind == K::kBoolOr) return Value::boolean(trues > 0);
      return Value::boolean(std::all_of(values.begin(), values.end(), [](const auto& v) { return v.first.as_bool(); }));
    }
    case K::kBitAnd:
    case K::kBitOr:
    case K::kBitXor: {
      if (values.empty()) return Value::null(type);
      int64_t bits = spec.kind == K::kBitAnd ? -1 : 0;
      for (const auto& [value, weight] : values) {
        if (spec.kind == K::kBitAnd) bits &= value.as_int();
        if (spec.kind == K::kBitOr) bits |= value.as_int();
        if (spec.kind == K::kBitXor && weight % 2 != 0) bits ^= value.as_int();
      }
      return Value::bigint(bits);
    }
    default:
      return variance(spec, values);
  }
}

ZSetMap reference_aggregates(const ZSetMap& input, const std::vector<AggregateSpec>& specs) {
  std::map<std::string, Rows> groups;
  for (const auto& [entry, weight] : input) {
    groups[entry.first].push_back({decode_row(*value_schema(), RowRef(entry.second)), weight});
  }
  std::vector<Column> columns = testing::bigint_schema()->columns();
  for (const AggregateSpec& s : specs) columns.push_back({s.name, s.result_type});
  Schema output(columns);
  ZSetMap out;
  for (const auto& [key, rows] : groups) {
    std::vector<Value> values = decode_row(*testing::bigint_schema(), RowRef(key));
    for (const AggregateSpec& s : specs) values.push_back(reference(s, rows));
    testing::add_entry(out, encode_row(output, values), "", 1);
  }
  return out;
}

//! The circuit computes `actual`; the reference computes `expected` (the same, unless a test breaks one).
void run(int groups, uint64_t seed, const std::vector<AggregateSpec>& actual,
         const std::vector<AggregateSpec>& expected, int steps = 600) {
  testing::OracleOptions options;
  options.steps = steps;
  options.max_updates_per_step = 8;
  testing::run_oracle(
      {input(groups)}, [&](const std::vector<Stream>& in) { return aggregate(in[0], actual); },
      [&](const std::vector<ZSetMap>& in) { return reference_aggregates(in[0], expected); }, seed, options);
}

TEST(AggregateFunctionsOracleTest, EveryNewKindOverFewLargeGroups) {
  run(2, testing::test_seed(1701), all_specs(), all_specs());
}

TEST(AggregateFunctionsOracleTest, EveryNewKindOverManySmallGroups) {
  run(10, testing::test_seed(1702), all_specs(), all_specs());
}

//! Each pair: what a broken operator might compute instead of what is asked.
TEST(AggregateFunctionsOracleTest, TheOracleCatchesAWrongAccumulator) {
  const uint64_t seed = testing::test_seed(1703);
  std::vector<std::pair<AggregateSpec, AggregateSpec>> broken = {
      {spec(K::kVarPop, kI), spec(K::kVarSamp, kI)}, {spec(K::kStddevSamp, kM), spec(K::kVarSamp, kM)},
      {spec(K::kBoolAnd, kB), spec(K::kBoolOr, kB)}, {spec(K::kBitXor, kI), spec(K::kBitXor, kI, true)},
      {spec(K::kSum, kI), spec(K::kSum, kI, true)},  {spec(K::kArgMax, kS, false, kI), spec(K::kArgMin, kS, false, kI)},
  };
  for (auto& [actual, expected] : broken) {
    expected.name = actual.name;
    expected.result_type = actual.result_type;
    ::testing::TestPartResultArray failures;
    {
      ::testing::ScopedFakeTestPartResultReporter reporter(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
      run(3, seed, {actual}, {expected}, 200);
    }
    EXPECT_GT(failures.size(), 0) << aggregate_kind_name(actual.kind) << " passed for "
                                  << aggregate_kind_name(expected.kind);
  }
}

//! The state of every new kind survives save_state/restore_state mid-run:
//! a restored circuit goes on emitting what the first one would.
TEST(AggregateFunctionsCheckpointTest, RestoredStateGoesOnLikeTheOriginal) {
  std::mt19937_64 random(testing::test_seed(1704));
  const std::vector<AggregateSpec> specs = all_specs();
  auto build = [&](Circuit& circuit, InputOperator** in) {
    *in = add_input(circuit, testing::bigint_schema(), value_schema());
    return aggregate((*in)->stream(), specs);
  };
  Circuit first, second;
  InputOperator *first_in = nullptr, *second_in = nullptr;
  Stream first_out = build(first, &first_in);
  Stream second_out = build(second, &second_in);
  ZSetMap integrated, first_view, second_view;
  testing::OracleInput generator = input(4);
  RowBuilder key(*testing::bigint_schema()), value(*value_schema());
  for (int step = 0; step < 300; ++step) {
    for (int u = 0; u < 6; ++u) {
      bool remove = !integrated.empty() && std::bernoulli_distribution(0.4)(random);
      std::string k, v;
      if (remove) {
        auto it = integrated.begin();
        std::advance(it, std::uniform_int_distribution<size_t>(0, integrated.size() - 1)(random));
        k = it->first.first;
        v = it->first.second;
      } else {
        generator.generate(random, key, value);
        k = key.finish().to_bytes();
        v = value.finish().to_bytes();
      }
      Weight weight = remove ? -1 : 1;
      testing::add_entry(integrated, k, v, weight);
      first_in->push(RowRef(k), RowRef(v), weight);
      if (step >= 150) second_in->push(RowRef(k), RowRef(v), weight);
    }
    ASSERT_TRUE(first.step().ok());
    testing::add_batch(first_view, *first_out.current());
    if (step == 149) {
      // The second circuit starts from the first one's state and view.
      ByteWriter saved;
      first.save_state(saved);
      ASSERT_TRUE(second.restore_state(saved.data()).ok());
      second_view = first_view;
    } else if (step > 149) {
      ASSERT_TRUE(second.step().ok());
      testing::add_batch(second_view, *second_out.current());
      ASSERT_EQ(first_view, second_view) << "step " << step;
    }
  }
}

//! After loading 20k rows into one group, a one-row step folds one row and
//! evaluates one group: the accumulated kinds seek no trace at all, ARG_MAX,
//! SUM(DISTINCT) and BIT_AND one seek each (BIT_AND then reads the group's
//! distinct values: 19 here, not the 20k rows).
TEST(AggregateFunctionsCostTest, AStepFollowsTheChange) {
  auto run_one = [](std::vector<AggregateSpec> specs, uint64_t expected_seeks) {
    Circuit circuit;
    InputOperator* in = add_input(circuit, testing::bigint_schema(), value_schema());
    const AggregateWork* work = nullptr;
    Stream out = aggregate(in->stream(), std::move(specs), &work);
    RowBuilder key(*testing::bigint_schema()), value(*value_schema());
    auto push = [&](int64_t i) {
      key.set_int(0, 1);
      value.set_int(0, 1);
      value.set_int(kI, i % 19 - 9);
      value.set_bool(kB, i % 3 != 0);
      value.set_double(kD, static_cast<double>(i % 8) / 4);
      value.set_decimal(kM, i % 1000);
      value.set_string(kS, i % 2 ? "a" : "b");
      std::string k = key.finish().to_bytes(), v = value.finish().to_bytes();
      in->push(RowRef(k), RowRef(v), 1);
    };
    for (int64_t i = 0; i < 20000; ++i) push(i);
    ASSERT_TRUE(circuit.step().ok());
    AggregateWork before = *work;
    push(7);
    ASSERT_TRUE(circuit.step().ok());
    EXPECT_EQ(work->rows_folded - before.rows_folded, 1u);
    EXPECT_EQ(work->groups_evaluated - before.groups_evaluated, 1u);
    EXPECT_EQ(work->trace_seeks - before.trace_seeks, expected_seeks);
    EXPECT_LE(out.current()->size(), 2u);  // at most the group's old row out and its new row in
  };
  run_one({spec(K::kVarSamp, kI), spec(K::kStddevPop, kM), spec(K::kBoolAnd, kB), spec(K::kCountIf, kB),
           spec(K::kBitXor, kI)},
          0);
  run_one({spec(K::kArgMax, kS, false, kI), spec(K::kSum, kI, true), spec(K::kBitAnd, kI)}, 3);
}

}  // namespace
}  // namespace freshet
