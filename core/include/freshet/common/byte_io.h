// ByteWriter and ByteReader: the little-endian, length-prefixed encoding that
// checkpoints are written in.
//
// The reader never trusts what it reads: every read is bounds-checked, and a
// count that could not possibly fit in the bytes left fails before anything is
// allocated for it. Errors are sticky: after the first failure every read
// returns zero/empty and status() names what was being read, so decoders can
// read a whole structure and check once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/common/status.h"


namespace freshet {

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void u32(uint32_t v) { fixed(v); }
  void u64(uint64_t v) { fixed(v); }
  void i64(int64_t v) { fixed(static_cast<uint64_t>(v)); }
  void f64(double v);
  void i128(__int128 v);
  //! Unsigned LEB128: small counts and lengths take one byte.
  void varint(uint64_t v);
  //! Zig-zag then LEB128: small weights of either sign take one byte.
  void signed_varint(int64_t v) { varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  //! Length-prefixed bytes.
  void bytes(std::string_view v) {
    varint(v.size());
    out_.append(v);
  }
  void raw(std::string_view v) { out_.append(v); }

  void reserve(size_t bytes) { out_.reserve(bytes); }
  //! Overwrites the u64 written at `position` (a length known only later).
  void patch_u64(size_t position, uint64_t v) {
    for (size_t i = 0; i < 8; ++i) out_[position + i] = static_cast<char>(v >> (8 * i));
  }

  size_t size() const { return out_.size(); }
  const std::string& data() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  template <typename T>
  void fixed(T v) {
    for (size_t i = 0; i < sizeof(T); ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
  }
  std::string out_;
};

class ByteReader {
 public:
  //! `what` names the data in error messages ("section 'circuit'").
  ByteReader(std::string_view data, std::string what) : data_(data), what_(std::move(what)) {}

  uint8_t u8();
  bool boolean();
  uint32_t u32() { return fixed<uint32_t>("u32"); }
  uint64_t u64() { return fixed<uint64_t>("u64"); }
  int64_t i64() { return static_cast<int64_t>(fixed<uint64_t>("i64")); }
  double f64();
  __int128 i128();
  uint64_t varint();
  int64_t signed_varint() {
    uint64_t z = varint();
    return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
  }
  //! Length-prefixed bytes; a view into the reader's data.
  std::string_view bytes();
  std::string_view raw(size_t size);
  //! A count of items each taking at least `min_item_bytes`; fails (and
  //! returns 0) when that many could not fit in what is left.
  size_t count(size_t min_item_bytes);

  //! Fails the reader with a message (a decoder found something impossible).
  void fail(const std::string& message);
  //! Fails unless every byte was read.
  void expect_end();

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  size_t remaining() const { return data_.size() - position_; }
  size_t position() const { return position_; }

 private:
  bool need(size_t size, const char* what);
  template <typename T>
  T fixed(const char* what) {
    if (!need(sizeof(T), what)) return 0;
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<uint8_t>(data_[position_ + i])) << (8 * i);
    position_ += sizeof(T);
    return v;
  }

  std::string_view data_;
  size_t position_ = 0;
  std::string what_;
  Status status_;
};

}  // namespace freshet
