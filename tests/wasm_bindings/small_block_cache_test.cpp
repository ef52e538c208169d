// SmallBlockCache (wasm-bindings/cpp/small_block_cache.h), natively: the
// wasm engine's operator new. Blocks are usable and aligned, a freed small
// block is handed out again to a request of its class, large blocks are
// never kept, and what the cache keeps stays bounded.
#include "small_block_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

namespace freshet::wasm {
namespace {

using Cache = SmallBlockCache;

TEST(SmallBlockCache, BlocksAreAlignedUsableAndDistinct) {
  Cache cache;
  std::set<void*> seen;
  std::vector<void*> blocks;
  for (size_t bytes : {0, 1, 15, 16, 17, 100, 511, 512, 513, 4096, 100000}) {
    void* block = cache.allocate(bytes);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % alignof(std::max_align_t), 0u) << bytes;
    std::memset(block, 0xAB, bytes);  // the whole requested size is writable (ASan would see otherwise)
    EXPECT_TRUE(seen.insert(block).second);
    blocks.push_back(block);
  }
  for (void* block : blocks) cache.release(block);
  cache.release(nullptr);
}

TEST(SmallBlockCache, AFreedSmallBlockServesTheNextRequestOfItsClass) {
  Cache cache;
  void* a = cache.allocate(40);  // class of 48 bytes
  cache.release(a);
  EXPECT_EQ(cache.kept_bytes(), 48u);
  EXPECT_EQ(cache.allocate(33), a);  // same class
  EXPECT_EQ(cache.kept_bytes(), 0u);
  void* b = cache.allocate(48);
  EXPECT_NE(b, a);
  cache.release(a);
  void* c = cache.allocate(49);  // the next class up: not the kept block
  EXPECT_NE(c, a);
  EXPECT_EQ(cache.kept_bytes(), 48u);
  cache.release(b);
  cache.release(c);
  EXPECT_EQ(cache.kept_bytes(), 48u + 48u + 64u);
}

TEST(SmallBlockCache, LargeBlocksAreNeverKept) {
  Cache cache;
  cache.release(cache.allocate(Cache::kLargestCached + 1));
  cache.release(cache.allocate(1 << 20));
  EXPECT_EQ(cache.kept_bytes(), 0u);
}

TEST(SmallBlockCache, WhatItKeepsIsBounded) {
  // A big step frees many small blocks at once: past each class's bound
  // they go back to malloc.
  Cache cache;
  for (size_t bytes : {size_t{16}, size_t{200}, Cache::kLargestCached}) {
    std::vector<void*> blocks;
    for (int i = 0; i < 5000; ++i) blocks.push_back(cache.allocate(bytes));
    for (void* block : blocks) cache.release(block);
  }
  EXPECT_LE(cache.kept_bytes(), 3 * Cache::kKeptBytesPerClass);
  EXPECT_GE(cache.kept_bytes(), 3 * Cache::kKeptBytesPerClass - 3 * Cache::kLargestCached);
}

TEST(SmallBlockCache, AnImpossibleSizeIsRefusedNotWrapped) {
  Cache cache;
  EXPECT_EQ(cache.allocate(SIZE_MAX - 4), nullptr);
}

}  // namespace
}  // namespace freshet::wasm
