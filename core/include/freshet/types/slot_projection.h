// SlotProjection: rows of a few columns of another row, built by copying
// their fixed slots and null flags: a map's key and value rows when they
// are input columns (ColumnProjection, operators/map.h) — most maps of a
// bulk load: every join and grouping keys its input so — and a keyed
// table's key of each row it ingests (operators/upsert_input.h). A mapper
// (a std::function evaluating column expressions into RowBuilders, each row
// then finished into its own buffer) cost ~500 instructions an entry, a
// RowBuilder copying one BIGINT key ~270; this, a few dozen.
//
// Only for output columns of fixed width (no VARCHAR): a row is then its
// null bitmap and slots, every byte of which the projection writes.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "freshet/common/copy_row_bytes.h"
#include "freshet/types/row.h"
#include "freshet/types/schema.h"

namespace freshet {

class SlotProjection {
 public:
  //! The projection of `from`'s columns `columns` into rows of `to`, or
  //! nothing when `to` has a VARCHAR column or a column's type differs.
  static std::optional<SlotProjection> of(const Schema& from, const std::vector<size_t>& columns, const Schema& to) {
    if (columns.size() != to.size() || to.string_count() != 0) return std::nullopt;
    SlotProjection projection;
    projection.row_.assign(to.fixed_bytes(), 0);
    projection.bitmap_bytes_ = to.bitmap_bytes();
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] >= from.size() || from.type(columns[c]).id != to.type(c).id) return std::nullopt;
      const uint32_t width = (c + 1 < to.size() ? to.offset(c + 1) : to.fixed_bytes()) - to.offset(c);
      projection.slots_.push_back(
          {from.offset(columns[c]), to.offset(c), width, static_cast<uint32_t>(columns[c]), static_cast<uint32_t>(c)});
    }
    return projection;
  }

  //! The projection of `row`, valid until the next call; sets `any_null`
  //! when a projected column is NULL.
  RowRef project(RowRef row, bool& any_null) {
    uint8_t* out = row_.data();
    for (uint32_t i = 0; i < bitmap_bytes_; ++i) out[i] = 0;
    for (const Slot& slot : slots_) {
      uint8_t* to = out + slot.to;
      if ((row.data[slot.from_column >> 3] >> (slot.from_column & 7)) & 1) {
        out[slot.to_column >> 3] |= static_cast<uint8_t>(1u << (slot.to_column & 7));
        std::memset(to, 0, slot.width);  // a NULL's slot is zero (row.h)
        any_null = true;
        continue;
      }
      copy_slot_bytes(to, row.data + slot.from, slot.width);
    }
    return RowRef(out, static_cast<uint32_t>(row_.size()));
  }

 private:
  struct Slot {
    uint32_t from, to, width;         // the slots' offsets, and their width
    uint32_t from_column, to_column;  // for the null flags
  };
  std::vector<Slot> slots_;
  std::vector<uint8_t> row_;  // the row projected last
  uint32_t bitmap_bytes_ = 0;
};

}  // namespace freshet
