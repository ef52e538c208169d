// SmallBlockCache: malloc's small blocks, kept when freed and handed out
// again, in front of the allocator.
//
// A single-row change allocates and frees a few dozen small blocks: the
// batches each operator makes (a Batch with its shared_ptr count), their
// rows' and weights' arrays, a group's string. In wasm each malloc and free
// is dlmalloc's general path (bins, chunk headers, coalescing): ~10% of a
// change's time. A freed block here goes onto a list of its size class and
// the next request of that class pops it: a few instructions each way.
// Only the wasm engine puts it in front of malloc (malloc_override.cpp):
// natively glibc's allocator caches so itself.
//
// The cache adds no header: a freed block's class is read from its usable
// size (malloc_usable_size), so any block the allocator made — by malloc,
// realloc, calloc or memalign — can be kept, for requests no larger than
// it holds. What a class keeps is bounded (kKeptBytesPerClass): a big
// step's many small blocks go back to the allocator when freed, and the
// cache holds at most ~kClasses * kKeptBytesPerClass.
#pragma once

#include <cstddef>
#include <cstdint>

namespace freshet::wasm {

class SmallBlockCache {
 public:
  static constexpr size_t kGranule = 16;         // class c serves requests of up to c * kGranule bytes
  static constexpr size_t kLargestCached = 512;  // bytes; larger requests are the allocator's alone
  static constexpr size_t kClasses = kLargestCached / kGranule;
  static constexpr size_t kKeptBytesPerClass = 16 * 1024;

  //! The allocator behind the cache.
  struct Allocator {
    void* (*allocate)(size_t bytes);
    void (*release)(void* block);
    size_t (*usable_size)(void* block);
  };
  constexpr explicit SmallBlockCache(Allocator allocator) : allocator_(allocator) {}

  //! A block of at least `bytes` bytes, or null when the allocator has none.
  void* allocate(size_t bytes) {
    if (bytes <= kLargestCached) {
      const size_t size_class = bytes == 0 ? 1 : (bytes + kGranule - 1) / kGranule;
      if (FreeBlock* block = free_[size_class]) {
        free_[size_class] = block->next;
        --kept_[size_class];
        return block;
      }
      // The class's whole size: the block can serve any request of it later.
      bytes = size_class * kGranule;
    }
    return allocator_.allocate(bytes);
  }
  //! Frees a block of the allocator's (or does nothing for null).
  void release(void* block) {
    if (!block) return;
    const size_t size_class = allocator_.usable_size(block) / kGranule;
    if (size_class != 0 && size_class <= kClasses && kept_[size_class] < kept_limit(size_class)) {
      auto* free_block = static_cast<FreeBlock*>(block);
      free_block->next = free_[size_class];
      free_[size_class] = free_block;
      ++kept_[size_class];
      return;
    }
    allocator_.release(block);
  }

  //! Bytes of freed blocks kept for reuse (at least; blocks can hold a little more).
  size_t kept_bytes() const;

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  static constexpr size_t kept_limit(size_t size_class) { return kKeptBytesPerClass / (size_class * kGranule); }

  Allocator allocator_;
  // Index 0 unused: a block of less than kGranule usable bytes is never kept.
  FreeBlock* free_[kClasses + 1] = {};
  uint32_t kept_[kClasses + 1] = {};
};

}  // namespace freshet::wasm
