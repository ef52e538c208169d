// Operator: one node of a circuit. Each step the circuit calls evaluate() on
// every operator in topological order, then end_step() on every operator.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "freshet/common/byte_io.h"
#include "freshet/common/status.h"
#include "freshet/types/schema.h"
#include "freshet/zset/batch.h"

namespace freshet {

//! StreamSlot holds a stream's schemas and the batch it carries this step.
struct StreamSlot {
  SchemaPtr key_schema;
  SchemaPtr value_schema;
  BatchPtr batch = Batch::empty_batch();
};

class Operator {
 public:
  virtual ~Operator() = default;
  //! A short name for diagnostics ("join", "aggregate").
  virtual const char* name() const = 0;
  //! Computes this step's output batch from this step's input batches.
  virtual Status evaluate() = 0;
  //! Runs after every operator of the step evaluated (delays capture here).
  virtual void end_step() {}
  //! Bytes of state this operator holds (traces, maps).
  virtual size_t state_bytes() const { return 0; }
  //! Rows (entries) of state this operator holds: a trace's entries, a
  //! map's groups (an upper bound where a trace has not merged yet).
  virtual size_t state_rows() const { return 0; }
  //! Its parameters in a few words for the circuit printer ("key (id)",
  //! "limit 10"); empty when it has none worth saying.
  virtual std::string describe() const { return ""; }
  //! Writes what this operator carries from one step to the next (traces,
  //! maps, buffered input), at a step boundary, for a checkpoint.
  virtual void save_state(ByteWriter& out) const {}
  //! Reads what save_state wrote into an operator freshly built by the same
  //! program. Errors go to the reader (see ByteReader).
  virtual void restore_state(ByteReader& in) {}
  //! The integral of its output stream (everything it ever output, as one
  //! consolidated batch) when its state holds it, else null: bootstrapping
  //! a new operator downstream reads it (circuit_bootstrap.cpp).
  virtual BatchPtr output_integral() const { return nullptr; }
  //! Whether output_integral() stays exact for good (an aggregate that
  //! forgets closed groups does not): a materialized view of its stream
  //! then reads it instead of keeping a copy (materialized_view.h).
  virtual bool holds_output() const { return false; }
  //! Whether output_integral() reads the state of the operator writing its
  //! input (a DISTINCT reads its input's arrangement): when that operator
  //! is rebuilt from scratch, so is this one (circuit_bootstrap.cpp).
  virtual bool integral_reads_input() const { return false; }
  //! When the rows it holds (holds_output) are found by their first columns
  //! (an aggregate's groups, by the GROUP BY columns): how many, else 0. A
  //! materialized view with an index on exactly those reads its lookups
  //! here instead of keeping the rows by key (materialized_view.h).
  virtual size_t held_key_columns() const { return 0; }
  //! The held row whose first held_key_columns() columns are the row `key`
  //! (a row of those columns), if any; its bytes last until the next step.
  virtual std::optional<RowRef> held_row(RowRef key) const { return std::nullopt; }
};

}  // namespace freshet
