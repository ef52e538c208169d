#include "freshet/types/sort_key.h"

#include <cstring>

namespace freshet {
namespace {

// One append of the bytes, most significant first (a push_back per byte
// checks the string's capacity eight times).
void append_big_endian(uint64_t bits, int bytes, std::string* out) {
  char text[8];
  for (int i = 0; i < bytes; ++i) text[i] = static_cast<char>((bits >> (8 * (bytes - 1 - i))) & 0xff);
  out->append(text, static_cast<size_t>(bytes));
}

// Signed integers: flip the sign bit so that negative numbers sort first.
void append_int(int64_t value, std::string* out) {
  append_big_endian(static_cast<uint64_t>(value) ^ (uint64_t{1} << 63), 8, out);
}

// IEEE doubles: negative numbers have all bits inverted, positive ones only the sign bit.
void append_double(double value, std::string* out) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  bits = (bits >> 63) ? ~bits : bits ^ (uint64_t{1} << 63);
  append_big_endian(bits, 8, out);
}

void append_decimal(int128 value, std::string* out) {
  unsigned __int128 bits = static_cast<unsigned __int128>(value) ^ (static_cast<unsigned __int128>(1) << 127);
  append_big_endian(static_cast<uint64_t>(bits >> 64), 8, out);
  append_big_endian(static_cast<uint64_t>(bits), 8, out);
}

// Strings: 0x00 escaped as 0x00 0xff, terminated by 0x00 0x01 (prefix-free,
// and a proper prefix sorts first).
// The runs between zero bytes are appended whole (most strings have none).
void append_string(std::string_view value, std::string* out) {
  while (!value.empty()) {
    const size_t zero = value.find('\0');
    if (zero == std::string_view::npos) {
      out->append(value);
      break;
    }
    out->append(value.data(), zero);
    out->append("\0\xff", 2);
    value.remove_prefix(zero + 1);
  }
  out->append("\0\x01", 2);
}

void append_value(const RowReader& row, size_t column, std::string* out) {
  switch (row.schema().type(column).id) {
    case TypeId::kBoolean: out->push_back(row.get_bool(column) ? 1 : 0); break;
    case TypeId::kReal:
    case TypeId::kDouble: append_double(row.get_double(column), out); break;
    case TypeId::kDecimal: append_decimal(row.get_decimal(column), out); break;
    case TypeId::kVarchar: append_string(row.get_string(column), out); break;
    default: append_int(row.get_int(column), out); break;
  }
}

}  // namespace

void append_sort_key(const RowReader& row, const std::vector<SortColumn>& columns, std::string* out) {
  for (const SortColumn& sort : columns) {
    // The NULL marker is chosen after the direction: it is never inverted.
    bool null = row.is_null(sort.column);
    if (null) {
      out->push_back(sort.nulls_first ? 0x00 : 0x02);
      continue;
    }
    out->push_back(0x01);
    size_t start = out->size();
    append_value(row, sort.column, out);
    if (sort.descending) {
      for (size_t i = start; i < out->size(); ++i) (*out)[i] = static_cast<char>(~(*out)[i]);
    }
  }
}

void encode_sorted_row(const RowReader& row, const std::vector<SortColumn>& columns, std::string* out) {
  out->clear();
  append_sort_key(row, columns, out);
  uint32_t key_length = static_cast<uint32_t>(out->size());
  out->append(row.row().bytes());
  out->append(reinterpret_cast<const char*>(&key_length), sizeof key_length);
}

RowRef sorted_row_payload(RowRef entry) {
  uint32_t key_length;
  std::memcpy(&key_length, entry.data + entry.size - sizeof key_length, sizeof key_length);
  return RowRef(entry.data + key_length, entry.size - key_length - static_cast<uint32_t>(sizeof key_length));
}

bool sorted_row_fits(const Schema& schema, RowRef entry) {
  uint32_t key_length;
  if (entry.size < sizeof key_length) return false;
  std::memcpy(&key_length, entry.data + entry.size - sizeof key_length, sizeof key_length);
  if (key_length > entry.size - sizeof key_length) return false;
  return row_fits_schema(schema, sorted_row_payload(entry));
}

}  // namespace freshet
