#include "freshet/common/hash.h"

#include <cstring>

namespace freshet {
namespace {

// The 64-bit finaliser of MurmurHash3: full avalanche in a few instructions.
uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

uint64_t hash_bytes(const uint8_t* data, size_t size, uint64_t seed) {
  uint64_t h = seed ^ (size * 0x9e3779b97f4a7c15ULL);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    h = mix(h ^ word) + 0x9e3779b97f4a7c15ULL;
  }
  if (i < size) {
    uint64_t word = 0;
    std::memcpy(&word, data + i, size - i);
    h = mix(h ^ word ^ 0x5bd1e995ULL);
  }
  return mix(h);
}

}  // namespace freshet
