// Lateness (Feldera's `ts TIMESTAMP LATENESS INTERVAL '1' HOUR`): a table's
// updates may arrive at most `lateness` behind the largest time seen in its
// column. The watermark is that largest time minus the lateness, as of the
// start of a step (it only grows); an update whose time is below it is late,
// and is dropped and counted.
//
//   lateness 10 | step 0   | step 1        | step 2
//   pushed      | t=100    | t=95, t=80    | t=89, t=120
//   watermark   | none     | 90            | 90
//   output      | +100     | +95 (80 late) | +120 (89 late)
//
// A NULL time is never late and does not move the watermark.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "freshet/circuit/circuit.h"

namespace freshet {

//! The watermark of one column and the count of late updates; the state of
//! the lateness filter, and of a PRIMARY KEY table's input (upsert_input.h).
class Watermark {
 public:
  //! `column` holds an integer-encoded time (TIMESTAMP, DATE, integers);
  //! `lateness` is in its unit (microseconds, days, ...), >= 0.
  Watermark(size_t column, int64_t lateness) : column_(column), lateness_(lateness) {}

  //! Fixes the cutoff of the step that starts, from the times seen before it.
  void start_step();
  //! Whether `row`'s time is below the cutoff of the current step.
  bool late(const RowReader& row) const;
  //! Notes the time of an update that was let through.
  void observe(const RowReader& row);
  void count_late(uint64_t records) { late_records_ += records; }
  //! Counts a late update of `records` copies (its weight) and lists it in
  //! the error view when an error log is set.
  void drop_late(const RowReader& row, int64_t weight);
  //! Lists late updates of table `table` in `circuit`'s error log (error_log.h).
  void set_error_log(Circuit* circuit, std::string table) {
    circuit_ = circuit;
    table_ = std::move(table);
  }

  size_t column() const { return column_; }
  //! The bound, in the column's unit.
  int64_t lateness() const { return lateness_; }
  //! The lowest time not late in the next step; none before any time is seen.
  std::optional<int64_t> watermark() const;
  //! Updates dropped so far (a weight-2 update counts 2).
  uint64_t late_records() const { return late_records_; }

  void save(ByteWriter& out) const;
  void restore(ByteReader& in);

 private:
  size_t column_;
  int64_t lateness_;
  std::optional<int64_t> max_seen_;
  std::optional<int64_t> cutoff_;
  uint64_t late_records_ = 0;
  Circuit* circuit_ = nullptr;  // with set_error_log
  std::string table_;
};

//! The updates of `input` (a Z-set) that are not late; the watermark's
//! state is the operator's, and `*watermark` points at it for statistics.
//! Its late updates go to the circuit's error log as table `table`'s.
Stream lateness_filter(Stream input, size_t column, int64_t lateness, const Watermark** watermark,
                       std::string table = {});

}  // namespace freshet
