// Tests of the join fused with an aggregate: its integrated output against a
// from-scratch evaluation of the join followed by the aggregate, every kind
// of aggregate at once, over random changes of both sides; and its state
// through a checkpoint (save, restore into a fresh circuit, go on alike).
#include "freshet/operators/join_aggregate.h"

#include <gtest/gtest.h>

#include "freshet/operators/input.h"
#include "freshet/operators/join.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

//! Groups: the right side's x (NULL is a group too).
SchemaPtr group_schema() {
  static const SchemaPtr kSchema = make_schema({{"g", SqlType::bigint()}});
  return kSchema;
}

//! Each joined pair as (g = right x) -> (lx = left x, rs = right s).
void write_grouped(const RowReader&, const RowReader& left, const RowReader* right, RowBuilder& group,
                   RowBuilder& row) {
  group.copy_field(0, *right, 1);
  row.copy_field(0, left, 1);
  row.copy_field(1, *right, 2);
}

std::vector<AggregateSpec> specs() {
  const Schema& row = *testing::joined_schema();
  auto spec = [&](AggregateKind kind, size_t column, const char* name) {
    SqlType input = kind == AggregateKind::kCountStar ? SqlType::bigint() : row.type(column);
    return AggregateSpec{kind, column, name, default_aggregate_type(kind, input)};
  };
  using K = AggregateKind;
  // Integer inputs: sums are exact in any order, so outputs compare exactly.
  return {spec(K::kCountStar, 0, "n"),
          spec(K::kCount, 0, "count_lx"),
          spec(K::kSum, 0, "sum_lx"),
          spec(K::kAvg, 0, "avg_lx"),
          spec(K::kMin, 1, "min_rs"),
          spec(K::kMax, 0, "max_lx"),
          spec(K::kCountDistinct, 1, "distinct_rs")};
}

Stream fused(const std::vector<Stream>& in) {
  return join_aggregate(in[0], in[1], group_schema(), testing::joined_schema(), write_grouped, specs());
}

//! The reference: the join, then the aggregate, evaluated from scratch in one
//! step of a fresh circuit over the integrated inputs.
ZSetMap join_then_aggregate(const std::vector<ZSetMap>& inputs) {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  Stream joined = join(left->stream(), right->stream(), group_schema(), testing::joined_schema(), write_grouped);
  Stream out = aggregate(joined, specs());
  for (const auto& [entry, weight] : inputs[0]) left->push(RowRef(entry.first), RowRef(entry.second), weight);
  for (const auto& [entry, weight] : inputs[1]) right->push(RowRef(entry.first), RowRef(entry.second), weight);
  EXPECT_TRUE(circuit.step().ok());
  ZSetMap result;
  testing::add_batch(result, *out.current());
  return result;
}

TEST(JoinAggregateTest, MatchesTheJoinThenTheAggregateFromScratch) {
  testing::run_oracle({testing::indexed_kxs_input(12), testing::indexed_kxs_input(12)}, fused, join_then_aggregate,
                      testing::test_seed(211), {.steps = 600, .max_updates_per_step = 8, .delete_probability = 0.45});
}

TEST(JoinAggregateTest, FewKeysManyRowsPerGroup) {
  testing::run_oracle({testing::indexed_kxs_input(3), testing::indexed_kxs_input(3)}, fused, join_then_aggregate,
                      testing::test_seed(212), {.steps = 300, .max_updates_per_step = 12, .delete_probability = 0.4});
}

//! A circuit of two inputs and the fused operator.
struct FusedCircuit {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  Stream out = fused({left->stream(), right->stream()});
};

TEST(JoinAggregateTest, ItsStateSurvivesACheckpoint) {
  std::mt19937_64 random(testing::test_seed(213));
  testing::OracleInput input = testing::indexed_kxs_input(6);
  RowBuilder key(*testing::bigint_schema()), value(*testing::kxs_schema());
  auto push_random = [&](std::vector<InputOperator*> sides) {
    for (int i = 0; i < 6; ++i) {
      input.generate(random, key, value);
      std::string k = key.finish().to_bytes(), v = value.finish().to_bytes();
      // Both circuits take the same entry, inserted now and then deleted again.
      Weight weight = i % 3 == 2 ? -1 : 1;
      for (InputOperator* side : sides) side->push(RowRef(k), RowRef(v), weight < 0 ? 1 : weight);
      if (weight < 0) {
        for (InputOperator* side : sides) side->push(RowRef(k), RowRef(v), -1);
      }
    }
  };
  FusedCircuit original;
  for (int step = 0; step < 40; ++step) {
    push_random({step % 2 ? original.left : original.right});
    ASSERT_TRUE(original.circuit.step().ok());
  }
  ByteWriter saved;
  original.circuit.save_state(saved);

  FusedCircuit restored;
  ASSERT_TRUE(restored.circuit.restore_state(saved.data()).ok());
  for (int step = 0; step < 40; ++step) {
    bool left = step % 3 == 0;
    push_random({left ? original.left : original.right, left ? restored.left : restored.right});
    ASSERT_TRUE(original.circuit.step().ok());
    ASSERT_TRUE(restored.circuit.step().ok());
    ZSetMap a, b;
    testing::add_batch(a, *original.out.current());
    testing::add_batch(b, *restored.out.current());
    ASSERT_EQ(a, b) << "step " << step << " after the restore";
  }

  // A state cut short anywhere is refused, never half read.
  const std::string& bytes = saved.data();
  for (size_t cut : {bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    FusedCircuit damaged;
    Status status = damaged.circuit.restore_state(std::string_view(bytes).substr(0, cut));
    EXPECT_EQ(status.code(), ErrorCode::kCheckpointCorrupt) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace freshet
