// Tests of INTERSECT ALL / EXCEPT ALL / INTERSECT / EXCEPT over Z-sets: the
// header's example, oracle runs against min / max(0, m1 - m2) /
// both-positive / left-only computed from the integrated inputs, and a
// checkpoint round trip.
#include "freshet/operators/multiset_set_operation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

std::string x_row(int64_t x) {
  RowBuilder row(*testing::bigint_schema());
  row.set_int(0, x);
  return row.finish().to_bytes();
}

//! The expected output from the integrated inputs, entry by entry.
ZSetMap reference(const ZSetMap& left, const ZSetMap& right, MultisetOperation operation) {
  std::map<testing::Entry, std::pair<Weight, Weight>> both;
  for (const auto& [entry, weight] : left) both[entry].first += weight;
  for (const auto& [entry, weight] : right) both[entry].second += weight;
  ZSetMap out;
  for (const auto& [entry, weights] : both) {
    Weight m1 = std::max<Weight>(weights.first, 0), m2 = std::max<Weight>(weights.second, 0);
    Weight weight = operation == MultisetOperation::kIntersectAll ? std::min(m1, m2)
                    : operation == MultisetOperation::kExceptAll  ? std::max<Weight>(m1 - m2, 0)
                    : operation == MultisetOperation::kIntersect  ? (m1 > 0 && m2 > 0 ? 1 : 0)
                                                                  : (m1 > 0 && m2 == 0 ? 1 : 0);
    if (weight != 0) testing::add_entry(out, entry.first, entry.second, weight);
  }
  return out;
}

void run(MultisetOperation operation, int key_domain, uint64_t seed) {
  testing::run_oracle(
      {testing::kxs_input(key_domain), testing::kxs_input(key_domain)},
      [&](const std::vector<Stream>& in) { return multiset_set_operation(in[0], in[1], operation); },
      [&](const std::vector<ZSetMap>& in) { return reference(in[0], in[1], operation); }, seed,
      {.steps = 500, .max_updates_per_step = 8, .delete_probability = 0.4});
}

// The example of multiset_set_operation.h (EXCEPT ALL).
TEST(MultisetSetOperationTest, FollowsTheHeaderExample) {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema());
  Stream out = multiset_set_operation(left->stream(), right->stream(), MultisetOperation::kExceptAll);
  const std::string a = x_row(1);
  auto step = [&] {
    EXPECT_TRUE(circuit.step().ok());
    ZSetMap delta;
    testing::add_batch(delta, *out.current());
    return delta;
  };
  left->push(RowRef(a), RowRef(), 2);
  right->push(RowRef(a), RowRef(), 1);
  EXPECT_EQ(step(), (ZSetMap{{{a, ""}, 1}}));
  right->push(RowRef(a), RowRef(), 1);
  EXPECT_EQ(step(), (ZSetMap{{{a, ""}, -1}}));
  left->push(RowRef(a), RowRef(), 1);
  EXPECT_EQ(step(), (ZSetMap{{{a, ""}, 1}}));
  right->push(RowRef(a), RowRef(), -2);
  EXPECT_EQ(step(), (ZSetMap{{{a, ""}, 2}}));
}

TEST(MultisetSetOperationTest, IntersectAllMatchesOracle) {
  run(MultisetOperation::kIntersectAll, 4, testing::test_seed(1701));
}
TEST(MultisetSetOperationTest, ExceptAllMatchesOracle) {
  run(MultisetOperation::kExceptAll, 4, testing::test_seed(1702));
}
TEST(MultisetSetOperationTest, IntersectMatchesOracle) {
  run(MultisetOperation::kIntersect, 3, testing::test_seed(1703));
}
TEST(MultisetSetOperationTest, ExceptMatchesOracle) { run(MultisetOperation::kExcept, 3, testing::test_seed(1716)); }
TEST(MultisetSetOperationTest, ExceptWideDomainMatchesOracle) {
  run(MultisetOperation::kExcept, 12, testing::test_seed(1717));
}
TEST(MultisetSetOperationTest, ExceptAllWideDomainMatchesOracle) {
  run(MultisetOperation::kExceptAll, 12, testing::test_seed(1704));
}

struct ExceptAllCircuit {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::kxs_schema());
  Stream out = multiset_set_operation(left->stream(), right->stream(), MultisetOperation::kExceptAll);
};

TEST(MultisetSetOperationTest, ItsStateSurvivesACheckpoint) {
  std::mt19937_64 random(testing::test_seed(1705));
  RowBuilder row(*testing::kxs_schema());
  auto push_random = [&](std::vector<InputOperator*> sides) {
    for (int i = 0; i < 5; ++i) {
      testing::random_kxs(random, row, 3);
      std::string bytes = row.finish().to_bytes();
      Weight weight = i % 4 == 3 ? -1 : 1;
      for (InputOperator* side : sides) side->push(RowRef(bytes), RowRef(), weight);
    }
  };
  ExceptAllCircuit original;
  for (int step = 0; step < 30; ++step) {
    push_random({step % 2 ? original.left : original.right});
    ASSERT_TRUE(original.circuit.step().ok());
  }
  ByteWriter saved;
  original.circuit.save_state(saved);
  ExceptAllCircuit restored;
  ASSERT_TRUE(restored.circuit.restore_state(saved.data()).ok());
  for (int step = 0; step < 30; ++step) {
    bool left = step % 3 == 0;
    push_random({left ? original.left : original.right, left ? restored.left : restored.right});
    ASSERT_TRUE(original.circuit.step().ok());
    ASSERT_TRUE(restored.circuit.step().ok());
    ZSetMap a, b;
    testing::add_batch(a, *original.out.current());
    testing::add_batch(b, *restored.out.current());
    ASSERT_EQ(a, b) << "step " << step << " after the restore";
  }
}

}  // namespace
}  // namespace freshet
