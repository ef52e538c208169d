// The wasm engine's operator new and delete: through SmallBlockCache
// (small_block_cache.h), ~5% of a single-row change's time in wasm
// (bench/js/ab.mjs). Linked into freshet_wasm only; the engine is
// single-threaded there, so the cache needs no lock.
#include <cstdlib>
#include <new>

#include "small_block_cache.h"

namespace {

// Constructed before any allocation (constant-initialized: no constructor
// runs) and never destroyed, so allocations in static constructors and
// destructors find it.
constinit freshet::wasm::SmallBlockCache cache;

void* allocate_or_abort(std::size_t bytes) {
  void* block = cache.allocate(bytes);
  if (!block) std::abort();  // as operator new does with exceptions off
  return block;
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate_or_abort(bytes); }
void* operator new[](std::size_t bytes) { return allocate_or_abort(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept { return cache.allocate(bytes); }
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept { return cache.allocate(bytes); }
void operator delete(void* block) noexcept { cache.release(block); }
void operator delete[](void* block) noexcept { cache.release(block); }
void operator delete(void* block, std::size_t) noexcept { cache.release(block); }
void operator delete[](void* block, std::size_t) noexcept { cache.release(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { cache.release(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { cache.release(block); }
