// copy_row_bytes: a few bytes of rows copied word by word, for the merges
// of rows of fixed widths (fixed_width_merge.cpp, fueled_merge.cpp) and
// ByteBuffer::append in wasm; copy_slot_bytes: one fixed slot of a row
// (RowBuilder::copy_field, SlotProjection).
#pragma once

#include <cstdint>
#include <cstring>

namespace freshet {

// A row's few bytes word by word: a memcpy of unknown size is a call (in
// wasm, memory.copy, which V8 runs out of line), dear for 8-30 bytes.
inline void copy_row_bytes(uint8_t* to, const uint8_t* from, size_t count) {
  if (count > 32) {
    std::memcpy(to, from, count);
    return;
  }
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t word;
    std::memcpy(&word, from + i, 8);
    std::memcpy(to + i, &word, 8);
  }
  for (; i < count; ++i) to[i] = from[i];
}

//! A row's fixed slot of `width` bytes (1, 2, 4, 8 or 16 for every type
//! but VARCHAR's length): copies of a constant size, loads and stores in
//! wasm, where a memcpy of unknown size is a call out of the compiled code
//! (memory.copy).
inline void copy_slot_bytes(uint8_t* to, const uint8_t* from, uint32_t width) {
  switch (width) {
    case 1:
      std::memcpy(to, from, 1);
      break;
    case 2:
      std::memcpy(to, from, 2);
      break;
    case 4:
      std::memcpy(to, from, 4);
      break;
    case 8:
      std::memcpy(to, from, 8);
      break;
    case 16:
      std::memcpy(to, from, 16);
      break;
    default:
      std::memcpy(to, from, width);
      break;
  }
}

}  // namespace freshet
