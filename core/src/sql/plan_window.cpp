#include "plan_window.h"

#include <limits>

#include "freshet/operators/flat_map.h"

namespace freshet::sql {
namespace {

using Wide = __int128;

Wide floor_div(Wide a, Wide b) {  // b > 0
  Wide q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

bool fits(Wide value) {
  return value >= std::numeric_limits<int64_t>::min() && value <= std::numeric_limits<int64_t>::max();
}

}  // namespace

std::optional<WindowRange> windows_holding(int64_t time, const LogicalPlan::Window& window) {
  // The last window holding `time` starts at the last offset + k * slide at
  // or before it; earlier ones hold it while start + size > time.
  const Wide slide = window.slide, size = window.size;
  const Wide last = window.offset + floor_div(Wide(time) - window.offset, slide) * slide;
  const Wide behind = Wide(time) - last;  // in [0, slide)
  const Wide count = size > behind ? (size - behind + slide - 1) / slide : 0;
  const Wide first = last - (count > 0 ? count - 1 : 0) * slide;
  if (count > 0 && (!fits(first) || !fits(last + size))) return std::nullopt;
  return WindowRange{static_cast<int64_t>(first), static_cast<int64_t>(count)};
}

Stream window_rows(Circuit& circuit, Stream input, const LogicalPlan::Window& window, SchemaPtr schema) {
  const size_t width = input.key_schema().size();
  return flat_map(input, std::move(schema), empty_schema(),
                  [&circuit, window, width](const RowReader& row, const RowReader&, size_t index, RowBuilder& out,
                                            RowBuilder&) {
                    if (row.is_null(window.time_column)) return false;
                    const int64_t time = row.get_int(window.time_column);
                    std::optional<WindowRange> range = windows_holding(time, window);
                    if (!range) {
                      if (index == 0) {
                        circuit.report_error(Status(ErrorCode::kOverflow,
                                                    "a window of timestamp " + std::to_string(time) +
                                                        " microseconds ends out of the TIMESTAMP range"));
                      }
                      return false;
                    }
                    if (static_cast<int64_t>(index) >= range->count) return false;
                    for (size_t c = 0; c < width; ++c) out.copy_field(c, row, c);
                    const int64_t start = range->first_start + static_cast<int64_t>(index) * window.slide;
                    out.set_int(width, start);
                    out.set_int(width + 1, start + window.size);
                    return true;
                  });
}

}  // namespace freshet::sql
