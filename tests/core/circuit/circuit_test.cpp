#include "freshet/circuit/circuit.h"

#include <gtest/gtest.h>

#include "freshet/operators/filter.h"
#include "freshet/operators/input.h"
#include "freshet/operators/map.h"
#include "support/generators.h"

namespace freshet {
namespace {

// An operator that fails on demand, to see how the circuit reports it.
class FailingOperator : public Operator {
 public:
  explicit FailingOperator(bool* fail) : fail_(fail) {}
  const char* name() const override { return "failing"; }
  Status evaluate() override {
    return *fail_ ? Status(ErrorCode::kOverflow, "value out of range") : Status::OK();
  }

 private:
  bool* fail_;
};

TEST(CircuitTest, StepsRunOperatorsInOrderAndCount) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream doubled = map(input->stream(), testing::bigint_schema(), empty_schema(),
                       [](const RowReader& key, const RowReader&, RowBuilder& out, RowBuilder&) {
                         out.set_int(0, key.get_int(0) * 2);
                       });
  Stream big = filter(doubled, [](const RowReader& key, const RowReader&) { return key.get_int(0) > 5; });
  EXPECT_EQ(circuit.operator_count(), 3u);
  EXPECT_EQ(circuit.step_count(), 0u);

  for (int64_t v : {1, 3, 4}) input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(v)})), 1);
  EXPECT_EQ(input->pending(), 3u);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(input->pending(), 0u);
  EXPECT_EQ(circuit.step_count(), 1u);
  ASSERT_EQ(big.current()->size(), 2u);
  EXPECT_EQ(RowReader(big.key_schema(), big.current()->key(0)).get_int(0), 6);
  EXPECT_EQ(RowReader(big.key_schema(), big.current()->key(1)).get_int(0), 8);

  // A step without input carries empty batches everywhere.
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(big.current()->empty());
  EXPECT_TRUE(doubled.current()->empty());
}

TEST(CircuitTest, AFailingOperatorFailsTheStepAndNamesItself) {
  Circuit circuit;
  add_input(circuit, testing::bigint_schema());
  bool fail = false;
  circuit.add_operator(std::make_unique<FailingOperator>(&fail));
  ASSERT_TRUE(circuit.step().ok());
  fail = true;
  Status status = circuit.step();
  EXPECT_EQ(status.code(), ErrorCode::kOverflow);
  EXPECT_EQ(status.message(), "failing: value out of range");
  EXPECT_EQ(circuit.step_count(), 1u);
}

TEST(CircuitTest, ErrorsReportedByUserFunctionsFailTheStep) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  filter(input->stream(), [&circuit](const RowReader& key, const RowReader&) {
    if (key.get_int(0) == 0) circuit.report_error(Status(ErrorCode::kOverflow, "division by zero"));
    return true;
  });
  input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(1)})), 1);
  ASSERT_TRUE(circuit.step().ok());
  input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(0)})), 1);
  Status status = circuit.step();
  EXPECT_EQ(status.code(), ErrorCode::kOverflow);
  EXPECT_EQ(status.message(), "filter: division by zero");
  // The error is reported once; the next step starts clean.
  EXPECT_TRUE(circuit.step().ok());
}

TEST(CircuitTest, StreamsKnowTheirSchemas) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  EXPECT_EQ(input->stream().key_schema().to_string(), "(k BIGINT)");
  EXPECT_EQ(input->stream().value_schema().size(), 3u);
  EXPECT_TRUE(empty_schema()->empty());
}

}  // namespace
}  // namespace freshet
