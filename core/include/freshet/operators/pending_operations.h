// PendingOperations: the operations an upsert input buffers for its next
// step — upserts of whole rows and deletes by key — with every key's and
// row's bytes in one buffer.
//
// Why one buffer: a bulk load buffers its whole ingest (200k rows and more)
// before one step. As a std::string per key and per row, that was an
// allocation per row and ~70 bytes of string headers per operation, all of
// it fresh memory touched once (page faults were the single largest cost of
// a 200k-row step on a VM, more than the step's sort), freed one row at a
// time after the step. Here an operation is 16 bytes beside its bytes, and
// growth is by doubling two arrays.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "freshet/common/byte_buffer.h"
#include "freshet/types/row.h"

namespace freshet {

class PendingOperations {
 public:
  //! Buffers an upsert of `row` whose key row is `key`.
  void push_upsert(RowRef key, RowRef row) {
    Operation op{static_cast<uint32_t>(bytes_.size()), key.size, 0, row.size};
    bytes_.append(key.data, key.size);
    op.row_offset = static_cast<uint32_t>(bytes_.size());
    bytes_.append(row.data, row.size);
    operations_.push_back(op);
  }
  //! Buffers a delete of the row whose key row is `key`.
  void push_delete(RowRef key) {
    operations_.push_back({static_cast<uint32_t>(bytes_.size()), key.size, kDelete, 0});
    bytes_.append(key.data, key.size);
  }

  size_t size() const { return operations_.size(); }
  bool empty() const { return operations_.empty(); }
  RowRef key(size_t i) const { return RowRef(bytes_.data() + operations_[i].key_offset, operations_[i].key_size); }
  bool is_upsert(size_t i) const { return operations_[i].row_offset != kDelete; }
  //! Operation i's row; only for an upsert.
  RowRef row(size_t i) const { return RowRef(bytes_.data() + operations_[i].row_offset, operations_[i].row_size); }

  //! Room for `operations` more operations of `bytes` bytes in all.
  void reserve(size_t operations, size_t bytes) {
    const size_t wanted = operations_.size() + operations;
    if (wanted > operations_.capacity()) operations_.reserve(std::max(wanted, 2 * operations_.capacity()));
    bytes_.reserve(bytes_.size() + bytes);
  }
  //! Keeps the first `count` operations (and their bytes).
  void truncate(size_t count) {
    if (count >= operations_.size()) return;
    bytes_.truncate(operations_[count].key_offset);
    operations_.resize(count);
  }
  //! Keeps the operations i for which keep(i) is true, in order. Their bytes
  //! stay where they are (until clear()).
  template <typename Keep>
  void retain(Keep&& keep) {
    size_t kept = 0;
    for (size_t i = 0; i < operations_.size(); ++i) {
      if (keep(i)) operations_[kept++] = operations_[i];
    }
    operations_.resize(kept);
  }
  void clear() {
    operations_.clear();
    bytes_.clear();
  }
  //! clear(), and frees the memory too (after a bulk load's step).
  void release() {
    std::vector<Operation>().swap(operations_);
    bytes_.release();
  }
  //! Bytes held, used or not.
  size_t memory_bytes() const { return operations_.capacity() * sizeof(Operation) + bytes_.capacity(); }

 private:
  static constexpr uint32_t kDelete = UINT32_MAX;  // row_offset of a delete
  struct Operation {
    uint32_t key_offset, key_size;
    uint32_t row_offset, row_size;
  };
  std::vector<Operation> operations_;
  ByteBuffer bytes_;
};

}  // namespace freshet
