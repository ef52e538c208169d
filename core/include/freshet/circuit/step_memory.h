// StepMemory: a pipeline's memory budget, applied to one step.
//
// ## Design
// budget = state bytes + the bytes the step builds. At a step's start the
// state (operators' traces and maps, materialized views) holds `held` bytes,
// so the step may build budget - held. A WorkMeter with that byte limit is
// active on the thread while the operators evaluate: every entry a
// BatchBuilder keeps is charged what it costs the heap (kRowCopies,
// kEntryOverhead), and every pair a join matches is counted, so past the limit the
// builders keep nothing more and joins stop walking: memory and time stay
// bounded. After each operator the circuit asks check(); the first one past
// the limit fails with OUT_OF_MEMORY, which the circuit prefixes with the
// operator's name.
//
// A trace's merges in progress are state (their inputs and output so far
// count in `held`), and what their slices add during the step is charged
// (Trace::insert). Not charged: operators whose output is at most their
// input (filter, distinct), whose input was charged or is state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "freshet/circuit/work_meter.h"
#include "freshet/common/status.h"

namespace freshet {

class StepMemory {
 public:
  //! What an entry a builder keeps costs the heap at the step's peak: its
  //! rows twice (the builder's arena, the finished batch) and 112 bytes (the
  //! builder's entry and sort scratch, 40 each, the batch's offsets and
  //! weight, 16, and the growth slack of their vectors). Measured with a
  //! counting operator new on cross joins (see the report of issue 22):
  //! the real peak is 0.9-1.2 times what is charged.
  static constexpr uint64_t kRowCopies = 2;
  static constexpr uint64_t kEntryOverhead = 112;

  //! `budget` 0: no bound, and no meter is made active.
  StepMemory(size_t budget, size_t held_bytes);
  StepMemory(const StepMemory&) = delete;
  StepMemory& operator=(const StepMemory&) = delete;

  //! OUT_OF_MEMORY ("the step would pass the pipeline's memory budget of
  //! 64 MiB (the state holds 12.5 MiB; the step had built 51.5 MiB when it
  //! was stopped)") once the step built past the budget.
  Status check() const;

  //! Where the step's count stood (before an operator evaluates).
  struct Mark {
    uint64_t rows = 0, bytes = 0;
  };
  Mark mark() const { return {meter_.rows(), meter_.bytes()}; }
  //! Drops what was charged since `mark`: a failed operator's output is
  //! thrown away, and the operators after it (other views) go on under the
  //! budget as if it had built nothing.
  void rewind(Mark mark) { meter_.rewind(mark.rows, mark.bytes); }

 private:
  size_t budget_, held_;
  WorkMeter meter_;
  std::optional<ScopedWorkMeter> active_;
};

//! "70.1 MiB", "64 MiB", "812 KiB", "96 bytes": for messages.
std::string format_bytes(uint64_t bytes);

}  // namespace freshet
