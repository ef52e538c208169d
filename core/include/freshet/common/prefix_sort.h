// sort_by_prefix: sorts items that carry a 64-bit prefix of their sort key
// (its first bytes, big-endian) by a radix sort on that prefix, then a
// comparison sort of what the radix passes left tied.
//
// Why: the steps of a bulk load sort ~10k entries each (a batch builder's
// entries, an upsert input's operations), and their prefixes — taken from
// the first byte where the keys differ — mostly differ in only two or three
// bytes: the low bytes of an integer key, a short string's first letters.
// Three counting passes over those bytes order almost everything, where
// std::sort spends ~13 comparisons an entry; in wasm, code running before
// TurboFan has compiled it (a process's first load) pays for every
// comparison twice over.
//
// How: the radix passes (least significant digit first, stable) cover the
// most significant bytes where prefixes differ, at most kRadixDigits of them;
// each run of items equal in those bytes is then sorted with `less`. So
// `less` decides every order the prefixes leave open (equal prefixes, bytes
// past the radix digits), and must agree with them: prefix_of(a) <
// prefix_of(b) must imply less(a, b).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace freshet {

inline constexpr int kRadixDigits = 3;
inline constexpr size_t kMinRadixSortItems = 256;  // below, std::sort is as fast

//! The prefix of `size` bytes at `data`: their first 8, big-endian, zeros
//! past the end (so prefixes order as the bytes do). Eight or more bytes in
//! one load and a byte swap.
inline uint64_t big_endian_prefix(const uint8_t* data, size_t size) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (size >= 8) {
    uint64_t word;
    std::memcpy(&word, data, 8);
    return __builtin_bswap64(word);
  }
#endif
  uint64_t prefix = 0;
  const size_t n = size < 8 ? size : 8;
  for (size_t i = 0; i < n; ++i) prefix |= static_cast<uint64_t>(data[i]) << (56 - 8 * i);
  return prefix;
}

//! The 8 bytes at `data` as a big-endian integer, so such words order as
//! their bytes do.
inline uint64_t big_endian_word(const uint8_t* data) { return big_endian_prefix(data, 8); }

//! How many of their first `n` bytes rows `a` and `b` (of `a_size` and
//! `b_size` bytes, both at least n) share: the bytes a sort's prefixes
//! skip. A word at a time, the last part too when both rows have 8 bytes
//! there (rows of a big step share most of their first bytes, a null
//! bitmap and an id's high bytes: a common prefix of 7 bytes was a byte
//! loop per entry).
inline size_t shared_prefix_bytes(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, size_t n) {
  size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i < n && i + 8 <= a_size && i + 8 <= b_size; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return std::min(n, i + static_cast<size_t>(__builtin_ctzll(x ^ y) >> 3));
  }
  if (i >= n) return n;
#endif
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

//! Sorts `items` by `less`. `scratch` is working room, kept by the caller
//! for its capacity; the two vectors may trade buffers. Item must be
//! trivially copyable.
template <typename Item, typename PrefixOf, typename Less>
void sort_by_prefix(std::vector<Item>& items, std::vector<Item>& scratch, PrefixOf prefix_of, Less less) {
  const size_t n = items.size();
  if (n < kMinRadixSortItems) {
    std::sort(items.begin(), items.end(), less);
    return;
  }
  // The bytes where some prefix differs from the first one, most significant first.
  const uint64_t first = prefix_of(items.front());
  uint64_t differ = 0;
  for (const Item& item : items) differ |= prefix_of(item) ^ first;
  std::array<int, kRadixDigits> shifts{};
  int digits = 0;
  uint64_t mask = 0;
  for (int shift = 56; shift >= 0 && digits < kRadixDigits; shift -= 8) {
    if ((differ >> shift) & 0xff) {
      shifts[digits++] = shift;
      mask |= uint64_t{0xff} << shift;
    }
  }
  if (digits == 0) {  // one prefix for all: only `less` can tell them apart
    std::sort(items.begin(), items.end(), less);
    return;
  }

  std::array<std::array<uint32_t, 256>, kRadixDigits> counts{};
  for (const Item& item : items) {
    const uint64_t prefix = prefix_of(item);
    for (int d = 0; d < digits; ++d) ++counts[d][(prefix >> shifts[d]) & 0xff];
  }
  scratch.resize(n);
  Item* from = items.data();
  Item* to = scratch.data();
  for (int d = digits - 1; d >= 0; --d) {  // least significant digit first
    uint32_t next = 0;
    for (uint32_t& count : counts[d]) {
      const uint32_t here = count;
      count = next;
      next += here;
    }
    for (size_t i = 0; i < n; ++i) to[counts[d][(prefix_of(from[i]) >> shifts[d]) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  if (from != items.data()) items.swap(scratch);  // both hold n items

  // Runs the digits left tied: equal prefixes, or prefixes that differ only
  // past the digits sorted.
  for (size_t begin = 0; begin < n;) {
    const uint64_t run = prefix_of(items[begin]) & mask;
    size_t end = begin + 1;
    while (end < n && (prefix_of(items[end]) & mask) == run) ++end;
    if (end - begin > 1) std::sort(items.begin() + static_cast<std::ptrdiff_t>(begin), items.begin() + static_cast<std::ptrdiff_t>(end), less);
    begin = end;
  }
}

}  // namespace freshet
