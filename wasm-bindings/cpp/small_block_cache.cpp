#include "small_block_cache.h"

namespace freshet::wasm {

size_t SmallBlockCache::kept_bytes() const {
  size_t total = 0;
  for (size_t c = 1; c <= kClasses; ++c) total += kept_[c] * c * kGranule;
  return total;
}

}  // namespace freshet::wasm
