// Tests of distinct: hand-written steps, weights that go negative, and oracle
// runs over plain and indexed streams.
#include <gtest/gtest.h>

#include "freshet/operators/distinct.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

std::string bigint_row(int64_t value) {
  RowBuilder row(*testing::bigint_schema());
  row.set_int(0, value);
  return row.finish().to_bytes();
}

ZSetMap rows(std::initializer_list<std::pair<int64_t, Weight>> entries) {
  ZSetMap map;
  for (const auto& [value, weight] : entries) testing::add_entry(map, bigint_row(value), "", weight);
  return map;
}

// The example of distinct.h: a=1, b=2, c=3.
TEST(DistinctTest, EmitsOnlyWhenTheSignOfTheWeightChanges) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream out = distinct(input->stream());
  auto step = [&](std::initializer_list<std::pair<int64_t, Weight>> updates) {
    for (const auto& [value, weight] : updates) input->push_row(RowRef(bigint_row(value)), weight);
    EXPECT_TRUE(circuit.step().ok());
    return testing::to_map(*out.current());
  };
  EXPECT_EQ(step({{1, 2}}), rows({{1, 1}}));
  EXPECT_EQ(step({{1, -1}}), rows({}));
  EXPECT_EQ(step({{1, -1}}), rows({{1, -1}}));
  EXPECT_EQ(step({{2, 1}, {3, -1}}), rows({{2, 1}}));
  // c goes from -1 to +1: it appears; then from +1 to -2: it disappears.
  EXPECT_EQ(step({{3, 2}}), rows({{3, 1}}));
  EXPECT_EQ(step({{3, -3}}), rows({{3, -1}}));
  EXPECT_EQ(step({}), rows({}));
}

TEST(DistinctTest, IndexedStreamsAreDistinctOverKeyAndValue) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema(), testing::bigint_schema());
  Stream out = distinct(input->stream());
  input->push(RowRef(bigint_row(1)), RowRef(bigint_row(10)), 3);
  input->push(RowRef(bigint_row(1)), RowRef(bigint_row(11)), 1);
  input->push(RowRef(bigint_row(2)), RowRef(bigint_row(10)), 2);
  ASSERT_TRUE(circuit.step().ok());
  ZSetMap expected;
  testing::add_entry(expected, bigint_row(1), bigint_row(10), 1);
  testing::add_entry(expected, bigint_row(1), bigint_row(11), 1);
  testing::add_entry(expected, bigint_row(2), bigint_row(10), 1);
  EXPECT_EQ(testing::to_map(*out.current()), expected);
  EXPECT_EQ(out.key_schema().size(), 1u);
  EXPECT_EQ(out.value_schema().size(), 1u);

  input->push(RowRef(bigint_row(1)), RowRef(bigint_row(10)), -2);
  input->push(RowRef(bigint_row(1)), RowRef(bigint_row(11)), -1);
  ASSERT_TRUE(circuit.step().ok());
  ZSetMap removed;
  testing::add_entry(removed, bigint_row(1), bigint_row(11), -1);
  EXPECT_EQ(testing::to_map(*out.current()), removed);
}

ZSetMap distinct_reference(const ZSetMap& input) {
  ZSetMap out;
  for (const auto& [entry, weight] : input) {
    if (weight > 0) out[entry] = 1;
  }
  return out;
}

TEST(DistinctTest, MatchesOracleOnZSet) {
  testing::run_oracle(
      {testing::kxs_input(/*key_domain=*/2)}, [](const std::vector<Stream>& in) { return distinct(in[0]); },
      [](const std::vector<ZSetMap>& in) { return distinct_reference(in[0]); }, testing::test_seed(201));
}

TEST(DistinctTest, MatchesOracleOnIndexedStream) {
  testing::run_oracle(
      {testing::indexed_kxs_input(/*key_domain=*/2)}, [](const std::vector<Stream>& in) { return distinct(in[0]); },
      [](const std::vector<ZSetMap>& in) { return distinct_reference(in[0]); }, testing::test_seed(202));
}

// The oracle only deletes what is there; here weights wander below zero too.
TEST(DistinctTest, MatchesReferenceWhenWeightsGoNegative) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream out = distinct(input->stream());
  std::mt19937_64 random(testing::test_seed(203));
  ZSetMap integrated_input, integrated_output;
  for (int step = 0; step < 1000; ++step) {
    int updates = static_cast<int>(random() % 5);
    for (int u = 0; u < updates; ++u) {
      std::string row = bigint_row(static_cast<int64_t>(random() % 6));
      Weight weight = static_cast<Weight>(random() % 5) - 2;
      input->push_row(RowRef(row), weight);
      testing::add_entry(integrated_input, row, "", weight);
    }
    ASSERT_TRUE(circuit.step().ok());
    testing::add_batch(integrated_output, *out.current());
    ASSERT_EQ(integrated_output, distinct_reference(integrated_input)) << "step " << step;
  }
}

}  // namespace
}  // namespace freshet
