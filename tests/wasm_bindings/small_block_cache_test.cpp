// SmallBlockCache (wasm-bindings/cpp/small_block_cache.h), natively over
// glibc's malloc: the wasm engine's malloc. Blocks are usable and aligned,
// a freed small block is handed out again to a request it can hold, large
// blocks are never kept, and what the cache keeps stays bounded.
#include "small_block_cache.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace freshet::wasm {
namespace {

using Cache = SmallBlockCache;

// glibc's allocator, counting what reaches it.
int allocations = 0, releases = 0;
void* counted_malloc(size_t bytes) {
  ++allocations;
  return std::malloc(bytes);
}
void counted_free(void* block) {
  ++releases;
  std::free(block);
}
Cache make_cache() {
  allocations = releases = 0;
  return Cache({counted_malloc, counted_free, malloc_usable_size});
}

TEST(SmallBlockCache, BlocksAreAlignedUsableAndDistinct) {
  Cache cache = make_cache();
  std::set<void*> seen;
  std::vector<void*> blocks;
  for (size_t bytes : {0, 1, 15, 16, 17, 100, 511, 512, 513, 4096, 100000}) {
    void* block = cache.allocate(bytes);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % alignof(std::max_align_t), 0u) << bytes;
    EXPECT_GE(malloc_usable_size(block), bytes);
    std::memset(block, 0xAB, bytes);
    EXPECT_TRUE(seen.insert(block).second);
    blocks.push_back(block);
  }
  for (void* block : blocks) cache.release(block);
  cache.release(nullptr);
}

TEST(SmallBlockCache, AFreedSmallBlockServesTheNextRequestItHolds) {
  Cache cache = make_cache();
  void* a = cache.allocate(40);  // made with the class's 48 bytes
  cache.release(a);
  EXPECT_EQ(releases, 0);
  EXPECT_GE(cache.kept_bytes(), 48u);
  EXPECT_EQ(cache.allocate(33), a);  // same class: no call to malloc
  EXPECT_EQ(allocations, 1);
  EXPECT_EQ(cache.kept_bytes(), 0u);
  void* b = cache.allocate(512);
  cache.release(b);
  EXPECT_EQ(cache.allocate(500), b);
  EXPECT_EQ(allocations, 2);
  cache.release(a);
  cache.release(b);
}

TEST(SmallBlockCache, ABlockFromElsewhereIsKeptForWhatItHolds) {
  // realloc's and calloc's blocks reach free() too: their usable size says
  // which requests they can serve.
  Cache cache = make_cache();
  void* grown = std::realloc(nullptr, 70);
  const size_t usable = malloc_usable_size(grown);
  cache.release(grown);
  EXPECT_EQ(cache.allocate(usable / Cache::kGranule * Cache::kGranule), grown);
  cache.release(grown);
}

TEST(SmallBlockCache, LargeBlocksAreNeverKept) {
  Cache cache = make_cache();
  cache.release(cache.allocate(Cache::kLargestCached + 100));
  cache.release(cache.allocate(1 << 20));
  EXPECT_EQ(cache.kept_bytes(), 0u);
  EXPECT_EQ(releases, 2);
}

// An allocator whose blocks hold exactly what was asked (glibc may give a
// little more, which moves a block up a class): a header keeps the size.
void* exact_malloc(size_t bytes) {
  auto* raw = static_cast<size_t*>(std::malloc(bytes + 16));
  *raw = bytes;
  return reinterpret_cast<uint8_t*>(raw) + 16;
}
void exact_free(void* block) {
  ++releases;
  std::free(static_cast<uint8_t*>(block) - 16);
}
size_t exact_usable_size(void* block) { return *reinterpret_cast<size_t*>(static_cast<uint8_t*>(block) - 16); }

TEST(SmallBlockCache, WhatItKeepsIsBounded) {
  // A big step frees many small blocks at once: past each class's bound
  // they go back to the allocator.
  releases = 0;
  Cache cache({exact_malloc, exact_free, exact_usable_size});
  for (size_t bytes : {size_t{16}, size_t{200}, Cache::kLargestCached}) {
    std::vector<void*> blocks;
    for (int i = 0; i < 5000; ++i) blocks.push_back(cache.allocate(bytes));
    for (void* block : blocks) cache.release(block);
  }
  EXPECT_LE(cache.kept_bytes(), 3 * Cache::kKeptBytesPerClass);
  EXPECT_GE(cache.kept_bytes(), 3 * Cache::kKeptBytesPerClass - 3 * Cache::kLargestCached);
  const int kept_blocks = 1024 + 16384 / 208 + 16384 / 512;
  EXPECT_EQ(releases, 3 * 5000 - kept_blocks);
}

TEST(SmallBlockCache, AnImpossibleSizeIsTheAllocatorsToRefuse) {
  Cache cache = make_cache();
  volatile size_t huge = SIZE_MAX - 4;  // (volatile: g++ refuses a constant this large at compile time)
  EXPECT_EQ(cache.allocate(huge), nullptr);
}

}  // namespace
}  // namespace freshet::wasm
