// Temporal filter: keeps the rows whose time lies in a window that moves
// with the clock (`WHERE ts > NOW() - INTERVAL '1' HOUR AND ts <= NOW()`),
// in O(changes × log n) per step: rows leave (and enter) the output as the
// clock passes them, with no input and no re-scan.
//
// ## Design
// Each row has a key, an integer (a TIMESTAMP's microseconds, a DATE's
// days): the row expression compared with NOW(). The window is a closed
// range [low(now), high(now)] of keys (an open bound is one closer); a row
// passes while its key lies in it, a NULL key never does. The operator keeps
// the integral of its input in a trace keyed by the row's key, so the rows
// the window's move crosses are two key ranges of that trace:
//
//   out(t) = Δin(t)|W(t) + I(t-1)|(W(t) \ W(t-1)) - I(t-1)|(W(t-1) \ W(t))
//
// where I is the input's integral and X|W its rows with keys in W. A window
// that does not move reads nothing; one that jumps reads exactly the rows
// between the old and the new bounds (plus O(log n) seeks per batch of the
// trace). The window may move either way; when both bounds are
// non-decreasing in the clock (NOW() ± constants, a CAST to DATE) the
// operator also tells the clock its next change: the time at which the
// lowest row in the window leaves or the lowest row above it enters.
//
//   window = [now - 10, now]    rows a@5, b@12 inserted at step 0
//   step  | 0 (now 12) | 1 (now 16) | 2 (now 30)
//   out   | +a +b      | -a         | -b
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/clock.h"

namespace freshet {

//! A closed range of keys; empty when low > high.
struct TemporalWindow {
  int64_t low = INT64_MIN, high = INT64_MAX;
  bool empty() const { return low > high; }
};

struct TemporalBounds {
  //! The row's key; nullopt for NULL (the row never passes). Errors go to the circuit.
  std::function<std::optional<int64_t>(const RowReader& row)> key;
  //! The window at a clock time (microseconds); an error (an overflow) fails the step.
  std::function<Result<TemporalWindow>(int64_t now)> window;
  //! Both ends of window() are non-decreasing in the clock, so the next
  //! change can be found (a binary search over time).
  bool monotone = true;
};

//! What tests observe of an operator: entries of the trace it read (to
//! check O(changes)), and a fault to inject (to check the oracle catches it).
struct TemporalFilterCounters {
  uint64_t entries_visited = 0;
  //! Times the rows below a rising low end were dropped from the state.
  uint64_t passed_rows_dropped = 0;
  //! Tests only: ignore the rows the window's move makes leave.
  bool fault_keep_leaving_rows = false;
};

//! The rows of the Z-set `input` whose key lies in the window at the clock's time.
Stream temporal_filter(Stream input, ClockOperator& clock, TemporalBounds bounds,
                       TemporalFilterCounters* counters = nullptr);

}  // namespace freshet
