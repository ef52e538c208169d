// ParsedUpdates: the updates one ingest parsed (JSON, CSV or a row block),
// with every row's bytes in one buffer.
//
// Why one buffer: a bulk load parses its whole ingest (200k rows and more)
// before anything else sees it. As a std::string per row, that was an
// allocation per row (in wasm, where libc++ keeps at most 10 bytes inline,
// every row of a table), ~40 bytes of string and malloc headers besides the
// row, all of it fresh memory touched once and freed a row at a time after
// the pipeline copied the rows into its input. Here an update is a few
// bytes beside its row's, and growth is by doubling two arrays.
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "freshet/common/byte_buffer.h"
#include "freshet/types/row.h"

namespace freshet::format {

//! One parsed update; `row` points into its ParsedUpdates (valid while
//! they live and are not appended to).
struct ParsedUpdate {
  bool insert = true;
  //! Row bytes in the table's schema; for a delete from a table with a
  //! PRIMARY KEY that named only key columns, in the key's schema (key_only).
  RowRef row;
  bool key_only = false;
};

class ParsedUpdates {
 public:
  //! Room for `updates` more updates whose rows hold `row_bytes` bytes in all.
  void reserve(size_t updates, size_t row_bytes) {
    entries_.reserve(entries_.size() + updates);
    bytes_.reserve(bytes_.size() + row_bytes);
  }
  //! Room for `total` updates in all, whose rows are as long on average as
  //! those so far (a text format sizes its output from its first records).
  void reserve_total(size_t total) {
    if (total <= entries_.size()) return;
    const size_t average = entries_.empty() ? 0 : bytes_.size() / entries_.size() + 1;
    reserve(total - entries_.size(), (total - entries_.size()) * average);
  }
  //! Appends an update of `row` (copied).
  void push(bool insert, RowRef row, bool key_only = false) {
    entries_.push_back(Entry{bytes_.size(), row.size, insert, key_only});
    bytes_.append(row.data, row.size);
  }
  //! Appends an insert or a delete of a row of `size` bytes that the caller
  //! writes at the address returned (before the next push): a reader that
  //! writes the row's bytes in place, with no row built elsewhere to copy.
  uint8_t* push_room(bool insert, uint32_t size) {
    entries_.push_back(Entry{bytes_.size(), size, insert, false});
    return bytes_.extend(size);
  }
  //! Drops the last update pushed (a row push_room() could not finish).
  void pop_back() {
    bytes_.truncate(entries_.back().offset);
    entries_.pop_back();
  }
  void clear() {
    entries_.clear();
    bytes_.clear();
    taken_ = nullptr;
  }
  //! clear(), and frees the memory too.
  void release() { *this = ParsedUpdates(); }
  //! Hands the rows' bytes over (an upsert input adopts a bulk ingest's rows
  //! instead of copying each): the updates go on pointing into them, so the
  //! buffer must outlive their use here, unchanged. Nothing may be pushed after.
  ByteBuffer take_bytes() {
    taken_ = bytes_.data();
    return std::move(bytes_);
  }

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  //! The bytes of all rows together.
  size_t row_bytes() const { return bytes_.size(); }
  ParsedUpdate operator[](size_t i) const {
    const Entry& entry = entries_[i];
    const uint8_t* bytes = taken_ ? taken_ : bytes_.data();
    return ParsedUpdate{entry.insert, RowRef(bytes + entry.offset, entry.size), entry.key_only};
  }

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ParsedUpdate;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ParsedUpdate;
    Iterator(const ParsedUpdates* updates, size_t index) : updates_(updates), index_(index) {}
    ParsedUpdate operator*() const { return (*updates_)[index_]; }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return index_ == other.index_; }
    bool operator!=(const Iterator& other) const { return index_ != other.index_; }

   private:
    const ParsedUpdates* updates_;
    size_t index_;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, entries_.size()); }

 private:
  struct Entry {
    size_t offset;  // of the row in bytes_
    uint32_t size;
    bool insert, key_only;
  };
  std::vector<Entry> entries_;
  ByteBuffer bytes_;
  const uint8_t* taken_ = nullptr;  // the rows' bytes after take_bytes()
};

}  // namespace freshet::format
