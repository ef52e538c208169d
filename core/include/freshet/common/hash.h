// A fast 64-bit hash of byte strings (rows are byte strings, so this is the
// row hash). Used for hash maps only: equality is always checked on the bytes,
// never inferred from the hash.
#pragma once

#include <cstddef>
#include <cstdint>

namespace freshet {

uint64_t hash_bytes(const uint8_t* data, size_t size, uint64_t seed = 0);

}  // namespace freshet
