// The row encoding: a row is a byte string laid out by its Schema (schema.h):
//
//   [null bitmap][fixed slots][string bodies]
//
// Fixed-width values live inline (no heap allocation per field); a row's
// strings are stored once, after its fixed part. The encoding is canonical:
// NULL slots and padding are zero, -0.0 is stored as 0.0 and every NaN as one
// NaN. So two rows are equal exactly when their bytes are, a row's hash is the
// hash of its bytes, and byte order (compare_rows) is a total order that
// batches sort by. SQL's ORDER BY order is a different one: see sort_key.h.
//
// Integers (TINYINT to BIGINT, DATE, TIMESTAMP) are stored big-endian with
// the sign bit flipped (ordered_int.h), so that their bytes sort as their
// values do: rows keyed by ids that grow (the common bulk load) then come
// in byte order already, and a step's new keys land after a trace's old
// ones — sorts find them sorted, merges copy whole runs, seeks stop at once.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/common/assert.h"
#include "freshet/common/byte_buffer.h"
#include "freshet/common/hash.h"
#include "freshet/types/ordered_int.h"
#include "freshet/types/schema.h"
#include "freshet/types/value.h"

namespace freshet {

//! A borrowed row: bytes owned by a batch, a builder or a buffer.
struct RowRef {
  const uint8_t* data = nullptr;
  uint32_t size = 0;

  RowRef() = default;
  RowRef(const uint8_t* bytes, uint32_t length) : data(bytes), size(length) {}
  explicit RowRef(const std::string& bytes)
      : data(reinterpret_cast<const uint8_t*>(bytes.data())), size(static_cast<uint32_t>(bytes.size())) {}
  explicit RowRef(const std::vector<uint8_t>& bytes) : data(bytes.data()), size(static_cast<uint32_t>(bytes.size())) {}
  explicit RowRef(std::string_view bytes)
      : data(reinterpret_cast<const uint8_t*>(bytes.data())), size(static_cast<uint32_t>(bytes.size())) {}

  std::string_view bytes() const { return {reinterpret_cast<const char*>(data), size}; }
  std::string to_bytes() const { return std::string(bytes()); }
};

//! Byte-wise lexicographic order, shorter first on a tie: the total order of batches.
inline int compare_rows(RowRef a, RowRef b) {
  uint32_t common = a.size < b.size ? a.size : b.size;
#ifdef __wasm__
  // musl's memcmp in wasm is an out-of-line call to a byte loop. Inline,
  // 8 bytes at a time: rows often share their first bytes (null flags, an
  // integer's high bytes), and in a little-endian word the first differing
  // byte is the lowest set bit of the words' difference.
  uint32_t i = 0;
  for (; i + 8 <= common; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data + i, 8);
    std::memcpy(&y, b.data + i, 8);
    if (x != y) {
      const uint32_t at = i + static_cast<uint32_t>(__builtin_ctzll(x ^ y) >> 3);
      return a.data[at] < b.data[at] ? -1 : 1;
    }
  }
  for (; i < common; ++i) {
    if (a.data[i] != b.data[i]) return a.data[i] < b.data[i] ? -1 : 1;
  }
#else
  int c = common == 0 ? 0 : std::memcmp(a.data, b.data, common);
  if (c != 0) return c;
#endif
  return a.size < b.size ? -1 : (a.size > b.size ? 1 : 0);
}
inline bool operator==(RowRef a, RowRef b) {
#ifdef __wasm__
  // Inline in wasm, 8 bytes at a time, as compare_rows.
  if (a.size != b.size) return false;
  uint32_t i = 0;
  for (; i + 8 <= a.size; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data + i, 8);
    std::memcpy(&y, b.data + i, 8);
    if (x != y) return false;
  }
  for (; i < a.size; ++i) {
    if (a.data[i] != b.data[i]) return false;
  }
  return true;
#else
  return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
#endif
}
inline bool operator!=(RowRef a, RowRef b) { return !(a == b); }
inline bool operator<(RowRef a, RowRef b) { return compare_rows(a, b) < 0; }
inline uint64_t hash_row(RowRef row) { return hash_bytes(row.data, row.size); }

//! RowReader reads typed fields of one row.
class RowReader {
 public:
  RowReader(const Schema& schema, RowRef row) : schema_(&schema), row_(row) {}

  const Schema& schema() const { return *schema_; }
  RowRef row() const { return row_; }

  bool is_null(size_t column) const { return (row_.data[column >> 3] >> (column & 7)) & 1; }
  bool any_null() const;
  bool get_bool(size_t column) const { return row_.data[schema_->offset(column)] != 0; }
  //! Integer types, DATE and TIMESTAMP, widened to 64 bits.
  int64_t get_int(size_t column) const;
  //! REAL and DOUBLE, widened to double. Inline: an aggregate's fold reads
  //! one per row (a call per row was ~4% of a 200k-row load in wasm).
  double get_double(size_t column) const {
    if (schema_->type(column).id == TypeId::kReal) return load<float>(column);
    FRESHET_ASSERT(schema_->type(column).id == TypeId::kDouble);
    return load<double>(column);
  }
  int128 get_decimal(size_t column) const;
  std::string_view get_string(size_t column) const;
  //! Any column as a Value (slow path).
  Value get_value(size_t column) const;
  //! "(1, 'east', NULL)"
  std::string to_string() const;

 private:
  template <typename T>
  T load(size_t column) const {
    T value;
    std::memcpy(&value, row_.data + schema_->offset(column), sizeof(T));
    return value;
  }
  template <typename T>
  T load_int(size_t column) const {
    return load_ordered_int<T>(row_.data + schema_->offset(column));
  }

  const Schema* schema_;
  RowRef row_;
};

//! RowBuilder writes one row at a time. Set columns in any order (unset ones
//! hold zero bytes: not NULL, and not 0 for an integer), then finish(): the
//! returned RowRef stays valid until the next finish(), and the builder
//! starts the next row clean.
class RowBuilder {
 public:
  explicit RowBuilder(const Schema& schema);

  const Schema& schema() const { return *schema_; }

  void set_null(size_t column);
  void set_bool(size_t column, bool value);
  //! Integer types, DATE and TIMESTAMP; narrows to the column's width.
  void set_int(size_t column, int64_t value);
  //! REAL and DOUBLE (REAL rounds to float).
  void set_double(size_t column, double value);
  void set_decimal(size_t column, int128 value);
  void set_string(size_t column, std::string_view value);
  //! Sets any column from a Value of a compatible type (slow path).
  void set_value(size_t column, const Value& value);
  //! Copies one field of another row, of the same type.
  void copy_field(size_t column, const RowReader& source, size_t source_column);

  RowRef finish();

 private:
  template <typename T>
  void store(size_t column, T value) {
    clear_null(column);
    std::memcpy(fixed_.data() + schema_->offset(column), &value, sizeof(T));
  }
  template <typename T>
  void store_int(size_t column, T value) {
    clear_null(column);
    store_ordered_int<T>(fixed_.data() + schema_->offset(column), value);
  }
  void clear_null(size_t column) { fixed_[column >> 3] &= static_cast<uint8_t>(~(1u << (column & 7))); }

  // ByteBuffers, not strings and vectors: their appends are inline, and a
  // row is built for every entry an operator makes.
  const Schema* schema_;
  std::vector<uint8_t> fixed_;       // bitmap + fixed slots of the row being built
  std::vector<ByteBuffer> strings_;  // bodies of the VARCHAR columns, by ordinal
  ByteBuffer finished_;              // the last finished row
};

//! Encodes a whole row from Values (tests, literals).
std::string encode_row(const Schema& schema, const std::vector<Value>& values);
//! Decodes a whole row into Values (tests, formats).
std::vector<Value> decode_row(const Schema& schema, RowRef row);

//! Whether `row` is laid out as `schema` says: long enough for the fixed part
//! and its string lengths adding up to exactly the rest. Rows read from
//! outside (a checkpoint) are checked with this before any reader touches them.
bool row_fits_schema(const Schema& schema, RowRef row);

}  // namespace freshet
