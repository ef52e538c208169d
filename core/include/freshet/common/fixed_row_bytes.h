// Rows of one known width, compared and copied inline a word at a time:
// the merges of rows of fixed widths (fixed_width_merge.cpp,
// fueled_merge.cpp) compare and copy a key or a value per entry they write,
// and a memcmp call (natively), the general compare_rows (its length
// checks, in wasm) or a byte loop for the last bytes of a 9- or 25-byte row
// cost more than the compare or the copy itself.
#pragma once

#include <cstdint>
#include <cstring>

#include "freshet/common/copy_row_bytes.h"

namespace freshet {

//! compare_rows(RowRef(a, width), RowRef(b, width)): <0, 0 or >0.
inline int compare_row_bytes(const uint8_t* a, const uint8_t* b, uint32_t width) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (width >= 8) {
    for (uint32_t i = 0;; i += 8) {
      if (i + 8 > width) i = width - 8;  // the last word overlaps the one before: its first bytes are equal
      uint64_t x, y;
      std::memcpy(&x, a + i, 8);
      std::memcpy(&y, b + i, 8);
      if (x != y) {
        // In a little-endian word the first differing byte is the lowest
        // set bit of the words' difference (a count of trailing zeros: one
        // wasm instruction, where swapping the bytes is a dozen).
        const uint32_t at = i + static_cast<uint32_t>(__builtin_ctzll(x ^ y) >> 3);
        return a[at] < b[at] ? -1 : 1;
      }
      if (i + 8 == width) return 0;
    }
  }
#endif
  for (uint32_t i = 0; i < width; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

//! copy_row_bytes() for rows of a known width: the last word overlaps the
//! one before instead of a byte loop for the rest.
inline void copy_fixed_row_bytes(uint8_t* to, const uint8_t* from, size_t count) {
  if (count < 8 || count > 32) {
    copy_row_bytes(to, from, count);
    return;
  }
  uint64_t word;
  for (size_t i = 0; i + 8 < count; i += 8) {
    std::memcpy(&word, from + i, 8);
    std::memcpy(to + i, &word, 8);
  }
  std::memcpy(&word, from + count - 8, 8);
  std::memcpy(to + count - 8, &word, 8);
}

}  // namespace freshet
