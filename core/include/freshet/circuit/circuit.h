// Circuit: the operator graph of a pipeline and its step.
//
// Operators are added in topological order (an operator's inputs exist
// before it), which is then the evaluation order. The only back edges are
// those of delays (z^-1), whose output for step t is their input of step t-1
// and so never depends on the current step.
//
//   step():  for op in operators: op.evaluate()    // outputs of step t
//            for op in operators: op.end_step()    // delays remember inputs
//
// The circuit knows its graph: each operator's input streams (declared by
// its factory, plus a delay's back edge) and its one output stream
// (circuit_graph.cpp). An operator whose evaluate fails (an SQL runtime
// error) is failed from then on, with every operator downstream of it:
// they are skipped and their streams carry empty batches, while the rest of
// the circuit steps on (circuit_failures.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "freshet/circuit/error_log.h"
#include "freshet/circuit/operator.h"

namespace freshet {

class Circuit;

//! Stream: a handle to one edge of the circuit.
class Stream {
 public:
  Stream() = default;
  Stream(Circuit* circuit, uint32_t id) : circuit_(circuit), id_(id) {}

  Circuit* circuit() const { return circuit_; }
  uint32_t id() const { return id_; }
  const Schema& key_schema() const;
  const Schema& value_schema() const;
  const SchemaPtr& key_schema_ptr() const;
  const SchemaPtr& value_schema_ptr() const;
  //! The batch this stream carried in the last step.
  const BatchPtr& current() const;

 private:
  Circuit* circuit_ = nullptr;
  uint32_t id_ = 0;
};

//! Why an operator is failed: the error (prefixed with the name of the
//! operator that failed first) and the step at which it did.
struct OperatorFailure {
  Status error;
  uint64_t step = 0;
};

//! Time an operator spent evaluating, measured by Circuit::step() with one
//! clock read per operator (0 in a step where it was skipped).
struct OperatorTime {
  uint64_t last_step_nanos = 0;
  uint64_t total_nanos = 0;
};

class Circuit {
 public:
  Circuit() = default;
  Circuit(const Circuit&) = delete;
  Circuit& operator=(const Circuit&) = delete;

  //! A new stream with the given key and value schemas (an operator's output).
  Stream add_stream(SchemaPtr key_schema, SchemaPtr value_schema);
  StreamSlot& slot(Stream stream) { return *slots_[stream.id()]; }
  const StreamSlot& slot(Stream stream) const { return *slots_[stream.id()]; }

  //! Takes ownership of an operator that reads `inputs` (every stream it
  //! reads during evaluate) and writes `output`, a stream added for it; it is
  //! evaluated after those added before.
  template <typename T>
  T* add_operator(std::unique_ptr<T> op, std::vector<Stream> inputs, Stream output) {
    T* raw = op.get();
    add_node(std::move(op), inputs, output);
    return raw;
  }
  //! Declares one more input of `op`, added after it: a delay's back edge.
  void add_input(const Operator* op, Stream input);

  // ------------------------------------------------------------- the graph
  //! The streams operator `index` reads, in the order declared.
  const std::vector<uint32_t>& inputs_of(size_t index) const { return nodes_[index].inputs; }
  //! The stream operator `index` writes.
  uint32_t output_of(size_t index) const { return nodes_[index].output; }
  //! The operator that writes `stream`.
  size_t producer_of(Stream stream) const { return producers_[stream.id()]; }
  //! The operators that read operator `index`'s output, in evaluation order.
  std::vector<size_t> consumers_of(size_t index) const;
  //! Operator `index` and every operator downstream of it, in evaluation order.
  std::vector<size_t> downstream_of(size_t index) const;
  size_t stream_count() const { return slots_.size(); }

  //! Runs one step: every operator that is not failed, once, in order. An
  //! operator whose evaluate returns or reports an error is failed, with
  //! everything downstream (failure_of). The step itself fails only when a
  //! source operator (one without inputs: a table's) failed.
  Status step();
  //! Records an error found inside an operator's user function (an SQL
  //! expression dividing by zero, say); that operator fails with the first one.
  void report_error(Status error) {
    if (reported_error_.ok()) reported_error_ = std::move(error);
  }
  //! Bounds the next steps to `budget` bytes (0: none), of which the state
  //! holds `held_bytes` now (step_memory.h): an operator that builds past it
  //! fails the step with OUT_OF_MEMORY.
  void set_memory_limit(size_t budget, size_t held_bytes) {
    memory_budget_ = budget;
    held_bytes_ = held_bytes;
  }
  //! Runtime errors turned into NULL and late updates dropped, for the
  //! error view (error_log.h).
  ErrorLog& error_log() { return error_log_; }
  //! Steps completed so far.
  uint64_t step_count() const { return step_count_; }
  //! Bytes of operator state (traces, maps) over the whole circuit.
  size_t state_bytes() const;
  size_t operator_count() const { return operators_.size(); }
  //! The operator evaluated `index`-th (for tests and diagnostics).
  const Operator& operator_at(size_t index) const { return *operators_[index]; }
  //! Operator `index`'s evaluation time in the last step and over all steps.
  OperatorTime time_of(size_t index) const { return index < times_.size() ? times_[index] : OperatorTime{}; }

  // ------------------------------------------------------------- failures
  //! Why operator `index` is failed, or null when it is not.
  const OperatorFailure* failure_of(size_t index) const;
  //! Why the operator writing `stream` is failed, or null.
  const OperatorFailure* stream_failure(Stream stream) const { return failure_of(producer_of(stream)); }
  bool any_failed() const { return !failures_.empty(); }
  //! The first error an operator hit in the last step, or OK: for callers
  //! that treat any runtime error as the step's (an ad-hoc query, tests).
  const Status& last_step_error() const { return last_step_error_; }
  //! Fails operator `index` (at the current step) and everything downstream
  //! of it, which were not already failed.
  void fail_operator(size_t index, Status error);
  //! The failed operators as a checkpoint section, and back (into a circuit
  //! of the same program, after restore_state).
  void save_failures(ByteWriter& out) const;
  Status restore_failures(std::string_view bytes);
  //! Test mode: while an operator evaluates, every stream it did not declare
  //! as an input carries an empty batch, so reading one shows in its output.
  void set_check_inputs(bool check) { check_inputs_ = check; }

  //! Writes the step count and every operator's state (a checkpoint section).
  void save_state(ByteWriter& out) const;
  //! Reads what save_state wrote into a circuit freshly compiled from the
  //! same program; kCheckpointCorrupt when it does not fit.
  Status restore_state(std::string_view bytes);

 private:
  struct Node {
    std::vector<uint32_t> inputs;
    uint32_t output = 0;
  };
  void add_node(std::unique_ptr<Operator> op, const std::vector<Stream>& inputs, Stream output);
  //! Evaluates operator `index`: what it returned or reported, unprefixed.
  Status evaluate_operator(size_t index);
  //! evaluate_operator with only its inputs visible (set_check_inputs).
  Status evaluate_with_only_inputs(size_t index);

  std::vector<std::unique_ptr<StreamSlot>> slots_;
  std::vector<std::unique_ptr<Operator>> operators_;
  std::vector<Node> nodes_;          // by operator index
  std::vector<size_t> producers_;    // by stream id: the operator writing it
  std::map<size_t, OperatorFailure> failures_;  // by operator index
  uint64_t step_count_ = 0;
  Status reported_error_;
  size_t memory_budget_ = 0, held_bytes_ = 0;
  Status last_step_error_;
  bool check_inputs_ = false;
  ErrorLog error_log_;
  std::vector<OperatorTime> times_;  // by operator index, sized by step()
};

//! The empty schema: the value schema of plain Z-sets.
const SchemaPtr& empty_schema();

}  // namespace freshet
