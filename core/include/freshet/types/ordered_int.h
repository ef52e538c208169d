// How a row stores an integer (row.h): big-endian, with the sign bit
// flipped, so that comparing the bytes as unsigned (memcmp, compare_rows)
// orders the values as numbers: -1 (0x7f…ff) < 0 (0x80…00) < 1 < 256.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace freshet {

namespace ordered_int_detail {

// The bytes of `bits` reversed: one instruction natively, a few shifts in
// wasm, where a loop over the bytes was 8 shifts and 8 one-byte stores
// (~60 instructions an int64 natively).
template <typename Bits>
inline Bits swap_bytes(Bits bits) {
  if constexpr (sizeof(Bits) == 1) {
    return bits;
  } else if constexpr (sizeof(Bits) == 2) {
    return __builtin_bswap16(bits);
  } else if constexpr (sizeof(Bits) == 4) {
    return __builtin_bswap32(bits);
  } else {
    static_assert(sizeof(Bits) == 8);
    return __builtin_bswap64(bits);
  }
}

}  // namespace ordered_int_detail

template <typename T>
inline void store_ordered_int(uint8_t* at, T value) {
  static_assert(std::is_integral_v<T> && std::is_signed_v<T>);
  using Bits = std::make_unsigned_t<T>;
  const Bits bits = static_cast<Bits>(static_cast<Bits>(value) ^ (Bits{1} << (8 * sizeof(T) - 1)));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const Bits big_endian = ordered_int_detail::swap_bytes(bits);
  std::memcpy(at, &big_endian, sizeof big_endian);
#else
  for (size_t i = 0; i < sizeof(T); ++i) at[i] = static_cast<uint8_t>(bits >> (8 * (sizeof(T) - 1 - i)));
#endif
}

template <typename T>
inline T load_ordered_int(const uint8_t* at) {
  static_assert(std::is_integral_v<T> && std::is_signed_v<T>);
  using Bits = std::make_unsigned_t<T>;
  Bits bits = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(&bits, at, sizeof bits);
  bits = ordered_int_detail::swap_bytes(bits);
#else
  for (size_t i = 0; i < sizeof(T); ++i) bits = static_cast<Bits>((bits << 8) | at[i]);
#endif
  return static_cast<T>(static_cast<Bits>(bits ^ (Bits{1} << (8 * sizeof(T) - 1))));
}

}  // namespace freshet
