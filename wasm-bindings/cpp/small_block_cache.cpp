#include "small_block_cache.h"

#include <cstdlib>

namespace freshet::wasm {

void* SmallBlockCache::allocate(size_t bytes) {
  const size_t size_class = class_of(bytes);
  const bool cached = size_class <= kClasses;
  if (cached && free_[size_class]) {
    FreeBlock* block = free_[size_class];
    free_[size_class] = block->next;
    --kept_[size_class];
    return block;
  }
  // A class's whole size, so that the block can serve any request of it
  // later; a block not cached is its request's size.
  const size_t payload = cached ? size_class * kGranule : bytes;
  if (payload > SIZE_MAX - kHeader) return nullptr;
  auto* raw = static_cast<uint8_t*>(std::malloc(kHeader + payload));
  if (!raw) return nullptr;
  *reinterpret_cast<size_t*>(raw) = cached ? size_class : 0;
  return raw + kHeader;
}

void SmallBlockCache::release(void* block) {
  if (!block) return;
  uint8_t* raw = static_cast<uint8_t*>(block) - kHeader;
  const size_t size_class = *reinterpret_cast<const size_t*>(raw);
  if (size_class != 0 && kept_[size_class] < kept_limit(size_class)) {
    auto* free_block = static_cast<FreeBlock*>(block);
    free_block->next = free_[size_class];
    free_[size_class] = free_block;
    ++kept_[size_class];
    return;
  }
  std::free(raw);
}

size_t SmallBlockCache::kept_bytes() const {
  size_t total = 0;
  for (size_t c = 1; c <= kClasses; ++c) total += kept_[c] * c * kGranule;
  return total;
}

}  // namespace freshet::wasm
