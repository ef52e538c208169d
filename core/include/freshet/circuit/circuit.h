// Circuit: the operator graph of a pipeline and its step.
//
// Operators are added in topological order (an operator's inputs exist
// before it), which is then the evaluation order. The only back edges are
// those of delays (z^-1), whose output for step t is their input of step t-1
// and so never depends on the current step.
//
//   step():  for op in operators: op.evaluate()    // outputs of step t
//            for op in operators: op.end_step()    // delays remember inputs
#pragma once

#include <cstdint>
#include <memory>
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

class Circuit {
 public:
  Circuit() = default;
  Circuit(const Circuit&) = delete;
  Circuit& operator=(const Circuit&) = delete;

  //! A new stream with the given key and value schemas (an operator's output).
  Stream add_stream(SchemaPtr key_schema, SchemaPtr value_schema);
  StreamSlot& slot(Stream stream) { return *slots_[stream.id()]; }
  const StreamSlot& slot(Stream stream) const { return *slots_[stream.id()]; }

  //! Takes ownership of an operator; it is evaluated after those added before.
  template <typename T>
  T* add_operator(std::unique_ptr<T> op) {
    T* raw = op.get();
    operators_.push_back(std::move(op));
    return raw;
  }

  //! Runs one step: every operator once, in order. Fails with the first
  //! error an operator returned or reported, prefixed with its name.
  Status step();
  //! Records an error found inside an operator's user function (an SQL
  //! expression dividing by zero, say); the step fails with the first one.
  void report_error(Status error) {
    if (reported_error_.ok()) reported_error_ = std::move(error);
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

  //! Writes the step count and every operator's state (a checkpoint section).
  void save_state(ByteWriter& out) const;
  //! Reads what save_state wrote into a circuit freshly compiled from the
  //! same program; kCheckpointCorrupt when it does not fit.
  Status restore_state(std::string_view bytes);

 private:
  std::vector<std::unique_ptr<StreamSlot>> slots_;
  std::vector<std::unique_ptr<Operator>> operators_;
  uint64_t step_count_ = 0;
  Status reported_error_;
  ErrorLog error_log_;
};

//! The empty schema: the value schema of plain Z-sets.
const SchemaPtr& empty_schema();

}  // namespace freshet
