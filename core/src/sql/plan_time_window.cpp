#include "plan_time_window.h"

#include "freshet/operators/flat_map.h"
#include "freshet/types/temporal.h"

namespace freshet::sql {

Stream time_window_rows(Circuit& circuit, Stream input, const LogicalPlan::TimeWindow& window, SchemaPtr schema) {
  const size_t width = input.key_schema().size();
  return flat_map(
      input, std::move(schema), empty_schema(),
      [&circuit, window, width](const RowReader& row, const RowReader&, size_t index, RowBuilder& out, RowBuilder&) {
        if (row.is_null(window.time_column)) return false;
        const int64_t time = row.get_int(window.time_column);
        std::optional<WindowRange> range = windows_holding(time, window.windows);
        if (!range) {
          if (index == 0) {
            circuit.report_error(Status(ErrorCode::kOverflow, "the window of TIMESTAMP '" + format_timestamp(time) +
                                                                  "' ends out of the TIMESTAMP range"));
          }
          return false;
        }
        if (static_cast<int64_t>(index) >= range->count) return false;
        for (size_t c = 0; c < width; ++c) out.copy_field(c, row, c);
        const int64_t start = range->first_start + static_cast<int64_t>(index) * window.windows.slide;
        out.set_int(width, start);
        out.set_int(width + 1, start + window.windows.size);
        return true;
      });
}

}  // namespace freshet::sql
