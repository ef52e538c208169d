// Tests of an aggregate whose result does not fit its type under an
// AggregateErrorHandler that takes the error (a view in 'null' mode): the
// group's result is NULL, the accumulators stay exact, and an oracle run of
// random inserts and retractions near the type's range matches a
// from-scratch computation (the exact sum, NULL where it does not fit) at
// every step.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "freshet/operators/aggregate.h"
#include "freshet/operators/input.h"
#include "support/zset_map.h"

namespace freshet {
namespace {

using testing::ZSetMap;

//! One input (key g BIGINT, value x INT) feeding SUM(x) and COUNT(*) by g,
//! with a handler that takes every error and counts its calls.
class OverflowHarness {
 public:
  OverflowHarness() {
    input_ = add_input(circuit_, key_schema_, value_schema_);
    std::vector<AggregateSpec> specs = {
        {AggregateKind::kSum, 0, "total", default_aggregate_type(AggregateKind::kSum, SqlType::integer())},
        {AggregateKind::kCountStar, 0, "n", default_aggregate_type(AggregateKind::kCountStar, SqlType::bigint())}};
    output_ = aggregate(input_->stream(), std::move(specs), nullptr, std::nullopt,
                        [this](const Status& error, const AggregateSpec& spec, const RowReader& group) {
                          EXPECT_EQ(error.code(), ErrorCode::kOverflow);
                          EXPECT_EQ(spec.name, "total");
                          last_group_ = group.get_int(0);
                          ++nulled_;
                          return true;
                        });
  }

  void push(int64_t group, int32_t x, Weight weight) {
    std::string key = encode_row(*key_schema_, {Value::bigint(group)});
    std::string row = encode_row(*value_schema_, {Value::integer(TypeId::kInt, x)});
    input_->push(RowRef(key), RowRef(row), weight);
  }
  void step() {
    Status status = circuit_.step();
    if (status.ok()) status = circuit_.last_step_error();
    ASSERT_TRUE(status.ok()) << status.to_string();
    testing::add_batch(view_, *output_.current());
  }
  std::string view() const { return testing::describe(view_, output_.key_schema(), Schema()); }
  //! The expected view: per group with rows, its exact sum or NULL when out of INTEGER's range.
  std::string expected(const std::map<int64_t, std::map<int32_t, Weight>>& rows) const {
    ZSetMap map;
    for (const auto& [group, values] : rows) {
      int128 sum = 0;
      Weight count = 0;
      for (const auto& [x, weight] : values) sum += int128{x} * weight, count += weight;
      if (count == 0) continue;
      bool fits = sum >= INT32_MIN && sum <= INT32_MAX;
      Value total = fits ? Value::integer(TypeId::kInt, int64_t(sum)) : Value::null(TypeId::kInt);
      map[{encode_row(output_.key_schema(), {Value::bigint(group), total, Value::bigint(count)}), ""}] = 1;
    }
    return testing::describe(map, output_.key_schema(), Schema());
  }
  int nulled() const { return nulled_; }
  int64_t last_group() const { return last_group_; }

 private:
  SchemaPtr key_schema_ = make_schema({{"g", SqlType::bigint()}});
  SchemaPtr value_schema_ = make_schema({{"x", SqlType::integer()}});
  Circuit circuit_;
  InputOperator* input_ = nullptr;
  Stream output_;
  ZSetMap view_;
  int nulled_ = 0;
  int64_t last_group_ = -1;
};

TEST(AggregateOverflowTest, ASumOutOfRangeIsNullAndRightAgainOnceItFits) {
  OverflowHarness h;
  h.push(1, INT32_MAX, 1);
  h.push(2, 5, 1);
  h.step();
  h.push(1, 1, 1);
  h.step();
  EXPECT_NE(h.view().find("  (1, NULL, 2) x1\n"), std::string::npos) << h.view();
  EXPECT_NE(h.view().find("  (2, 5, 1) x1\n"), std::string::npos) << h.view();
  EXPECT_EQ(h.nulled(), 1);
  EXPECT_EQ(h.last_group(), 1);
  h.push(1, 1, -1);
  h.step();
  EXPECT_NE(h.view().find("  (1, 2147483647, 1) x1\n"), std::string::npos) << h.view();
  EXPECT_EQ(h.nulled(), 1);  // the retraction of the NULL row logs nothing
}

TEST(AggregateOverflowTest, RandomChangesNearTheRangeMatchAFromScratchSum) {
  const int32_t values[] = {INT32_MAX, INT32_MAX - 7, INT32_MIN, INT32_MIN + 3, 1, -2, 1000000000};
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    OverflowHarness h;
    std::map<int64_t, std::map<int32_t, Weight>> rows;
    for (int step = 0; step < 30; ++step) {
      for (int change = 0; change < 4; ++change) {
        int64_t group = int64_t(random() % 3);
        int32_t x = values[random() % std::size(values)];
        // Retract only rows that are there: the integrated input stays non-negative.
        Weight weight = rows[group][x] > 0 && random() % 2 ? -1 : 1;
        rows[group][x] += weight;
        h.push(group, x, weight);
      }
      h.step();
      ASSERT_EQ(h.view(), h.expected(rows)) << "step " << step;
    }
  }
}

}  // namespace
}  // namespace freshet
