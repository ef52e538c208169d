// Which columns of a plan follow a table's watermark (LATENESS), so that an
// aggregate grouped by one may forget its closed groups (group_eviction.h).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "freshet/operators/aggregate.h"
#include "freshet/operators/lateness_filter.h"
#include "logical_plan.h"

namespace freshet::sql {

//! The watermark of a table by name; null without LATENESS (or for a view).
using WatermarkLookup = std::function<const Watermark*(const std::string& name)>;

//! A column's tie to a watermark: rows of later steps have values v with
//! v + span > the watermark of their step (see GroupEvictionSpec).
//! Followed through filters, plain column projections and TUMBLE/HOP
//! (window_start: span = size, window_end: span 0) down to a scan of the
//! table's LATENESS column itself (span 1); anything else has none.
std::optional<GroupEvictionSpec> column_time(const LogicalPlan& plan, size_t column, const WatermarkLookup& lookup);

}  // namespace freshet::sql
