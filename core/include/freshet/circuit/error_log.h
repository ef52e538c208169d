// ErrorLog: what a step kept going past instead of failing — an SQL runtime
// error turned into NULL (a view in 'null' mode: runtime_error_mode.h) and a
// late update dropped by LATENESS — as rows of Feldera's ERROR_VIEW
// (table_or_view_name, message, metadata). Operators add records during a
// step; the pipeline takes them after it (pipeline/error_view.h).
//
// Bounded: a step keeps at most `capacity` records (the newest; the error
// view keeps no more than that anyway) and only counts the rest, so a flood
// of late records costs counters, not memory.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace freshet {

//! One row of the error view.
struct ErrorRecord {
  std::string relation;  //!< table_or_view_name
  std::string message;
  std::string metadata;  //!< a JSON object (docs/sql.md, "error_view")
};

class ErrorLog {
 public:
  //! Adds a record of this step (past `capacity`, the oldest of the step goes).
  void add(ErrorRecord record);
  //! Counts a runtime error of `view` turned into NULL (nulled_errors in stats).
  void count_nulled(const std::string& view) { ++nulled_[view]; }
  //! The step's records, oldest first, and how many were dropped over capacity.
  std::vector<ErrorRecord> take(uint64_t* dropped);
  void set_capacity(size_t records) { capacity_ = records; }
  //! The weight of the stream entry whose SQL expressions run now (set by
  //! the operators that run them: map, filter; 1 elsewhere). A runtime error
  //! is logged only for an inserted entry: the retraction of a row that was
  //! turned to NULL meets the same error again, and is not counted twice.
  void set_entry_weight(int64_t weight) { entry_weight_ = weight; }
  bool entry_inserted() const { return entry_weight_ > 0; }

  //! Runtime errors turned into NULL so far, by view (checkpointed by the pipeline).
  const std::map<std::string, uint64_t>& nulled() const { return nulled_; }
  std::map<std::string, uint64_t>& nulled() { return nulled_; }

 private:
  std::deque<ErrorRecord> records_;
  uint64_t dropped_ = 0;
  size_t capacity_ = 1000;
  std::map<std::string, uint64_t> nulled_;
  int64_t entry_weight_ = 1;
};

}  // namespace freshet
