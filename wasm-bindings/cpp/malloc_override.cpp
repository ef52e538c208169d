// The wasm engine's malloc, free and realloc: SmallBlockCache
// (small_block_cache.h) in front of Emscripten's dlmalloc, whose own
// malloc, free and realloc are weak, there to be replaced so; its
// __libc_* names stay dlmalloc's. Linked into freshet_wasm only. The
// engine is single-threaded there, so the cache needs no lock.
//
// calloc, memalign and the rest stay dlmalloc's: their blocks are dlmalloc
// chunks like any other, which free() here may keep.
#include <malloc.h>

#include <cstdlib>

#include "small_block_cache.h"

extern "C" {
void* __libc_malloc(size_t bytes);
void __libc_free(void* block);
void* __libc_realloc(void* block, size_t bytes);
}

namespace {

// Constant-initialized (no constructor runs), with a trivial destructor:
// allocations in static constructors and destructors find it whole.
constinit freshet::wasm::SmallBlockCache cache({__libc_malloc, __libc_free, malloc_usable_size});

}  // namespace

extern "C" {

void* malloc(size_t bytes) { return cache.allocate(bytes); }
void free(void* block) { cache.release(block); }
// A first allocation by realloc (a ByteBuffer's) is a malloc; a block that
// grows or shrinks is dlmalloc's to move (or resize in place).
void* realloc(void* block, size_t bytes) { return block ? __libc_realloc(block, bytes) : cache.allocate(bytes); }

}  // extern "C"
