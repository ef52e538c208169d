#include "plan_time_window.h"

#include "freshet/operators/flat_map.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::sql {
namespace {

// "INTERVAL '90' MINUTE": a length in microseconds in the largest unit that divides it.
std::string interval_text(int64_t micros) {
  static constexpr struct {
    int64_t micros;
    const char* unit;
  } kUnits[] = {{86400000000, "DAY"}, {3600000000, "HOUR"}, {60000000, "MINUTE"}, {1000000, "SECOND"}};
  for (const auto& unit : kUnits) {
    if (micros % unit.micros == 0) return "INTERVAL '" + std::to_string(micros / unit.micros) + "' " + unit.unit;
  }
  return "INTERVAL '" + format_interval(micros, SqlType::interval_day_time()) + "'";
}

// "windows of INTERVAL '1' HOUR every INTERVAL '30' MINUTE over (ts)", for explain.
std::string describe_windows(const Schema& input, const LogicalPlan::TimeWindow& window) {
  std::string text = "windows of " + interval_text(window.windows.size);
  if (window.windows.slide != window.windows.size) text += " every " + interval_text(window.windows.slide);
  if (window.windows.offset != 0) text += " offset " + interval_text(window.windows.offset);
  return text + " over (" + input.column(window.time_column).name + ")";
}

}  // namespace

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
      },
      describe_windows(input.key_schema(), window));
}

}  // namespace freshet::sql
