// ByteBuffer: a growable byte array whose append is one capacity check and
// one memcpy, inline. Batches and builders append every row they hold, row
// builders every field and row they build;
// std::vector<uint8_t>::insert does the same through an out-of-line call with
// general iterator handling, which in wasm cost ~70 ns for a row's 10-30
// bytes. Growth doubles; new bytes are not zeroed.
//
// The bytes live in malloc's memory, so that they grow and shrink with
// realloc: a big buffer grows without a copy where the allocator can
// (glibc remaps it) and shrink_to_fit() gives back its slack in place,
// never copying (a merge's output reserved whole, trimmed at its end).
//
// A buffer can also borrow bytes it does not own (borrowed()): another
// buffer's, which whoever made it keeps alive as long as it (a batch that
// shares another batch's rows: row_column.h). It reads them in place; its
// first change copies them into memory of its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "freshet/common/copy_row_bytes.h"

namespace freshet {

//! ByteBuffer's deleter: std::free, unless the bytes are borrowed.
struct FreeUnlessBorrowed {
  bool owned = true;
  void operator()(uint8_t* bytes) const {
    if (owned) std::free(bytes);
  }
};

class ByteBuffer {
  using Free = FreeUnlessBorrowed;

 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer& other) { *this = other; }
  ByteBuffer& operator=(const ByteBuffer& other) {
    if (this != &other) {
      clear();
      append(other.data(), other.size());
    }
    return *this;
  }
  ByteBuffer(ByteBuffer&& other) noexcept { *this = std::move(other); }
  ByteBuffer& operator=(ByteBuffer&& other) noexcept {
    bytes_ = std::move(other.bytes_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }

  //! A buffer over the `size` bytes at `data`, which it reads but does not
  //! own or free; the caller keeps them alive and unchanged as long as it.
  static ByteBuffer borrowed(const uint8_t* data, size_t size) {
    ByteBuffer buffer;
    buffer.bytes_ = std::unique_ptr<uint8_t, Free>(const_cast<uint8_t*>(data), Free{false});
    buffer.size_ = buffer.capacity_ = size;
    return buffer;
  }
  //! Whether the bytes are its own (not borrowed()).
  bool owns_bytes() const { return bytes_.get_deleter().owned; }

  const uint8_t* data() const { return bytes_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }

  void append(const uint8_t* bytes, size_t count) {
    if (capacity_ - size_ < count) reallocate(std::max(size_ + count, 2 * capacity_));
#ifdef __wasm__
    // A row's few bytes word by word, not wasm's out-of-line memory.copy
    // (sql_bench PRIMARY KEY tables in wasm: −3%).
    copy_row_bytes(bytes_.get() + size_, bytes, count);
#else
    if (count != 0) std::memcpy(bytes_.get() + size_, bytes, count);
#endif
    size_ += count;
  }
  //! Appends `count` bytes left for the caller to write, and returns where they start.
  uint8_t* extend(size_t count) {
    if (capacity_ - size_ < count) reallocate(std::max(size_ + count, 2 * capacity_));
    uint8_t* at = bytes_.get() + size_;
    size_ += count;
    return at;
  }
  void reserve(size_t bytes) {
    if (bytes > capacity_) reallocate(bytes);
  }
  //! Empties the buffer and keeps its memory (not borrowed bytes: those are never written).
  void clear() {
    if (!owns_bytes()) release();
    size_ = 0;
  }
  //! Drops the bytes past the first `size` (no more than size()), keeping the memory.
  void truncate(size_t size) {
    if (!owns_bytes() && size < size_) capacity_ = size;  // the next append copies what is kept
    size_ = std::min(size, size_);
  }
  //! Empties the buffer and frees its memory.
  void release() { *this = ByteBuffer(); }
  //! Gives back the capacity past size() (in place: a shrinking realloc does not move).
  void shrink_to_fit() {
    if (capacity_ > size_ && size_ != 0) reallocate(size_);
  }

 private:
  void reallocate(size_t capacity) {
    uint8_t* bytes;
    if (owns_bytes()) {
      // Nothing to keep (a cleared buffer growing again): realloc would copy
      // the whole old capacity.
      if (size_ == 0) bytes_.reset();
      bytes = static_cast<uint8_t*>(std::realloc(bytes_.get(), capacity));
    } else {
      bytes = static_cast<uint8_t*>(std::malloc(capacity));
      if (bytes && size_ != 0) std::memcpy(bytes, bytes_.get(), std::min(size_, capacity));
      bytes_.get_deleter().owned = true;
    }
    if (!bytes) std::abort();  // as operator new does without exceptions
    (void)bytes_.release();
    bytes_.reset(bytes);
    capacity_ = capacity;
  }

  std::unique_ptr<uint8_t, Free> bytes_;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace freshet
