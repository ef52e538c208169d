// A Schema is the ordered list of a row's columns, plus the byte layout the
// row encoding (row.h) derives from it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/types/sql_type.h"

namespace freshet {

struct Column {
  std::string name;
  SqlType type;
};

//! Schema: columns and their layout in the row encoding:
//!
//!   [null bitmap: ceil(n/8) bytes][fixed slots, in column order][string bodies]
//!
//! Each column has a slot of fixed_width(type) bytes at offset(i); a VARCHAR
//! slot holds the string's length and its bytes follow the fixed part, in
//! column order. A schema with no columns has rows of zero bytes.
class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Column> columns);

  size_t size() const { return columns_.size(); }
  bool empty() const { return columns_.empty(); }
  const Column& column(size_t i) const { return columns_[i]; }
  const SqlType& type(size_t i) const { return columns_[i].type; }
  const std::vector<Column>& columns() const { return columns_; }
  //! Index of the column with this name (exact match), if any.
  std::optional<size_t> find(std::string_view name) const;

  uint32_t bitmap_bytes() const { return bitmap_bytes_; }
  //! Bitmap plus all fixed slots: the size of a row without strings.
  uint32_t fixed_bytes() const { return fixed_bytes_; }
  uint32_t offset(size_t i) const { return offsets_[i]; }
  //! Position of a VARCHAR column among the VARCHAR columns (-1 for others).
  int32_t string_ordinal(size_t i) const { return string_ordinals_[i]; }
  uint32_t string_count() const { return string_count_; }

  //! The columns of `this` followed by those of `other`.
  Schema concat(const Schema& other) const;
  //! "(id BIGINT NOT NULL, region VARCHAR)"
  std::string to_string() const;

 private:
  std::vector<Column> columns_;
  std::vector<uint32_t> offsets_;
  std::vector<int32_t> string_ordinals_;
  uint32_t bitmap_bytes_ = 0;
  uint32_t fixed_bytes_ = 0;
  uint32_t string_count_ = 0;
};

using SchemaPtr = std::shared_ptr<const Schema>;

inline SchemaPtr make_schema(std::vector<Column> columns) {
  return std::make_shared<const Schema>(std::move(columns));
}

}  // namespace freshet
