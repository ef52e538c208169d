// MaterializedView: the traces that hold a view's current contents, for
// snapshots, lookups and the snapshots of output endpoints.
//
// ## Design
// A view with indexes keeps one trace keyed by its first index: key = the
// index's columns, value = the row's other columns, so that one trace serves
// the view and the index with no second copy of any column (rows are put
// back together for snapshots and lookups). Further indexes have their own
// traces. A view without an index keeps a trace of its rows. A view is
// materialized when declared MATERIALIZED or when it has an index (whose
// trace holds the data anyway): CompiledProgram::is_materialized.
//
// A view without an index whose stream comes straight from an operator that
// holds its output (an aggregate's groups, a DISTINCT's integral in its
// input's arrangement, a table with a PRIMARY KEY's rows by key:
// held_output.h) keeps nothing: it reads that operator's rows, which
// exist once. The operator's checkpoint holds them.
//
// A view whose stream comes straight from an operator that holds its rows
// found by their first columns (an aggregate, by its GROUP BY columns), and
// whose first index is on exactly those columns, keeps no trace for them
// either: the producer answers snapshots and that index's lookups (one
// copy serves the view and its first index; further indexes keep theirs).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "freshet/operators/held_output.h"
#include "freshet/sql/compiler.h"
#include "freshet/zset/trace.h"

namespace freshet {

class MaterializedView {
 public:
  //! `view` of `program`, with the view's indexes.
  MaterializedView(const sql::CompiledProgram& program, const sql::CompiledView& view);

  const sql::CompiledView& view() const { return *view_; }
  bool materialized() const { return materialized_; }
  const std::vector<const sql::CompiledIndex*>& indexes() const { return indexes_; }
  //! Position of an index of this view among its indexes, if it is one.
  std::optional<size_t> index_ordinal(std::string_view index_name) const;

  //! Adds the step's deltas to the traces (after every step).
  void update();
  //! Empties the traces (before a bootstrap fills them again: program_change.cpp).
  void clear();

  //! Set when the view's stream (or an index's) comes from a failed operator
  //! (Pipeline::mark_failed_views): from then on the view keeps its contents
  //! of the step before and answers this error. OK when it is not failed.
  const Status& failure() const { return failure_; }
  uint64_t failed_step() const { return failed_step_; }
  void fail(Status error, uint64_t step) {
    failure_ = std::move(error);
    failed_step_ = step;
  }

  //! The view's rows: a consolidated Z-set (rows as keys).
  BatchPtr snapshot() const;
  //! The contents of one index: key = the index's columns, value = the row.
  BatchPtr index_snapshot(size_t ordinal) const;
  //! The rows of an index for one key (a row of the index's key columns).
  std::vector<std::string> lookup(size_t ordinal, RowRef key) const;
  //! Bytes held by the view's traces.
  size_t memory_bytes() const;

  //! The traces, for a checkpoint.
  void save_state(ByteWriter& out) const;
  //! Reads what save_state wrote; errors go to the reader.
  void restore_state(ByteReader& in);

 private:
  //! The row from a primary-trace entry: key columns and the rest, merged.
  RowRef whole_row(RowRef key, RowRef rest) const;
  //! The rest of a row: the columns not in the first index's key.
  RowRef rest_of(RowRef row) const;


  const sql::CompiledView* view_;
  std::vector<const sql::CompiledIndex*> indexes_;
  bool materialized_;
  const Operator* held_ = nullptr;  // the producer holding the rows, when it does
  // The producer also answers the first index (an aggregate indexed by its
  // GROUP BY columns): primary_ stays empty.
  bool held_index_ = false;
  std::unique_ptr<RowBuilder> key_builder_;  // a row of the first index's key columns
  Trace primary_;                    // by the first index when there is one, else by row
  std::vector<Trace> other_indexes_;  // indexes 2, 3, ...
  // With an index: where the key columns and the other columns sit in a row.
  std::vector<size_t> key_columns_, rest_columns_;
  SchemaPtr key_schema_, rest_schema_;
  std::unique_ptr<RowBuilder> row_builder_, rest_builder_;  // scratch for whole_row / rest_of
  Status failure_;
  uint64_t failed_step_ = 0;
};

}  // namespace freshet
