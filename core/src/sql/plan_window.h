// The planner's part for TUMBLE and HOP (LogicalPlan::Kind::kWindow).
#pragma once

#include <cstdint>
#include <optional>

#include "freshet/circuit/circuit.h"
#include "logical_plan.h"

namespace freshet::sql {

//! The windows holding time `time`: the first one's start and how many
//! there are (consecutive, `slide` apart), or none when a bound does not fit
//! a TIMESTAMP. Windows start at offset + k * slide and last `size`; the
//! count is 0 when slide > size leaves `time` in a gap between windows.
struct WindowRange {
  int64_t first_start = 0;
  int64_t count = 0;
};
std::optional<WindowRange> windows_holding(int64_t time, const LogicalPlan::Window& window);

//! The rows of `input` each once per window that holds its time column,
//! with window_start and window_end after its columns (a flat map: no
//! state, O(|Δ| × size / slide) per step). NULL times have no window.
Stream window_rows(Circuit& circuit, Stream input, const LogicalPlan::Window& window, SchemaPtr schema);

}  // namespace freshet::sql
