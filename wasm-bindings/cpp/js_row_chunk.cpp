#include "js_row_chunk.h"

#include <cstring>

#include "freshet/types/row.h"
#include "freshet/zset/cursor.h"

namespace freshet::wasm {
namespace {

enum Kind : uint8_t { kNumber = 0, kBoolean = 1, kString = 2, kUnsupported = 3 };
constexpr size_t kMaxColumns = 30;                   // the NULL mask is an int32 in JS
constexpr int64_t kMaxSafeInteger = (int64_t{1} << 53) - 1;
constexpr size_t kHeaderWords = 6;

Kind kind_of(TypeId type) {
  switch (type) {
    case TypeId::kBoolean: return kBoolean;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
    case TypeId::kDouble: return kNumber;
    case TypeId::kVarchar: return kString;
    default: return kUnsupported;
  }
}

uint32_t string_length(RowRef row, uint32_t offset) {
  uint32_t length;
  std::memcpy(&length, row.data + offset, sizeof length);
  return length;
}

uint64_t bits_of(double value) {
  if (value == 0) value = 0;  // -0.0 as 0: the JSON text writes "0"
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Strict UTF-8 (no overlong forms, no surrogates, at most U+10FFFF): what
// TextDecoder reads back as the same code points the JSON text carries.
bool valid_utf8(const uint8_t* bytes, size_t size) {
  size_t i = 0;
  while (i < size) {
    uint8_t lead = bytes[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t extra;
    uint32_t point;
    if (lead >= 0xC2 && lead <= 0xDF) {
      extra = 1, point = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      extra = 2, point = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      extra = 3, point = lead & 0x07;
    } else {
      return false;
    }
    if (i + extra >= size) return false;  // the sequence is cut off
    for (size_t k = 1; k <= extra; ++k) {
      if ((bytes[i + k] & 0xC0) != 0x80) return false;
      point = (point << 6) | (bytes[i + k] & 0x3F);
    }
    if ((extra == 2 && (point < 0x800 || (point >= 0xD800 && point <= 0xDFFF))) ||
        (extra == 3 && (point < 0x10000 || point > 0x10FFFF))) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

// Appends one row: false when a value cannot go in this layout.
bool write_row(const Schema& schema, const Kind* kinds, RowRef row, std::vector<uint64_t>* out) {
  RowReader reader(schema, row);
  const size_t columns = schema.size();
  const size_t first = out->size();
  out->resize(first + 1 + columns);
  uint64_t mask = 0;
  size_t string_bytes = 0;
  uint32_t string_position = schema.fixed_bytes();  // bodies follow in column order
  const uint8_t* strings = row.data + string_position;
  for (size_t c = 0; c < columns; ++c) {
    uint64_t& slot = (*out)[first + 1 + c];
    uint32_t length = kinds[c] == kString ? string_length(row, schema.offset(c)) : 0;
    if (reader.is_null(c)) {
      mask |= uint64_t{1} << c;
      slot = bits_of(0);
    } else if (kinds[c] == kString) {
      if (!valid_utf8(strings + string_bytes, length)) return false;
      slot = bits_of(static_cast<double>(length));
    } else if (kinds[c] == kBoolean) {
      slot = bits_of(reader.get_bool(c) ? 1 : 0);
    } else if (schema.type(c).id == TypeId::kDouble) {
      slot = bits_of(reader.get_double(c));
    } else {
      int64_t value = reader.get_int(c);
      if (value > kMaxSafeInteger || value < -kMaxSafeInteger) return false;
      slot = bits_of(static_cast<double>(value));
    }
    string_bytes += length;
  }
  (*out)[first] = bits_of(static_cast<double>(mask));
  if (string_bytes > 0) {
    const size_t at = out->size();
    out->resize(at + (string_bytes + 7) / 8, 0);
    std::memcpy(out->data() + at, strings, string_bytes);
  }
  return true;
}

// Appends each row of sign `positive` |w| times; returns the rows written, or -1.
int64_t write_rows(const Schema& schema, const Kind* kinds, const Batch& batch, bool positive,
                   std::vector<uint64_t>* out) {
  int64_t rows = 0;
  for (BatchCursor cursor(batch); cursor.valid(); cursor.next()) {
    Weight weight = cursor.weight();
    if ((weight > 0) != positive || weight == 0) continue;
    for (uint64_t copies = weight > 0 ? static_cast<uint64_t>(weight) : 0 - static_cast<uint64_t>(weight);
         copies > 0; --copies, ++rows) {
      if (!write_row(schema, kinds, cursor.key(), out)) return -1;
    }
  }
  return rows;
}

}  // namespace

bool append_js_row_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::vector<uint64_t>* out) {
  const Schema& schema = endpoint.row_schema();
  const size_t columns = schema.size();
  if (endpoint.through_index() || columns > kMaxColumns) return false;
  Kind kinds[kMaxColumns];
  for (size_t c = 0; c < columns; ++c) {
    kinds[c] = kind_of(schema.type(c).id);
    if (kinds[c] == kUnsupported) return false;
  }
  const size_t at = out->size();
  out->resize(at + kHeaderWords + columns);
  uint64_t* header = out->data() + at;
  header[0] = bits_of(static_cast<double>(chunk.sequence_number));
  header[1] = bits_of(static_cast<double>(chunk.step));
  header[2] = bits_of((chunk.snapshot ? 1 : 0) + (chunk.snapshot_complete ? 2 : 0));
  header[5] = bits_of(static_cast<double>(columns));
  for (size_t c = 0; c < columns; ++c) header[kHeaderWords + c] = bits_of(kinds[c]);
  int64_t inserted = write_rows(schema, kinds, *chunk.batch, true, out);
  int64_t deleted = inserted < 0 ? -1 : write_rows(schema, kinds, *chunk.batch, false, out);
  if (deleted < 0) {
    out->resize(at);
    return false;
  }
  (*out)[at + 3] = bits_of(static_cast<double>(inserted));
  (*out)[at + 4] = bits_of(static_cast<double>(deleted));
  return true;
}

bool write_js_row_chunk(const OutputEndpoint& endpoint, const OutputChunk& chunk, std::vector<uint64_t>* out) {
  out->clear();
  return append_js_row_chunk(endpoint, chunk, out);
}

}  // namespace freshet::wasm
