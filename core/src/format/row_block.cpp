#include "freshet/format/row_block.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "field_conversion.h"
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
  uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = bits << 8 | static_cast<uint8_t>(at[i]);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
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
        // Integral and inside int64 (2^63 itself is not): exact as a double.
        if (!(std::trunc(cell) == cell && std::fabs(cell) < 9223372036854775808.0)) {
          return internal::wrong_kind(type, {number_text(cell)});
        }
        // The value's text is only for a message: written only for one.
        const int64_t value = static_cast<int64_t>(cell);
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
