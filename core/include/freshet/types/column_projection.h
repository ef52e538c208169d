// ColumnProjection: some columns of a row as a row of their own (a keyed
// table's key of each row it ingests), copied slot by slot when every chosen
// column has a fixed width.
//
// Why: a RowBuilder checks each field's type and null, then copies the row
// it built once more in finish(); for a key of one BIGINT that is ~270
// instructions a row natively, and a bulk load takes hundreds of thousands
// of rows. The projected row is the same bytes: its null bitmap holds bit i
// for the i-th chosen column, its slots the source's (a NULL's slot is
// zeros in both, as RowBuilder::set_null writes).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "freshet/types/schema.h"

namespace freshet {

class ColumnProjection {
 public:
  //! Columns `columns` of rows of `from` (the projected row's schema has
  //! them in this order).
  ColumnProjection(const Schema& from, const std::vector<size_t>& columns) {
    uint32_t bitmap = static_cast<uint32_t>((columns.size() + 7) / 8), at = bitmap;
    for (size_t i = 0; i < columns.size(); ++i) {
      const TypeId type = from.type(columns[i]).id;
      if (type == TypeId::kVarchar) {
        slots_.clear();
        return;
      }
      const uint32_t width = fixed_width(type);
      slots_.push_back({from.offset(columns[i]), at, width, static_cast<uint32_t>(columns[i])});
      at += width;
    }
    bitmap_bytes_ = bitmap;
    width_ = at;
  }

  //! Whether project() serves: every column has a fixed width (none is
  //! VARCHAR) and there is at least one. Otherwise build the row with a RowBuilder.
  bool fixed() const { return !slots_.empty(); }
  //! The projected row's size in bytes, when fixed().
  uint32_t width() const { return width_; }

  //! Writes the projection of `row` (of the schema given) at `out`, width() bytes.
  void project(const uint8_t* row, uint8_t* out) const {
    for (uint32_t i = 0; i < bitmap_bytes_; ++i) out[i] = 0;  // a byte or two: no memset call
    for (size_t i = 0; i < slots_.size(); ++i) {
      const Slot& slot = slots_[i];
      // Copies of a constant size: loads and stores in wasm, where a memcpy
      // of unknown size is a call out of the compiled code (memory.copy).
      switch (slot.width) {
        case 1:
          std::memcpy(out + slot.to, row + slot.from, 1);
          break;
        case 2:
          std::memcpy(out + slot.to, row + slot.from, 2);
          break;
        case 4:
          std::memcpy(out + slot.to, row + slot.from, 4);
          break;
        case 8:
          std::memcpy(out + slot.to, row + slot.from, 8);
          break;
        case 16:
          std::memcpy(out + slot.to, row + slot.from, 16);
          break;
        default:
          std::memcpy(out + slot.to, row + slot.from, slot.width);
          break;
      }
      if (row[slot.column >> 3] & (1u << (slot.column & 7))) out[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    }
  }

 private:
  struct Slot {
    uint32_t from, to, width, column;  // offsets in the source and the projected row; the source's column
  };
  std::vector<Slot> slots_;  // empty: not fixed()
  uint32_t bitmap_bytes_ = 0, width_ = 0;
};

}  // namespace freshet
