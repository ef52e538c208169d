#include "freshet/format/row_block.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "field_conversion.h"
#include "freshet/types/ordered_int.h"
#include "freshet/types/row.h"

namespace freshet::format {
namespace {

uint32_t read_u32(const char* at) {
  uint8_t b[4];
  std::memcpy(b, at, 4);
  return static_cast<uint32_t>(b[0]) | static_cast<uint32_t>(b[1]) << 8 | static_cast<uint32_t>(b[2]) << 16 |
         static_cast<uint32_t>(b[3]) << 24;
}

double read_f64(const char* at) {
  double value;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(&value, at, sizeof value);  // one load (wasm is little-endian)
#else
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = bits << 8 | static_cast<uint8_t>(at[i]);
  std::memcpy(&value, &bits, sizeof value);
#endif
  return value;
}

// An integral double inside int64 ([-2^63, 2^63), where JSON's integer
// text is read exactly) as int64, or false.
bool exact_int64(double cell, int64_t* value) {
  if (!(cell >= -9223372036854775808.0 && cell < 9223372036854775808.0)) return false;  // NaN too
  // Converted there and back rather than std::trunc: two instructions in
  // wasm and natively, where trunc without SSE4.1 is a dozen.
  *value = static_cast<int64_t>(cell);
  return static_cast<double>(*value) == cell;
}

// A number for a message, as JSON.stringify would mostly write it.
std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

Status malformed(const std::string& reason) { return Status(ErrorCode::kParseError, "malformed row block: " + reason); }

}  // namespace

RowBlockReader::RowBlockReader(TableShape table)
    : table_(std::move(table)), schema_(*table_.schema), is_key_(schema_.size(), false),
      row_(std::make_unique<RowBuilder>(schema_)) {
  std::vector<Column> key_columns;
  for (size_t column : table_.primary_key) {
    is_key_[column] = true;
    key_columns.push_back(schema_.column(column));
  }
  key_schema_ = std::make_unique<Schema>(std::move(key_columns));
  key_row_ = std::make_unique<RowBuilder>(*key_schema_);
  for (size_t c = 0; c < schema_.size(); ++c) {
    const SqlType& type = schema_.type(c);
    if (!type.is_integer() && type.id != TypeId::kDouble && type.id != TypeId::kBoolean) {
      plain_columns_.clear();
      break;
    }
    plain_columns_.push_back({schema_.offset(c), type.id, type.nullable});
  }
}
RowBlockReader::~RowBlockReader() = default;

Result<ParsedUpdates> RowBlockReader::read(std::string_view block) {
  ParsedUpdates updates;
  FRESHET_RETURN_IF_ERROR(read(block, updates, 0));
  return updates;
}

Status RowBlockReader::read(std::string_view block, ParsedUpdates& updates, uint64_t total_rows) {
  if (block.size() < kRowBlockHeaderBytes || read_u32(block.data()) != kRowBlockMagic) {
    return malformed("no row block header");
  }
  const uint64_t rows = read_u32(block.data() + 4), columns = read_u32(block.data() + 8);
  if (columns != schema_.size()) {
    return malformed(std::to_string(columns) + " columns, the table has " + std::to_string(schema_.size()));
  }
  const uint32_t flags = read_u32(block.data() + 12);
  if (flags & ~kRowBlockHasOps) return malformed("unknown flags " + std::to_string(flags));
  const uint64_t cells = rows * columns;
  const uint64_t kinds_offset = kRowBlockHeaderBytes + 8 * cells;
  const uint64_t ops_offset = kinds_offset + cells;
  if (ops_offset + (flags & kRowBlockHasOps ? rows : 0) > block.size()) {
    return malformed("shorter than its " + std::to_string(rows) + " rows");
  }
  Rows parts{block, block.data() + kRowBlockHeaderBytes, reinterpret_cast<const uint8_t*>(block.data() + kinds_offset),
             flags & kRowBlockHasOps ? reinterpret_cast<const uint8_t*>(block.data() + ops_offset) : nullptr, columns};
  // Every row's fixed part, and at most the block's string bytes (for
  // the parts to come, as many a row as this block's).
  const uint64_t first_record = updates.size();
  if (updates.empty() && rows != 0) {
    const uint64_t strings_offset = ops_offset + (flags & kRowBlockHasOps ? rows : 0);
    const uint64_t reserved_rows = std::max(rows, total_rows);
    updates.reserve(reserved_rows,
                    reserved_rows * schema_.fixed_bytes() + (block.size() - strings_offset) * reserved_rows / rows);
  }
  // In chunks, each a call: V8 runs a wasm function in its baseline code
  // until it has run for a while, and the optimized code it then compiles
  // serves later calls only, so a bulk load read in one call ran in baseline
  // code throughout (~2x slower). (Two call sites: wasm-opt inlines a
  // function called from one place whatever its size.)
  constexpr uint64_t kChunkRows = 2048;
  FRESHET_RETURN_IF_ERROR(read_rows(parts, 0, std::min(rows, kChunkRows), first_record, updates));
  for (uint64_t from = kChunkRows; from < rows; from += kChunkRows) {
    FRESHET_RETURN_IF_ERROR(read_rows(parts, from, std::min(rows, from + kChunkRows), first_record, updates));
  }
  return Status::OK();
}

__attribute__((noinline)) Status RowBlockReader::read_rows(const Rows& rows, uint64_t from, uint64_t to,
                                                           uint64_t first_record, ParsedUpdates& updates) {
  const uint64_t columns = rows.columns;
  for (uint64_t r = from; r < to; ++r) {
    const uint8_t* row_kinds = rows.kinds + r * columns;
    // Inserts only: a delete may be by key (finish_row), in the key's layout.
    if (!plain_columns_.empty() && (!rows.ops || rows.ops[r] == 1) &&
        read_plain_row(row_kinds, rows.cells + 8 * r * columns, updates)) {
      continue;
    }
    for (size_t c = 0; c < columns; ++c) {
      const uint64_t i = r * columns + c;
      Status status = set_cell(c, static_cast<RowBlockKind>(row_kinds[c]), read_f64(rows.cells + 8 * i), rows.block);
      if (!status.ok()) {
        row_->finish();  // the next read starts clean
        return Status(status.code(), "record " + std::to_string(first_record + r) + ", column '" +
                                         schema_.column(c).name + "': " + status.message());
      }
    }
    Status status = rows.ops && rows.ops[r] > 1 ? malformed("an unknown operation " + std::to_string(rows.ops[r]))
                                                : finish_row(!rows.ops || rows.ops[r] == 1, row_kinds, updates);
    if (!status.ok()) {
      row_->finish();
      return Status(status.code(), "record " + std::to_string(first_record + r) + ", " + status.message());
    }
  }
  return Status::OK();
}

bool RowBlockReader::read_plain_row(const uint8_t* kinds, const char* cells, ParsedUpdates& updates) const {
  uint8_t* row = updates.push_room(/*insert=*/true, schema_.fixed_bytes());
  for (uint32_t i = 0; i < schema_.bitmap_bytes(); ++i) row[i] = 0;  // a byte or two: no memset call
  for (size_t c = 0; c < plain_columns_.size(); ++c) {
    const PlainColumn& column = plain_columns_[c];
    uint8_t* slot = row + column.offset;
    const double cell = read_f64(cells + 8 * c);
    bool plain = false;
    int64_t integer = 0;
    switch (static_cast<RowBlockKind>(kinds[c])) {
      case RowBlockKind::kNumber:
        // The checks of set_cell and field_conversion's set_integer and
        // set_floating; the stores of RowBuilder::set_int and set_double.
        switch (column.type) {
          case TypeId::kBigInt:
            plain = exact_int64(cell, &integer);
            if (plain) store_ordered_int<int64_t>(slot, integer);
            break;
          case TypeId::kInt:
            plain = exact_int64(cell, &integer) && integer >= INT32_MIN && integer <= INT32_MAX;
            if (plain) store_ordered_int<int32_t>(slot, static_cast<int32_t>(integer));
            break;
          case TypeId::kSmallInt:
            plain = exact_int64(cell, &integer) && integer >= INT16_MIN && integer <= INT16_MAX;
            if (plain) store_ordered_int<int16_t>(slot, static_cast<int16_t>(integer));
            break;
          case TypeId::kTinyInt:
            plain = exact_int64(cell, &integer) && integer >= INT8_MIN && integer <= INT8_MAX;
            if (plain) store_ordered_int<int8_t>(slot, static_cast<int8_t>(integer));
            break;
          case TypeId::kDouble: {
            plain = std::isfinite(cell);
            const double canonical = cell == 0 ? 0.0 : cell;  // one zero (row.cpp canonical_double)
            std::memcpy(slot, &canonical, sizeof canonical);
            break;
          }
          default:
            break;
        }
        break;
      case RowBlockKind::kNull:
        plain = column.nullable;
        row[c >> 3] |= static_cast<uint8_t>(1u << (c & 7));
        std::memset(slot, 0, fixed_width(column.type));  // a NULL's slot is zeros, as RowBuilder::set_null writes
        break;
      case RowBlockKind::kFalse:
      case RowBlockKind::kTrue:
        plain = column.type == TypeId::kBoolean;
        if (plain) *slot = kinds[c] == static_cast<uint8_t>(RowBlockKind::kTrue);
        break;
      default:  // ABSENT (a default, or a delete by key), a string, a kind unknown
        break;
    }
    if (!plain) {
      updates.pop_back();
      return false;
    }
  }
  return true;
}

Status RowBlockReader::finish_row(bool insert, const uint8_t* kinds, ParsedUpdates& updates) {
  // As json_input.cpp's finish_row: a delete from a keyed table that gives
  // key columns only is by key, and leaves the other columns unset.
  bool key_only = !insert && !table_.primary_key.empty();
  for (size_t column = 0; key_only && column < schema_.size(); ++column) {
    if (kinds[column] != static_cast<uint8_t>(RowBlockKind::kAbsent) && !is_key_[column]) key_only = false;
  }
  for (size_t column = 0; column < schema_.size(); ++column) {
    if (kinds[column] != static_cast<uint8_t>(RowBlockKind::kAbsent) || (key_only && !is_key_[column])) continue;
    if (!schema_.type(column).nullable) {
      return Status(ErrorCode::kTypeError, "column '" + schema_.column(column).name + "': NULL in NOT NULL column (missing from the record)");
    }
    row_->set_null(column);
  }
  RowRef row = row_->finish();
  if (!key_only) {
    updates.push(insert, row);
    return Status::OK();
  }
  RowReader reader(schema_, row);
  for (size_t i = 0; i < table_.primary_key.size(); ++i) key_row_->copy_field(i, reader, table_.primary_key[i]);
  updates.push(false, key_row_->finish(), /*key_only=*/true);
  return Status::OK();
}

Status RowBlockReader::set_cell(size_t column, RowBlockKind kind, double cell, std::string_view block) {
  const SqlType& type = schema_.type(column);
  switch (kind) {
    case RowBlockKind::kAbsent:
      return Status::OK();  // finish_row() decides
    case RowBlockKind::kNull:
      if (!type.nullable) return Status(ErrorCode::kTypeError, "NULL in NOT NULL column");
      row_->set_null(column);
      return Status::OK();
    case RowBlockKind::kNumber: {
      if (type.is_integer()) {
        int64_t value = 0;
        if (!exact_int64(cell, &value)) return internal::wrong_kind(type, {number_text(cell)});
        // The value's text is only for a message: written only for one.
        Status status = internal::set_integer(*row_, column, value, {});
        return status.ok() ? status : internal::set_integer(*row_, column, value, std::to_string(value));
      }
      if (type.is_floating() && std::isfinite(cell)) {
        Status status = internal::set_floating(*row_, column, cell, {});
        return status.ok() ? status : internal::set_floating(*row_, column, cell, number_text(cell));
      }
      return internal::wrong_kind(type, {number_text(cell)});
    }
    case RowBlockKind::kFalse:
    case RowBlockKind::kTrue:
      if (type.id != TypeId::kBoolean) return internal::wrong_kind(type, {kind == RowBlockKind::kTrue ? "true" : "false"});
      row_->set_bool(column, kind == RowBlockKind::kTrue);
      return Status::OK();
    case RowBlockKind::kString: {
      if (!(cell >= 0 && std::trunc(cell) == cell && cell + 4 <= static_cast<double>(block.size()))) {
        return malformed("a string outside the block");
      }
      const size_t offset = static_cast<size_t>(cell);
      const size_t length = read_u32(block.data() + offset);
      if (length > block.size() - offset - 4) return malformed("a string outside the block");
      std::string_view text(block.data() + offset + 4, length);
      if (!simdjson::validate_utf8(text.data(), text.size())) return malformed("a string that is not UTF-8");
      return internal::set_from_text(*row_, column, text, {text, true});
    }
  }
  return malformed("a cell of unknown kind " + std::to_string(static_cast<int>(kind)));
}

}  // namespace freshet::format
