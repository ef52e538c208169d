// ErrorView: Feldera's ERROR_VIEW, `error_view(table_or_view_name VARCHAR
// NOT NULL, message VARCHAR NOT NULL, metadata VARCHAR NOT NULL)`, listing
// the late updates LATENESS dropped and the runtime errors views in 'null'
// mode turned into NULL (circuit/error_log.h). It reads like a materialized
// view (snapshots, egress, connectors, ad-hoc queries).
//
// ## Design
// It is no operator of the circuit: its stream is a slot no operator feeds
// (CompiledProgram::system_views) and after each step the pipeline hands it
// the step's records as that slot's batch, then updates its trace as any
// view's. So the circuit, and the checkpoints of programs written before it
// existed, are unchanged; its rows travel in an optional checkpoint section
// ("error_view": a checkpoint without one restores it empty).
//
// Bounded: it keeps the newest `retention` rows (default 1000); an older
// row leaves with a delete, and is counted in `evicted`. Feldera keeps every
// row its error view receives (an unbounded stream); Freshet runs in 128 MiB
// isolates, where a flood of late records must cost counters, not memory.
//
//   retention 2 | step 0 | step 1   | step 2
//   records     | a      | b, c     | -
//   delta       | +a     | +b +c -a | (empty)
//   rows        | a      | b, c     | b, c
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "freshet/pipeline/materialized_view.h"

namespace freshet {

class ErrorView {
 public:
  static constexpr size_t kDefaultRetention = 1000;

  //! `view` is `program`'s system view error_view.
  ErrorView(const sql::CompiledProgram& program, const sql::CompiledView& view);

  const MaterializedView& view() const { return view_; }
  //! After a step that ran: the step's records become the view's delta.
  void on_step();
  //! Rows kept at most (0 keeps none); fewer rows go at the next step.
  void set_retention(size_t rows);
  size_t retention() const { return retention_; }
  size_t rows() const { return rows_.size(); }
  //! Rows that left for the retention (or never entered over it).
  uint64_t evicted() const { return evicted_; }
  size_t memory_bytes() const;

  //! The stats' per-view nulled_errors and the view's own figures:
  //! `,"error_view":{...}` appended to a stats object (the views'
  //! nulled_errors are in Pipeline::append_view_stats, beside their failure).
  void append_stats(std::string* json) const;

  //! Its rows, its counters and the views' nulled_errors (checkpoint section "error_view").
  void save_state(ByteWriter& out) const;
  void restore_state(ByteReader& in);

 private:
  //! Adds `added` to the rows, evicts past the retention, and makes that
  //! the stream's batch and the trace's update.
  void publish(const std::deque<ErrorRecord>& added);

  const sql::CompiledProgram* program_;
  const sql::CompiledView* view_definition_;
  MaterializedView view_;
  std::deque<ErrorRecord> rows_;  // oldest first
  size_t retention_ = kDefaultRetention;
  uint64_t evicted_ = 0;
};

}  // namespace freshet
