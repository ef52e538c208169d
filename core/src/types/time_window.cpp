#include "freshet/types/time_window.h"

#include <limits>

namespace freshet {
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

std::optional<WindowRange> windows_holding(int64_t time, const TimeWindows& windows) {
  // The last window holding `time` starts at the last offset + k * slide at
  // or before it; earlier ones hold it while start + size > time.
  const Wide slide = windows.slide, size = windows.size;
  const Wide last = windows.offset + floor_div(Wide(time) - windows.offset, slide) * slide;
  const Wide behind = Wide(time) - last;  // in [0, slide)
  const Wide count = size > behind ? (size - behind + slide - 1) / slide : 0;
  const Wide first = last - (count > 0 ? count - 1 : 0) * slide;
  if (count > 0 && (!fits(first) || !fits(last + size))) return std::nullopt;
  return WindowRange{static_cast<int64_t>(first), static_cast<int64_t>(count)};
}

}  // namespace freshet
