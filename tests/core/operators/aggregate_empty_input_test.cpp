// Tests of EmptyInput::kDefaultRow, SQL's aggregate without GROUP BY: one
// row from the first step on, the aggregates of nothing (COUNT 0, the others
// NULL) while the input is empty, in the aggregate and in the fused
// join-aggregate; against the same aggregate without it over random runs;
// and through a checkpoint, also one taken before the first step.
#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <random>

#include "freshet/operators/aggregate.h"
#include "freshet/operators/input.h"
#include "freshet/operators/join_aggregate.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;
using K = AggregateKind;

SchemaPtr x_schema() {
  static const SchemaPtr kSchema = make_schema({{"x", SqlType::bigint()}});
  return kSchema;
}

std::vector<AggregateSpec> specs() {
  auto spec = [](K kind, const char* name) {
    SqlType input = kind == K::kCountStar ? SqlType::bigint() : x_schema()->type(0);
    return AggregateSpec{kind, 0, name, default_aggregate_type(kind, input)};
  };
  return {spec(K::kCountStar, "n"), spec(K::kSum, "s"), spec(K::kMin, "lo"), spec(K::kCountDistinct, "d")};
}

//! One input of x values under the empty key, feeding one aggregate, and its integral.
struct GlobalCircuit {
  explicit GlobalCircuit(EmptyInput empty_input) {
    input = add_input(circuit, empty_schema(), x_schema());
    output = aggregate(input->stream(), specs(), nullptr, std::nullopt, nullptr, empty_input);
  }
  void push(std::optional<int64_t> x, Weight weight) {
    const std::string key = RowBuilder(*empty_schema()).finish().to_bytes();
    const std::string row = encode_row(*x_schema(), {x ? Value::bigint(*x) : Value::null(TypeId::kBigInt)});
    input->push(RowRef(key), RowRef(row), weight);
  }
  void step() {
    ASSERT_TRUE(circuit.step().ok());
    delta = testing::to_map(*output.current());
    testing::add_batch(view, *output.current());
  }
  //! One row of the output: (n, s, lo, d), NULL for a missing value.
  ZSetMap row(int64_t n, std::optional<int64_t> s, std::optional<int64_t> lo, int64_t d) const {
    const Schema& schema = output.key_schema();
    auto value = [&](size_t c, std::optional<int64_t> v) {
      return v ? Value::bigint(*v) : Value::null(schema.type(c).id);
    };
    return {{{encode_row(schema, {Value::bigint(n), value(1, s), value(2, lo), Value::bigint(d)}), ""}, 1}};
  }
  std::string show(const ZSetMap& map) const { return testing::describe(map, output.key_schema(), Schema()); }

  Circuit circuit;
  InputOperator* input = nullptr;
  Stream output;
  ZSetMap delta, view;
};

TEST(AggregateEmptyInputTest, TheRowOfNothingFromTheFirstStepThenTheInputsRowAndBack) {
  GlobalCircuit c(EmptyInput::kDefaultRow);
  c.step();
  EXPECT_EQ(c.view, c.row(0, std::nullopt, std::nullopt, 0)) << c.show(c.view);
  c.step();
  EXPECT_TRUE(c.delta.empty()) << "no input, no change: " << c.show(c.delta);

  c.push(5, 1);
  c.push(7, 1);
  c.step();
  EXPECT_EQ(c.view, c.row(2, 12, 5, 2)) << c.show(c.view);
  EXPECT_EQ(c.delta.size(), 2u) << "the row of nothing out, the group's in: " << c.show(c.delta);

  c.push(5, -1);
  c.push(7, -1);
  c.step();
  EXPECT_EQ(c.view, c.row(0, std::nullopt, std::nullopt, 0)) << c.show(c.view);

  c.push(std::nullopt, 1);  // a row of NULL: COUNT(*) 1, the others of nothing
  c.step();
  EXPECT_EQ(c.view, c.row(1, std::nullopt, std::nullopt, 0)) << c.show(c.view);

  // Without it, the same aggregate has no row while its input is empty.
  GlobalCircuit plain(EmptyInput::kNoRow);
  plain.step();
  EXPECT_TRUE(plain.view.empty());
}

// COUNTIF (over a BOOLEAN) is a count too: 0 of nothing.
TEST(AggregateEmptyInputTest, CountIfOfNothingIsZero) {
  const SchemaPtr flag = make_schema({{"f", SqlType::boolean()}});
  Circuit circuit;
  InputOperator* input = add_input(circuit, empty_schema(), flag);
  Stream output =
      aggregate(input->stream(), {{K::kCountIf, 0, "t", default_aggregate_type(K::kCountIf, flag->type(0))}}, nullptr,
                std::nullopt, nullptr, EmptyInput::kDefaultRow);
  ASSERT_TRUE(circuit.step().ok());
  const ZSetMap expected = {{{encode_row(output.key_schema(), {Value::bigint(0)}), ""}, 1}};
  EXPECT_EQ(testing::to_map(*output.current()), expected);
}

// Random inserts and deletes of few values, often back to nothing: after every
// step the view is one row, the plain aggregate's row or, when it has none,
// the row of nothing.
TEST(AggregateEmptyInputTest, OneRowAfterEveryStepOfARandomRun) {
  GlobalCircuit with(EmptyInput::kDefaultRow), plain(EmptyInput::kNoRow);
  std::mt19937_64 random(testing::test_seed(2112));
  std::map<std::optional<int64_t>, Weight> live;
  size_t empty_steps = 0;
  for (int step = 0; step < 400; ++step) {
    const int changes = std::uniform_int_distribution<int>(0, 3)(random);
    for (int i = 0; i < changes; ++i) {
      // Deletes (of rows there) a little likelier than inserts: the input empties out now and then.
      std::optional<int64_t> x;
      Weight weight = 1;
      if (!live.empty() && std::bernoulli_distribution(0.55)(random)) {
        x = std::next(live.begin(), static_cast<long>(random() % live.size()))->first;
        weight = -1;
        if (--live[x] == 0) live.erase(x);
      } else {
        if (random() % 6) x = std::uniform_int_distribution<int64_t>(-3, 3)(random);
        ++live[x];
      }
      with.push(x, weight);
      plain.push(x, weight);
    }
    with.step();
    plain.step();
    const ZSetMap expected = plain.view.empty() ? with.row(0, std::nullopt, std::nullopt, 0) : plain.view;
    ASSERT_EQ(with.view, expected) << "step " << step << ":\n" << with.show(with.view);
    empty_steps += plain.view.empty() ? 1 : 0;
  }
  EXPECT_GT(empty_steps, 10u) << "the run empties the input often enough to test it";
}

TEST(AggregateEmptyInputTest, ACheckpointBeforeTheFirstStepAndOneOfTheRowOfNothing) {
  // Saved before any step: the restored aggregate emits the row at its first step, once.
  GlobalCircuit before(EmptyInput::kDefaultRow);
  ByteWriter unstepped;
  before.circuit.save_state(unstepped);
  GlobalCircuit resumed(EmptyInput::kDefaultRow);
  ASSERT_TRUE(resumed.circuit.restore_state(unstepped.data()).ok());
  resumed.step();
  resumed.step();
  EXPECT_EQ(resumed.view, resumed.row(0, std::nullopt, std::nullopt, 0)) << resumed.show(resumed.view);

  // Saved while it shows the row of nothing (its input emptied): not emitted again; replaced by the next input.
  GlobalCircuit written(EmptyInput::kDefaultRow);
  written.push(4, 1);
  written.step();
  written.push(4, -1);
  written.step();
  ByteWriter saved;
  written.circuit.save_state(saved);
  GlobalCircuit restored(EmptyInput::kDefaultRow);
  ASSERT_TRUE(restored.circuit.restore_state(saved.data()).ok());
  restored.view = written.view;
  restored.step();
  EXPECT_TRUE(restored.delta.empty()) << restored.show(restored.delta);
  restored.push(9, 1);
  restored.step();
  EXPECT_EQ(restored.view, restored.row(1, 9, 9, 1)) << restored.show(restored.view);
}

//! left(k -> (k, x, s)) ⋈ right(k -> (k, x, s)), aggregated over all pairs: the left x.
void write_left_x(const RowReader&, const RowReader& left, const RowReader*, RowBuilder&, RowBuilder& row) {
  row.copy_field(0, left, 1);
}

TEST(AggregateEmptyInputTest, TheJoinAggregateToo) {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  Stream output = join_aggregate(left->stream(), right->stream(), empty_schema(), x_schema(), write_left_x, specs(),
                                 nullptr, EmptyInput::kDefaultRow);
  ZSetMap view;
  auto step = [&] {
    ASSERT_TRUE(circuit.step().ok());
    testing::add_batch(view, *output.current());
  };
  auto push = [](InputOperator* side, int64_t k, int64_t x, Weight weight) {
    const std::string key = encode_row(*testing::bigint_schema(), {Value::bigint(k)});
    const std::string row =
        encode_row(*testing::kxs_schema(), {Value::bigint(k), Value::bigint(x), Value::varchar("")});
    side->push(RowRef(key), RowRef(row), weight);
  };
  const Schema& schema = output.key_schema();
  auto row = [&](int64_t n, std::optional<int64_t> s, std::optional<int64_t> lo, int64_t d) {
    auto value = [&](size_t c, std::optional<int64_t> v) {
      return v ? Value::bigint(*v) : Value::null(schema.type(c).id);
    };
    return ZSetMap{{{encode_row(schema, {Value::bigint(n), value(1, s), value(2, lo), Value::bigint(d)}), ""}, 1}};
  };

  push(left, 1, 10, 1);  // no pair yet
  step();
  EXPECT_EQ(view, row(0, std::nullopt, std::nullopt, 0)) << testing::describe(view, schema, Schema());
  push(right, 1, 0, 1);
  push(right, 1, 0, 1);  // two right rows: the left row pairs twice
  step();
  EXPECT_EQ(view, row(2, 20, 10, 1)) << testing::describe(view, schema, Schema());
  push(left, 1, 10, -1);
  step();
  EXPECT_EQ(view, row(0, std::nullopt, std::nullopt, 0)) << testing::describe(view, schema, Schema());
}

}  // namespace
}  // namespace freshet
