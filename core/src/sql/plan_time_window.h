// The planner's part for TUMBLE and HOP (LogicalPlan::Kind::kTimeWindow).
#pragma once

#include "freshet/circuit/circuit.h"
#include "logical_plan.h"

namespace freshet::sql {

//! The rows of `input` each once per window that holds its time column,
//! with window_start and window_end after its columns (a flat map: no
//! state, O(|Δ| × size / slide) per step). NULL times have no window.
Stream time_window_rows(Circuit& circuit, Stream input, const LogicalPlan::TimeWindow& window, SchemaPtr schema);

}  // namespace freshet::sql
