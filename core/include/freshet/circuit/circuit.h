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
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
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

  // ------------------------------------------------------------- ids
  //! Operator `index`'s id: a short string derived from the plan, the same
  //! in every program that builds that operator alike (circuit_ids.cpp).
  const std::string& operator_id(size_t index) const { return ids_[index]; }
  //! Operators added until the matching pop_id_scope are named from `key`
  //! (a canonical sub-plan key, a table's name and schema) and their order
  //! in it. Use OperatorIdScope (operator_ids.h).
  void push_id_scope(std::string key) { id_scopes_.push_back(std::move(key)); }
  void pop_id_scope() { id_scopes_.pop_back(); }
  //! Counts one operator of the innermost scope as named, without adding
  //! it: where the planner reads a stream another user built (sharing), the
  //! operators built after it keep the ids they have without sharing.
  void skip_operator_id() { next_operator_id(); }
  //! The operator with id `id`, if any.
  std::optional<size_t> operator_with_id(std::string_view id) const;

  // ------------------------------------------------------------- the graph
  //! The streams operator `index` reads, in the order declared.
  const std::vector<uint32_t>& inputs_of(size_t index) const { return nodes_[index].inputs; }
  //! The stream operator `index` writes.
  uint32_t output_of(size_t index) const { return nodes_[index].output; }
  //! The operator that writes `stream`; SIZE_MAX when none does (a stream
  //! filled from outside, as error_view's, may come after the last operator).
  size_t producer_of(Stream stream) const {
    return stream.id() < producers_.size() ? producers_[stream.id()] : SIZE_MAX;
  }
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
  //! Times each operator's evaluation from the next step on (off by default:
  //! a clock read per operator is not free in wasm); explain turns it on.
  void set_timing(bool on) { timing_ = on; }
  bool timing() const { return timing_; }
  //! Operator `index`'s evaluation time in the last step and over all steps
  //! since set_timing(true) (zeros before).
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
  //! `by_id`: the section names operators by id (format 7), and only the
  //! operators with `restored` set take their failure back.
  Status restore_failures(std::string_view bytes, bool by_id = false, const std::vector<bool>* restored = nullptr);
  // ------------------------------------------------------ bootstrapping
  //! A stream's integral from outside the operators (a restored view's
  //! trace), or null when there is none there.
  using IntegralLookup = std::function<BatchPtr(uint32_t stream)>;
  //! The integral of `stream`: `lookup`'s, else its producer's output_integral().
  BatchPtr integral_of(uint32_t stream, const IntegralLookup& lookup) const;
  //! Grows `rebuild` (by operator index) until every operator in it can be
  //! rebuilt: an input whose producer is not rebuilt gives its integral, and
  //! so does each stream of `wanted` (circuit_bootstrap.cpp).
  void close_rebuild_set(std::vector<bool>& rebuild, const std::vector<uint32_t>& wanted,
                         const IntegralLookup& lookup) const;
  //! Evaluates the operators of `rebuild` once, in order, over the integrals
  //! of their other inputs: each starts from scratch and ends with the state
  //! it would have had. Not a step; no other operator runs. `outputs` is
  //! called while the streams carry what the bootstrap computed (the full
  //! contents of the streams of rebuilt operators, and the integrals given).
  //! A rebuilt operator's old failure is cleared; one that fails now is failed.
  void bootstrap(const std::vector<bool>& rebuild, const IntegralLookup& lookup, const std::function<void()>& outputs);

  //! Test mode: while an operator evaluates, every stream it did not declare
  //! as an input carries an empty batch, so reading one shows in its output.
  void set_check_inputs(bool check) { check_inputs_ = check; }

  //! Writes the step count and every operator's id, kind and state (a
  //! checkpoint section, format 7: circuit_ids.cpp).
  void save_state(ByteWriter& out) const;
  //! Reads what save_state wrote, by id: an operator whose id (and kind) is
  //! in it gets its state and `restored[i]` set; the others stay fresh (new
  //! operators, to bootstrap); saved ids the circuit lacks are dropped.
  Status restore_state_by_id(std::string_view bytes, std::vector<bool>& restored);
  //! Reads a circuit section of formats 4 to 6 (by position) into a circuit
  //! that builds the same operators; kCheckpointVersion when it does not.
  Status restore_state(std::string_view bytes);
  //! The ids a format-7 circuit section holds, with their kinds.
  static Result<std::map<std::string, std::string>> saved_ids(std::string_view bytes);

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
  std::vector<std::string> ids_;                 // by operator index
  std::vector<std::string> id_scopes_;           // innermost last
  std::map<std::string, size_t> id_counts_;      // by scope key: operators named so far
  //! The id of the next operator added (circuit_ids.cpp).
  std::string next_operator_id();
  bool timing_ = false;
  std::vector<OperatorTime> times_;  // by operator index, sized by step()
};

//! The empty schema: the value schema of plain Z-sets.
const SchemaPtr& empty_schema();

}  // namespace freshet
