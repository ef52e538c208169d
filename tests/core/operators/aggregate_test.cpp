// Tests of the GROUP BY aggregate: each kind on tiny hand-written inputs,
// oracle runs of all kinds at once against a from-scratch reference, and a
// structural check that a step's work follows the change, not the data.
#include "freshet/operators/aggregate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>

#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

AggregateSpec spec_of(AggregateKind kind, const Schema& value_schema, size_t column, std::string name) {
  SqlType input = kind == AggregateKind::kCountStar ? SqlType::bigint() : value_schema.type(column);
  return {kind, column, std::move(name), default_aggregate_type(kind, input)};
}

//! A circuit of one input (key: g BIGINT) feeding one aggregate, and the
//! integral of its output.
class AggregateHarness {
 public:
  AggregateHarness(SchemaPtr value_schema, std::vector<AggregateSpec> specs)
      : key_schema_(testing::bigint_schema()), value_schema_(std::move(value_schema)) {
    input_ = add_input(circuit_, key_schema_, value_schema_);
    output_ = aggregate(input_->stream(), std::move(specs), &work_);
  }

  void push(const Value& group, const std::vector<Value>& value, Weight weight = 1) {
    std::string key = encode_row(*key_schema_, {group});
    std::string row = encode_row(*value_schema_, value);
    input_->push(RowRef(key), RowRef(row), weight);
  }
  void push(int64_t group, const std::vector<Value>& value, Weight weight = 1) {
    push(Value::bigint(group), value, weight);
  }

  //! The step's error is the aggregate's (the circuit fails the operator, not the step).
  Status step() {
    Status status = circuit_.step();
    if (status.ok()) status = circuit_.last_step_error();
    if (status.ok()) testing::add_batch(integrated_, *output_.current());
    return status;
  }
  //! Steps, failing the test on an error.
  void step_ok() {
    Status status = step();
    ASSERT_TRUE(status.ok()) << status.to_string();
  }

  //! This step's output, one "  (row) xweight" line per entry.
  std::string delta() const { return render(testing::to_map(*output_.current())); }
  //! The integral of the output: the view.
  std::string view() const { return render(integrated_); }
  const AggregateWork& work() const { return *work_; }
  const Circuit& circuit() const { return circuit_; }
  Stream output() const { return output_; }

 private:
  std::string render(const ZSetMap& map) const { return testing::describe(map, output_.key_schema(), Schema()); }

  SchemaPtr key_schema_, value_schema_;
  Circuit circuit_;
  InputOperator* input_ = nullptr;
  Stream output_;
  const AggregateWork* work_ = nullptr;
  ZSetMap integrated_;
};

SchemaPtr x_schema(SqlType type) { return make_schema({{"x", type}}); }
Value big(int64_t v) { return Value::bigint(v); }
Value null_big() { return Value::null(TypeId::kBigInt); }

std::vector<AggregateSpec> all_kinds(const Schema& schema) {
  return {spec_of(AggregateKind::kCountStar, schema, 0, "n"),    spec_of(AggregateKind::kCount, schema, 0, "c"),
          spec_of(AggregateKind::kCountDistinct, schema, 0, "d"), spec_of(AggregateKind::kSum, schema, 0, "s"),
          spec_of(AggregateKind::kAvg, schema, 0, "a"),          spec_of(AggregateKind::kMin, schema, 0, "lo"),
          spec_of(AggregateKind::kMax, schema, 0, "hi")};
}

// ---------------------------------------------------------------- unit tests

TEST(AggregateTest, AllKindsOverOneGroupAndTheirRetraction) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, all_kinds(*schema));
  h.push(1, {big(5)});
  h.push(1, {big(7)});
  h.push(1, {big(7)});
  h.push(1, {null_big()});
  h.push(2, {big(-3)});
  h.step_ok();
  // (g, COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM, AVG, MIN, MAX)
  EXPECT_EQ(h.delta(), "  (1, 4, 3, 2, 19, 6, 5, 7) x1\n  (2, 1, 1, 1, -3, -3, -3, -3) x1\n");
  h.push(1, {big(7)}, -1);
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (1, 3, 2, 2, 12, 6, 5, 7) x1\n  (1, 4, 3, 2, 19, 6, 5, 7) x-1\n");
  h.push(2, {big(-3)}, -1);
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (2, 1, 1, 1, -3, -3, -3, -3) x-1\n");
  EXPECT_EQ(h.view(), "  (1, 3, 2, 2, 12, 6, 5, 7) x1\n");
}

TEST(AggregateTest, DeletingTheCurrentMinAndMax) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema,
                     {spec_of(AggregateKind::kMin, *schema, 0, "lo"), spec_of(AggregateKind::kMax, *schema, 0, "hi")});
  for (int64_t x : {3, 5, 9, 9}) h.push(1, {big(x)});
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 3, 9) x1\n");
  h.push(1, {big(3)}, -1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 5, 9) x1\n");
  h.push(1, {big(9)}, -1);  // one of two 9s: the max stays
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (empty)\n");
  h.push(1, {big(9)}, -1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 5, 5) x1\n");
  h.push(1, {big(1)});
  h.push(1, {big(5)}, -1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 1, 1) x1\n");
}

TEST(AggregateTest, GroupsDisappearAndReappear) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, all_kinds(*schema));
  h.push(1, {big(4)});
  h.step_ok();
  h.push(1, {big(4)}, -1);
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (1, 1, 1, 1, 4, 4, 4, 4) x-1\n");
  EXPECT_EQ(h.view(), "  (empty)\n");
  h.step_ok();  // no input, no output
  EXPECT_EQ(h.delta(), "  (empty)\n");
  h.push(1, {big(6)});
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (1, 1, 1, 1, 6, 6, 6, 6) x1\n");
  // Deleting and re-inserting in one step changes nothing.
  h.push(1, {big(6)}, -1);
  h.push(1, {big(6)});
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (empty)\n");
}

TEST(AggregateTest, NullsAreIgnoredAndNullKeysFormAGroup) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, all_kinds(*schema));
  h.push(1, {null_big()});
  h.push(1, {null_big()});
  h.push(Value::null(TypeId::kBigInt), {big(2)});
  h.step_ok();
  EXPECT_EQ(h.view(), "  (NULL, 1, 1, 1, 2, 2, 2, 2) x1\n  (1, 2, 0, 0, NULL, NULL, NULL, NULL) x1\n");
  h.push(1, {big(8)});
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (1, 3, 1, 1, 8, 8, 8, 8) x1\n  (1, 2, 0, 0, NULL, NULL, NULL, NULL) x-1\n");
  h.push(1, {big(8)}, -1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (NULL, 1, 1, 1, 2, 2, 2, 2) x1\n  (1, 2, 0, 0, NULL, NULL, NULL, NULL) x1\n");
}

TEST(AggregateTest, UnchangedRowsEmitNothing) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, {spec_of(AggregateKind::kMin, *schema, 0, "lo")});
  h.push(1, {big(5)});
  h.step_ok();
  h.push(1, {big(7)});
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (empty)\n");
  EXPECT_EQ(h.view(), "  (1, 5) x1\n");
}

TEST(AggregateTest, WeightsGreaterThanOneCountManyTimes) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, all_kinds(*schema));
  h.push(1, {big(4)}, 3);
  h.push(1, {big(1)}, 1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 4, 4, 2, 13, 3, 1, 4) x1\n");
  h.push(1, {big(4)}, -2);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 2, 2, 2, 5, 2, 1, 4) x1\n");
  h.push(1, {big(4)}, -1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 1, 1, 1, 1, 1, 1, 1) x1\n");
}

TEST(AggregateTest, CountDistinctFollowsValuesCrossingZero) {
  SchemaPtr schema = x_schema(SqlType::varchar());
  AggregateHarness h(schema, {spec_of(AggregateKind::kCountDistinct, *schema, 0, "d")});
  h.push(1, {Value::varchar("a")});
  h.push(1, {Value::varchar("a")});
  h.push(1, {Value::varchar("b")});
  h.push(1, {Value::null(TypeId::kVarchar)});
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 2) x1\n");
  h.push(1, {Value::varchar("a")}, -1);
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (empty)\n");
  h.push(1, {Value::varchar("a")}, -1);
  h.push(1, {Value::varchar("c")}, 2);
  h.push(1, {Value::varchar("d")}, 1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 3) x1\n");
}

TEST(AggregateTest, SumOverflowReturnsOverflowAndFailsTheAggregate) {
  SchemaPtr schema = x_schema(SqlType::integer());
  AggregateHarness h(schema, {spec_of(AggregateKind::kSum, *schema, 0, "total")});
  h.push(1, {Value::integer(TypeId::kInt, INT32_MAX)});
  h.step_ok();
  h.push(1, {Value::integer(TypeId::kInt, 1)});
  Status status = h.step();
  EXPECT_EQ(status.code(), ErrorCode::kOverflow);
  EXPECT_NE(status.message().find("'total'"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("2147483648"), std::string::npos) << status.message();
  // The failed step emitted nothing, and the aggregate is failed from then on
  // (Circuit::step): once the sum fits again it stays silent.
  EXPECT_NE(h.circuit().stream_failure(h.output()), nullptr);
  h.push(1, {Value::integer(TypeId::kInt, 1)}, -1);
  h.push(1, {Value::integer(TypeId::kInt, -5)});
  h.step_ok();
  EXPECT_EQ(h.delta(), "  (empty)\n");
  EXPECT_EQ(h.view(), "  (1, 2147483647) x1\n");
}

TEST(AggregateTest, BigintSumOverflowIsDetectedExactly) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, {spec_of(AggregateKind::kSum, *schema, 0, "s")});
  h.push(1, {big(INT64_MAX)}, 2);
  EXPECT_EQ(h.step().code(), ErrorCode::kOverflow);
  // The 128-bit accumulator stays exact where partial sums leave 64 bits: the total, -1, fits.
  AggregateHarness exact(schema, {spec_of(AggregateKind::kSum, *schema, 0, "s")});
  exact.push(1, {big(-INT64_MAX)}, 1);
  exact.push(1, {big(-(INT64_MAX - 1))}, 1);
  exact.push(1, {big(INT64_MAX)}, 1);
  exact.push(1, {big(INT64_MAX - 2)}, 1);
  exact.step_ok();
  EXPECT_EQ(exact.view(), "  (1, -1) x1\n");
}

TEST(AggregateTest, AverageOfIntegersTruncatesTowardZero) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, {spec_of(AggregateKind::kAvg, *schema, 0, "a")});
  h.push(1, {big(-7)});
  h.push(1, {big(0)});
  h.push(2, {big(7)});
  h.push(2, {big(0)});
  h.push(3, {big(1)});
  h.push(3, {big(2)});
  h.push(3, {big(2)});
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, -3) x1\n  (2, 3) x1\n  (3, 1) x1\n");
}

TEST(AggregateTest, DecimalSumsAreExactAndAveragesRoundHalfAwayFromZero) {
  SchemaPtr schema = x_schema(SqlType::decimal(10, 2));
  AggregateHarness h(schema,
                     {spec_of(AggregateKind::kSum, *schema, 0, "s"), spec_of(AggregateKind::kAvg, *schema, 0, "a")});
  EXPECT_EQ(default_aggregate_type(AggregateKind::kSum, schema->type(0)), SqlType::decimal(38, 2));
  for (int i = 0; i < 3; ++i) h.push(1, {Value::decimal(10, 2)});  // 0.10 three times
  h.push(2, {Value::decimal(1, 2)});
  h.push(2, {Value::decimal(2, 2)});  // average 0.015
  h.push(3, {Value::decimal(-1, 2)});
  h.push(3, {Value::decimal(-2, 2)});  // average -0.015
  h.push(4, {Value::decimal(1, 2)});
  h.push(4, {Value::decimal(1, 2)});
  h.push(4, {Value::decimal(2, 2)});  // average 0.01333...
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 0.30, 0.10) x1\n  (2, 0.03, 0.02) x1\n  (3, -0.03, -0.02) x1\n  (4, 0.04, 0.01) x1\n");
  // A sum past DECIMAL(10, 2) still fits the DECIMAL(38, 2) result.
  h.push(5, {Value::decimal(9999999999, 2)}, 1000);
  h.step_ok();
  EXPECT_NE(h.view().find("(5, 99999999990.00, 99999999.99)"), std::string::npos) << h.view();
}

TEST(AggregateTest, FloatingSumResetsToZeroWhenItsValuesLeave) {
  SchemaPtr schema = x_schema(SqlType::double_precision());
  AggregateHarness h(schema, {spec_of(AggregateKind::kSum, *schema, 0, "s")});
  h.push(1, {Value::null(TypeId::kDouble)});  // keeps the group alive
  h.push(1, {Value::double_precision(0.1)});
  h.push(1, {Value::double_precision(0.2)});
  h.step_ok();
  h.push(1, {Value::double_precision(0.1)}, -1);
  h.step_ok();
  h.push(1, {Value::double_precision(0.2)}, -1);
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, NULL) x1\n");
  h.push(1, {Value::double_precision(1e-20)});
  h.step_ok();
  EXPECT_EQ(h.view(), "  (1, 9.9999999999999995e-21) x1\n");  // exactly 1e-20, no residue of 0.1 + 0.2
}

TEST(AggregateTest, MinAndMaxOverEveryType) {
  SchemaPtr schema = make_schema({{"b", SqlType::boolean()},
                                  {"d", SqlType::double_precision()},
                                  {"m", SqlType::decimal(6, 3)},
                                  {"s", SqlType::varchar()},
                                  {"day", SqlType::date()},
                                  {"ts", SqlType::timestamp()},
                                  {"t", SqlType::tinyint()}});
  std::vector<AggregateSpec> specs;
  for (size_t c = 0; c < schema->size(); ++c) {
    specs.push_back(spec_of(AggregateKind::kMin, *schema, c, "min_" + schema->column(c).name));
    specs.push_back(spec_of(AggregateKind::kMax, *schema, c, "max_" + schema->column(c).name));
  }
  AggregateHarness h(schema, specs);
  h.push(1, {Value::boolean(true), Value::double_precision(-2.5), Value::decimal(-1500, 3), Value::varchar("b"),
             Value::date(10), Value::timestamp(-5), Value::integer(TypeId::kTinyInt, -128)});
  h.push(1, {Value::boolean(false), Value::double_precision(1e300), Value::decimal(2, 3), Value::varchar("ab"),
             Value::date(-10), Value::timestamp(7), Value::integer(TypeId::kTinyInt, 127)});
  h.push(1, {Value::null(TypeId::kBoolean), Value::double_precision(-1e300), Value::decimal(0, 3), Value::varchar(""),
             Value::null(TypeId::kDate), Value::timestamp(0), Value::null(TypeId::kTinyInt)});
  h.step_ok();
  EXPECT_EQ(h.view(),
            "  (1, FALSE, TRUE, -1.0000000000000001e+300, 1.0000000000000001e+300, -1.500, 0.002, '', 'b', "
            "1969-12-22, 1970-01-11, 1969-12-31 23:59:59.999995, 1970-01-01 00:00:00.000007, -128, 127) x1\n");
}

TEST(AggregateTest, TypesAndValidation) {
  EXPECT_EQ(default_aggregate_type(AggregateKind::kCount, SqlType::varchar()), SqlType::bigint(false));
  EXPECT_EQ(default_aggregate_type(AggregateKind::kCountStar, SqlType::bigint()), SqlType::bigint(false));
  EXPECT_EQ(default_aggregate_type(AggregateKind::kSum, SqlType::integer(false)), SqlType::integer(true));
  EXPECT_EQ(default_aggregate_type(AggregateKind::kAvg, SqlType::double_precision(false)), SqlType::double_precision());
  EXPECT_EQ(default_aggregate_type(AggregateKind::kMax, SqlType::varchar(false, 5)), SqlType::varchar(true, 5));
  SchemaPtr schema = make_schema({{"s", SqlType::varchar()}, {"d", SqlType::double_precision()}});
  EXPECT_TRUE(validate_aggregates(*schema, {spec_of(AggregateKind::kMax, *schema, 0, "m")}).ok());
  EXPECT_EQ(validate_aggregates(*schema, {spec_of(AggregateKind::kSum, *schema, 0, "s")}).code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(validate_aggregates(*schema, {{AggregateKind::kCount, 7, "c", SqlType::bigint(false)}}).code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(validate_aggregates(*schema, {{AggregateKind::kSum, 1, "s", SqlType::bigint()}}).code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(validate_aggregates(*schema, {{AggregateKind::kMin, 1, "m", SqlType::bigint()}}).code(),
            ErrorCode::kInvalidArgument);
}

// ---------------------------------------------------------------- oracle

//! (g BIGINT, i BIGINT, d DOUBLE, m DECIMAL(10, 2), s VARCHAR), keyed by g.
SchemaPtr oracle_value_schema() {
  static const SchemaPtr kSchema = make_schema({{"g", SqlType::bigint()},
                                                {"i", SqlType::bigint()},
                                                {"d", SqlType::double_precision()},
                                                {"m", SqlType::decimal(10, 2)},
                                                {"s", SqlType::varchar()}});
  return kSchema;
}

//! Small domains so that groups and values collide; doubles are integers so
//! that their sums are exact in any order.
testing::OracleInput oracle_input(int groups) {
  return {testing::bigint_schema(), oracle_value_schema(),
          [groups](std::mt19937_64& random, RowBuilder& key, RowBuilder& value) {
            auto null_now = [&] { return std::bernoulli_distribution(0.1)(random); };
            auto small = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
            if (null_now()) {
              key.set_null(0);
              value.set_null(0);
            } else {
              int group = small(0, groups - 1);
              key.set_int(0, group);
              value.set_int(0, group);
            }
            if (null_now()) value.set_null(1); else value.set_int(1, small(-6, 6));
            if (null_now()) value.set_null(2); else value.set_double(2, small(-4, 4));
            if (null_now()) value.set_null(3); else value.set_decimal(3, small(-999, 999));
            static const char* kStrings[] = {"", "a", "ab", "b", "long string value", "z", "\xc3\xa9"};
            if (null_now()) value.set_null(4); else value.set_string(4, kStrings[random() % 7]);
          }};
}

std::vector<AggregateSpec> oracle_specs() {
  const Schema& v = *oracle_value_schema();
  using K = AggregateKind;
  std::vector<AggregateSpec> specs = {spec_of(K::kCountStar, v, 0, "n")};
  for (size_t column : {1, 2, 3}) {
    std::string name = v.column(column).name;
    for (K kind : {K::kCount, K::kCountDistinct, K::kSum, K::kAvg, K::kMin, K::kMax}) {
      specs.push_back(spec_of(kind, v, column, std::string(aggregate_kind_name(kind)) + "_" + name));
    }
  }
  for (K kind : {K::kCount, K::kCountDistinct, K::kMin, K::kMax}) {
    specs.push_back(spec_of(kind, v, 4, std::string(aggregate_kind_name(kind)) + "_s"));
  }
  return specs;
}

bool sql_less(const Value& a, const Value& b) {
  switch (a.type()) {
    case TypeId::kDouble: return a.as_double() < b.as_double();
    case TypeId::kDecimal: return a.as_decimal() < b.as_decimal();
    case TypeId::kVarchar: return a.as_string() < b.as_string();
    default: return a.as_int() < b.as_int();
  }
}

//! One aggregate computed from scratch over a group's (row, weight) list.
Value reference_aggregate(const AggregateSpec& spec, const std::vector<std::pair<std::vector<Value>, Weight>>& rows) {
  Weight count = 0, non_null = 0;
  int128 exact = 0;
  double floating = 0;
  std::map<std::string, Weight> distinct;
  std::optional<Value> low, high;
  for (const auto& [row, weight] : rows) {
    count += weight;
    if (spec.kind == AggregateKind::kCountStar || row[spec.column].is_null()) continue;
    const Value& x = row[spec.column];
    non_null += weight;
    distinct[x.to_string()] += weight;
    if (x.type() == TypeId::kDouble) floating += x.as_double() * static_cast<double>(weight);
    if (x.type() == TypeId::kDecimal) exact += x.as_decimal() * weight;
    if (x.type() == TypeId::kBigInt) exact += int128{x.as_int()} * weight;
    if (!low || sql_less(x, *low)) low = x;
    if (!high || sql_less(*high, x)) high = x;
  }
  TypeId type = spec.result_type.id;
  switch (spec.kind) {
    case AggregateKind::kCountStar: return Value::bigint(count);
    case AggregateKind::kCount: return Value::bigint(non_null);
    case AggregateKind::kCountDistinct:
      return Value::bigint(std::count_if(distinct.begin(), distinct.end(), [](const auto& e) { return e.second > 0; }));
    case AggregateKind::kMin: return low ? *low : Value::null(type);
    case AggregateKind::kMax: return high ? *high : Value::null(type);
    default: break;
  }
  if (non_null == 0) return Value::null(type);
  bool sum = spec.kind == AggregateKind::kSum;
  if (type == TypeId::kDouble) {
    return Value::double_precision(sum ? floating : floating / static_cast<double>(non_null));
  }
  if (type == TypeId::kBigInt) return Value::bigint(static_cast<int64_t>(sum ? exact : exact / non_null));
  if (sum) return Value::decimal(exact, 2);
  // Round half away from zero: sign * floor((2|s| + n) / 2n).
  int128 magnitude = exact < 0 ? -exact : exact;
  int128 rounded = (2 * magnitude + non_null) / (2 * int128{non_null});
  return Value::decimal(exact < 0 ? -rounded : rounded, 2);
}

ZSetMap reference_aggregates(const ZSetMap& input, const std::vector<AggregateSpec>& specs) {
  std::map<std::string, std::vector<std::pair<std::vector<Value>, Weight>>> groups;
  for (const auto& [entry, weight] : input) {
    groups[entry.first].push_back({decode_row(*oracle_value_schema(), RowRef(entry.second)), weight});
  }
  std::vector<Column> columns = testing::bigint_schema()->columns();
  for (const AggregateSpec& spec : specs) columns.push_back({spec.name, spec.result_type});
  Schema output(columns);
  ZSetMap out;
  for (const auto& [key, rows] : groups) {
    std::vector<Value> values = decode_row(*testing::bigint_schema(), RowRef(key));
    for (const AggregateSpec& spec : specs) values.push_back(reference_aggregate(spec, rows));
    testing::add_entry(out, encode_row(output, values), "", 1);
  }
  return out;
}

void run_aggregate_oracle(int groups, uint64_t seed, testing::OracleOptions options) {
  std::vector<AggregateSpec> specs = oracle_specs();
  testing::run_oracle(
      {oracle_input(groups)}, [&](const std::vector<Stream>& in) { return aggregate(in[0], specs); },
      [&](const std::vector<ZSetMap>& in) { return reference_aggregates(in[0], specs); }, seed, options);
}

TEST(AggregateOracleTest, AllKindsOverFewLargeGroups) {
  testing::OracleOptions options;
  options.max_updates_per_step = 12;
  options.delete_probability = 0.45;
  run_aggregate_oracle(3, testing::test_seed(301), options);
}

TEST(AggregateOracleTest, AllKindsOverManySmallGroups) {
  run_aggregate_oracle(12, testing::test_seed(302), testing::OracleOptions{});
}

TEST(AggregateOracleTest, GroupsThatEmptyOften) {
  testing::OracleOptions options;
  options.steps = 1500;
  options.max_updates_per_step = 4;
  options.delete_probability = 0.5;
  run_aggregate_oracle(5, testing::test_seed(303), options);
}

// ---------------------------------------------------------------- cost

// After loading 200k rows into 10 groups, a one-row step folds one row,
// re-evaluates one group and does one seek per COUNT DISTINCT value, and
// one per MIN/MAX only when a change is at its current answer: the work
// follows the change, not the 20k rows of the touched group.
TEST(AggregateCostTest, AStepTouchesOnlyTheChangedGroup) {
  SchemaPtr schema = x_schema(SqlType::bigint());
  AggregateHarness h(schema, all_kinds(*schema));
  constexpr int64_t kRows = 200000, kGroups = 10, kPerStep = 10000;
  for (int64_t r = 0; r < kRows; ++r) {
    h.push(r % kGroups, {big(r)});
    if ((r + 1) % kPerStep == 0) h.step_ok();
  }
  EXPECT_EQ(h.work().rows_folded, static_cast<uint64_t>(kRows));

  // Group 3 holds 3, 13, ..., 199993.
  AggregateWork before = h.work();
  h.push(3, {big(-1)});
  h.step_ok();
  EXPECT_EQ(h.work().rows_folded - before.rows_folded, 1u);
  EXPECT_EQ(h.work().groups_evaluated - before.groups_evaluated, 1u);
  // One COUNT DISTINCT lookup: -1 is the new MIN, and not the MAX, without a seek.
  EXPECT_EQ(h.work().trace_seeks - before.trace_seeks, 1u);
  int128 sum = 0;
  for (int64_t x = 3; x < kRows; x += kGroups) sum += x;
  auto row = [](int64_t n, int128 s, int64_t low, int64_t high) {
    int64_t total = static_cast<int64_t>(s);
    return "(3, " + std::to_string(n) + ", " + std::to_string(n) + ", " + std::to_string(n) + ", " +
           std::to_string(total) + ", " + std::to_string(total / n) + ", " + std::to_string(low) + ", " +
           std::to_string(high) + ")";
  };
  EXPECT_EQ(h.delta(), "  " + row(20000, sum, 3, 199993) + " x-1\n  " + row(20001, sum - 1, -1, 199993) + " x1\n");

  // Deleting the current minimum and the next one: the answer is the third value.
  before = h.work();
  h.push(3, {big(-1)}, -1);
  h.push(3, {big(3)}, -1);
  h.step_ok();
  EXPECT_EQ(h.work().rows_folded - before.rows_folded, 2u);
  EXPECT_EQ(h.work().groups_evaluated - before.groups_evaluated, 1u);
  EXPECT_EQ(h.work().trace_seeks - before.trace_seeks, 3u);  // two COUNT DISTINCT lookups, MIN's seek
  EXPECT_NE(h.delta().find(row(19999, sum - 3, 13, 199993) + " x1"), std::string::npos) << h.delta();
  EXPECT_GT(h.circuit().state_bytes(), 0u);
}

}  // namespace
}  // namespace freshet
