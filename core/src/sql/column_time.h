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

//! The tie of a column of a table or view (by name) to a watermark: a
//! table's LATENESS column, or a view's column tied to one; none otherwise.
using WatermarkLookup = std::function<std::optional<GroupEvictionSpec>(const std::string& name, size_t column)>;

//! A column's tie to a watermark: rows of later steps have values v with
//! v + span > the watermark of their step (see GroupEvictionSpec).
//! Followed through filters, plain column projections and TUMBLE/HOP
//! (window_start: span = size, window_end: span 0) down to a scan of the
//! table's LATENESS column itself (span 1), or to a view's column that is
//! tied (`lookup`); anything else has none.
std::optional<GroupEvictionSpec> column_time(const LogicalPlan& plan, size_t column, const WatermarkLookup& lookup);

}  // namespace freshet::sql
