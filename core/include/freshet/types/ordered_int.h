// How a row stores an integer (row.h): big-endian, with the sign bit
// flipped, so that comparing the bytes as unsigned (memcmp, compare_rows)
// orders the values as numbers: -1 (0x7f…ff) < 0 (0x80…00) < 1 < 256.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace freshet {

template <typename T>
inline void store_ordered_int(uint8_t* at, T value) {
  static_assert(std::is_integral_v<T> && std::is_signed_v<T>);
  using Bits = std::make_unsigned_t<T>;
  const Bits bits = static_cast<Bits>(static_cast<Bits>(value) ^ (Bits{1} << (8 * sizeof(T) - 1)));
  for (size_t i = 0; i < sizeof(T); ++i) at[i] = static_cast<uint8_t>(bits >> (8 * (sizeof(T) - 1 - i)));
}

template <typename T>
inline T load_ordered_int(const uint8_t* at) {
  static_assert(std::is_integral_v<T> && std::is_signed_v<T>);
  using Bits = std::make_unsigned_t<T>;
  Bits bits = 0;
  for (size_t i = 0; i < sizeof(T); ++i) bits = static_cast<Bits>((bits << 8) | at[i]);
  return static_cast<T>(static_cast<Bits>(bits ^ (Bits{1} << (8 * sizeof(T) - 1))));
}

}  // namespace freshet
