// Fixed time windows (TUMBLE and HOP): windows of `size` that start at
// offset + k * slide for every integer k, on an integer time line
// (TIMESTAMP microseconds). TUMBLE is slide == size.
#pragma once

#include <cstdint>
#include <optional>

namespace freshet {

struct TimeWindows {
  int64_t size = 0;   //!< > 0
  int64_t slide = 0;  //!< > 0
  int64_t offset = 0;
};

//! The windows holding a time: consecutive, `slide` apart from the first.
struct WindowRange {
  int64_t first_start = 0;
  //! ceil(size / slide) or one less; 0 when slide > size leaves the time in
  //! a gap between windows.
  int64_t count = 0;
};

//! The windows [start, start + size) that hold `time`, or none when a
//! bound does not fit in 64 bits. Aligned with floor division, so times
//! before the epoch are aligned too.
std::optional<WindowRange> windows_holding(int64_t time, const TimeWindows& windows);

}  // namespace freshet
