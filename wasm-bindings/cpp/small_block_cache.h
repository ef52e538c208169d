// SmallBlockCache: operator new's small blocks, kept when freed and handed
// out again, in front of malloc.
//
// A single-row change allocates and frees a few dozen small blocks: the
// batches each operator makes (a Batch with its shared_ptr count is one
// block of ~200-300 bytes), their small arrays, a group's string. In wasm
// each malloc and free is dlmalloc's general path (bins, chunk headers,
// coalescing): ~10% of a change's time. A freed block here goes onto a list
// of its size class and the next request of that class pops it: a few
// instructions each way. Only the wasm engine puts it behind operator new
// (operator_new.cpp): natively glibc's allocator already caches so.
//
// Every block has a header of alignof(std::max_align_t) bytes, so blocks
// keep malloc's alignment; it holds the block's class (0: not cached, as
// blocks over kLargestCached bytes). What a class keeps is bounded
// (kKeptBytesPerClass): a big step's many small blocks go back to malloc
// when freed, and the cache holds at most ~kClasses * kKeptBytesPerClass.
#pragma once

#include <cstddef>
#include <cstdint>

namespace freshet::wasm {

class SmallBlockCache {
 public:
  static constexpr size_t kGranule = 16;         // class c holds blocks of c * kGranule bytes
  static constexpr size_t kLargestCached = 512;  // bytes; larger blocks are malloc's alone
  static constexpr size_t kClasses = kLargestCached / kGranule;
  static constexpr size_t kKeptBytesPerClass = 16 * 1024;
  static constexpr size_t kHeader = alignof(std::max_align_t);

  //! A block of at least `bytes` bytes (malloc's alignment), or null when malloc has none.
  void* allocate(size_t bytes);
  //! Frees a block allocate() returned (or does nothing for null).
  void release(void* block);

  //! Bytes of freed blocks kept for reuse.
  size_t kept_bytes() const;

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  //! The class of a request; past kClasses for one too large to cache.
  static size_t class_of(size_t bytes) {
    if (bytes > kLargestCached) return kClasses + 1;  // (no rounding up: SIZE_MAX would wrap)
    return bytes == 0 ? 1 : (bytes + kGranule - 1) / kGranule;
  }
  static size_t kept_limit(size_t size_class) { return kKeptBytesPerClass / (size_class * kGranule); }

  // Index 0 unused: class 0 marks a block malloc alone serves.
  FreeBlock* free_[kClasses + 1] = {};
  uint32_t kept_[kClasses + 1] = {};
};

}  // namespace freshet::wasm
