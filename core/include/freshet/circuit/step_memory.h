// StepMemory: a pipeline's memory budget, applied to one step.
//
// ## Design
// budget = state bytes + the bytes the step builds. At a step's start the
// state (operators' traces and maps, materialized views) holds `held` bytes,
// so the step may build budget - held. A WorkMeter with that byte limit is
// active on the thread while the operators evaluate: every entry a
// BatchBuilder keeps is charged its rows' bytes plus kEntryOverhead (the
// builder's entry, its sort scratch and the finished batch's offsets and
// weight), and every pair a join matches is counted, so past the limit the
// builders keep nothing more and joins stop walking: memory and time stay
// bounded. After each operator the circuit asks check(); the first one past
// the limit fails with OUT_OF_MEMORY, which the circuit prefixes with the
// operator's name.
//
// Not charged: a trace's merges (they replace the batches they read: no
// growth), and operators whose output is at most their input (filter,
// distinct), whose input was charged or is state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "freshet/circuit/work_meter.h"
#include "freshet/common/status.h"

namespace freshet {

class StepMemory {
 public:
  //! Heap bytes an entry of a step's batch costs besides its rows' bytes
  //! (measured against mallinfo2: bench/core notes in step_memory.cpp).
  static constexpr uint64_t kEntryOverhead = 64;

  //! `budget` 0: no bound, and no meter is made active.
  StepMemory(size_t budget, size_t held_bytes);
  StepMemory(const StepMemory&) = delete;
  StepMemory& operator=(const StepMemory&) = delete;

  //! OUT_OF_MEMORY ("the step would hold 70.1 MiB, over the pipeline's
  //! memory budget of 64 MiB") once the step built past the budget.
  Status check() const;

 private:
  size_t budget_, held_;
  WorkMeter meter_;
  std::optional<ScopedWorkMeter> active_;
};

//! "70.1 MiB", "64 MiB", "812 KiB", "96 bytes": for messages.
std::string format_bytes(uint64_t bytes);

}  // namespace freshet
