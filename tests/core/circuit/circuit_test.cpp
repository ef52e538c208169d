#include "freshet/circuit/circuit.h"

#include <gtest/gtest.h>

#include "freshet/operators/filter.h"
#include "freshet/operators/input.h"
#include "freshet/operators/integrate.h"
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

// A failing operator with an input (so not a source) and its output stream.
Stream add_failing(Circuit& circuit, Stream input, bool* fail) {
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  circuit.add_operator(std::make_unique<FailingOperator>(fail), {input}, output);
  return output;
}

TEST(CircuitTest, AFailingOperatorFailsItselfAndWhatIsDownstreamOnly) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  bool fail = false;
  Stream failing = add_failing(circuit, input->stream(), &fail);
  Stream after = filter(failing, [](const RowReader&, const RowReader&) { return true; });
  Stream beside = filter(input->stream(), [](const RowReader&, const RowReader&) { return true; });
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_FALSE(circuit.any_failed());

  fail = true;
  input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(1)})), 1);
  ASSERT_TRUE(circuit.step().ok());  // not a source: the step goes on
  EXPECT_EQ(circuit.step_count(), 2u);
  const OperatorFailure* failure = circuit.stream_failure(failing);
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ(failure->error.code(), ErrorCode::kOverflow);
  EXPECT_EQ(failure->error.message(), "failing: value out of range");
  EXPECT_EQ(failure->step, 1u);
  ASSERT_NE(circuit.stream_failure(after), nullptr);
  EXPECT_EQ(circuit.stream_failure(after)->error.message(), "failing: value out of range");
  EXPECT_EQ(circuit.stream_failure(beside), nullptr);
  EXPECT_EQ(circuit.stream_failure(input->stream()), nullptr);
  EXPECT_EQ(beside.current()->size(), 1u);
  EXPECT_TRUE(after.current()->empty());

  // From then on it is skipped, even when it would succeed.
  fail = false;
  input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(2)})), 1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(failing.current()->empty());
  EXPECT_TRUE(after.current()->empty());
  EXPECT_EQ(beside.current()->size(), 1u);
  EXPECT_EQ(circuit.stream_failure(failing)->step, 1u);
}

TEST(CircuitTest, AFailingSourceFailsTheStep) {
  Circuit circuit;
  bool fail = false;
  Stream source = circuit.add_stream(testing::bigint_schema(), empty_schema());
  circuit.add_operator(std::make_unique<FailingOperator>(&fail), {}, source);
  ASSERT_TRUE(circuit.step().ok());
  fail = true;
  Status status = circuit.step();
  EXPECT_EQ(status.code(), ErrorCode::kOverflow);
  EXPECT_EQ(status.message(), "failing: value out of range");
  EXPECT_EQ(circuit.step_count(), 1u);
}

TEST(CircuitTest, ErrorsReportedByUserFunctionsFailTheOperator) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream checked = filter(input->stream(), [&circuit](const RowReader& key, const RowReader&) {
    if (key.get_int(0) == 0) circuit.report_error(Status(ErrorCode::kOverflow, "division by zero"));
    return true;
  });
  input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(1)})), 1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(circuit.stream_failure(checked), nullptr);
  input->push_row(RowRef(encode_row(*testing::bigint_schema(), {Value::bigint(0)})), 1);
  ASSERT_TRUE(circuit.step().ok());
  ASSERT_NE(circuit.stream_failure(checked), nullptr);
  EXPECT_EQ(circuit.stream_failure(checked)->error.message(), "filter: division by zero");
  EXPECT_TRUE(checked.current()->empty());
  // The error is reported once; the next step starts clean (nothing else fails).
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(circuit.stream_failure(input->stream()), nullptr);
}

TEST(CircuitTest, TheGraphKnowsInputsConsumersAndDelaysBackEdges) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream a = filter(input->stream(), [](const RowReader&, const RowReader&) { return true; });
  Stream sum = integrate(a);
  Stream b = filter(input->stream(), [](const RowReader&, const RowReader&) { return true; });
  const size_t source = circuit.producer_of(input->stream());
  EXPECT_EQ(source, 0u);
  EXPECT_TRUE(circuit.inputs_of(source).empty());
  const size_t filter_a = circuit.producer_of(a);
  ASSERT_EQ(circuit.inputs_of(filter_a).size(), 1u);
  EXPECT_EQ(circuit.inputs_of(filter_a)[0], input->stream().id());
  EXPECT_EQ(circuit.output_of(filter_a), a.id());
  std::vector<size_t> consumers = circuit.consumers_of(source);
  EXPECT_EQ(consumers, (std::vector<size_t>{filter_a, circuit.producer_of(b)}));
  // integrate = plus(a, z^-1(sum)): the delay reads the plus that comes after it.
  const size_t plus = circuit.producer_of(sum);
  std::vector<size_t> downstream = circuit.downstream_of(plus);
  EXPECT_EQ(downstream.size(), 2u);  // the plus and its delay
  EXPECT_EQ(circuit.downstream_of(source).size(), circuit.operator_count());
  EXPECT_EQ(circuit.downstream_of(circuit.producer_of(b)), std::vector<size_t>{circuit.producer_of(b)});
  // A stream no operator writes, added after the last one (error_view's):
  // no producer, not a read past the end of the table (valgrind found one).
  Stream outside = circuit.add_stream(testing::bigint_schema(), empty_schema());
  EXPECT_EQ(circuit.producer_of(outside), SIZE_MAX);
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
