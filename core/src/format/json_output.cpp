// JSON encoding of rows (json_output.h).
//
// ## Design
// Everything appends into the caller's std::string: no value allocates (the
// only exceptions are DATE and TIMESTAMP outside years 0..9999, which go
// through temporal.h's formatters). Fields are read straight from the row's
// slots (row.h's layout), and VARCHAR bodies are walked in column order
// instead of being located from scratch for each column.
//
// Floating point: libc++ 14 has no floating std::to_chars, so the shortest
// round-trip text is found in two steps. Most values in data are short
// decimals (12.5, 0.25, 1234.56): when |x| = m / 10^k for an integer m below
// 2^53 and k <= 22, dividing m by 10^k in IEEE arithmetic is exactly what a
// reader's strtod does, so that equality proves the text "m/10^k" reads back
// as x, with no formatting call; trying k from 1 up finds every text of up to
// 15 digits (and of 16 below 2^53) in the fewest. The other doubles of that
// range (sums such as 1309892.8500000041) need 16 or 17 digits: simdjson's
// to_chars (Grisu2) writes text that always reads back as x, in at most 17
// digits, so at most one more than the fewest. That replaced, for them, a
// search with snprintf %.15g, %.16g, %.17g and strtod, which in wasm runs
// musl's long-double arithmetic (~3 µs a value); the search remains for
// magnitudes outside [1e-4, 1e15), rare in data, where Grisu2 can be further
// off (15 digits always survive a round trip through a normal double, so a
// shorter text is never missed; subnormals, with fewer digits, search from 1).
#include "freshet/format/json_output.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "freshet/types/decimal.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"
#include "freshet/zset/cursor.h"

namespace freshet::format {
namespace {

template <typename T>
T load(RowRef row, uint32_t offset) {
  T value;
  std::memcpy(&value, row.data + offset, sizeof(T));
  return value;
}

void append_integer(int64_t value, std::string* out) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out->append(buffer, static_cast<size_t>(result.ptr - buffer));
}

// ---- REAL and DOUBLE ----

// Powers of ten a double holds exactly (up to 10^22).
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
// A double's fast path stops at 2^53 anyway (m of at most 16 digits, and
// |x| >= 1e-4 leaves at most 20 fraction digits); a float's stops at 9, so
// that float times 10^k stays exact in a double.
constexpr int kMaxFastFractionDigits = 20;
constexpr int kMaxFastFractionDigitsReal = 9;

// Appends `digits` with a decimal point `fraction_digits` from the right ("0.05" for 5, 2).
void append_scaled(bool negative, uint64_t digits, int fraction_digits, std::string* out) {
  char buffer[32];
  char* end = std::to_chars(buffer, buffer + sizeof buffer, digits).ptr;
  int length = static_cast<int>(end - buffer);
  if (negative) out->push_back('-');
  if (fraction_digits == 0) {
    out->append(buffer, static_cast<size_t>(length));
    return;
  }
  if (length <= fraction_digits) {
    out->append("0.");
    out->append(static_cast<size_t>(fraction_digits - length), '0');
    out->append(buffer, static_cast<size_t>(length));
    return;
  }
  out->append(buffer, static_cast<size_t>(length - fraction_digits));
  out->push_back('.');
  out->append(end - fraction_digits, static_cast<size_t>(fraction_digits));
}

// Appends snprintf's %g text, with the exponent's leading zeros dropped (1e-05 -> 1e-5).
void append_g_text(const char* text, int length, std::string* out) {
  const char* exponent = static_cast<const char*>(std::memchr(text, 'e', static_cast<size_t>(length)));
  if (exponent == nullptr) {
    out->append(text, static_cast<size_t>(length));
    return;
  }
  const char* digits = exponent + 2;  // past 'e' and the sign
  const char* end = text + length;
  out->append(text, static_cast<size_t>(digits - text));
  while (digits + 1 < end && *digits == '0') ++digits;
  out->append(digits, static_cast<size_t>(end - digits));
}

// Special values and integers below 1e17, written as JSON allows; false for the rest.
bool append_special_or_integral(double value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else if (std::fabs(value) < 1e17 && value == std::trunc(value)) {
    append_integer(static_cast<int64_t>(value), out);
  } else {
    return false;
  }
  return true;
}

void append_double(double value, std::string* out) {
  if (append_special_or_integral(value, out)) return;
  double magnitude = std::fabs(value);
  if (magnitude >= 1e-4 && magnitude < 1e15) {
    for (int k = 1; k <= kMaxFastFractionDigits; ++k) {
      double scaled = std::round(magnitude * kPow10[k]);
      if (scaled >= 0x1p53) break;
      if (scaled / kPow10[k] == magnitude) {
        append_scaled(value < 0, static_cast<uint64_t>(scaled), k, out);
        return;
      }
    }
    // Not m / 10^k with m below 2^53: the fewest digits are 16 or 17.
    char buffer[40];
    char* end = simdjson::internal::to_chars(buffer, buffer + sizeof buffer, value);
    append_g_text(buffer, static_cast<int>(end - buffer), out);
    return;
  }
  char buffer[40];
  int length = 0;
  // Subnormals hold fewer digits than DBL_DIG: search from one digit up.
  for (int precision = magnitude < DBL_MIN ? 1 : DBL_DIG; precision <= 17; ++precision) {
    length = std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  append_g_text(buffer, length, out);
}

// REAL: the shortest text that reads back as the same float (not the double it widens to).
void append_real(float value, std::string* out) {
  if (append_special_or_integral(value, out)) return;
  float magnitude = std::fabs(value);
  if (magnitude >= 1e-4f && magnitude < 1e7f) {
    for (int k = 1; k <= kMaxFastFractionDigitsReal; ++k) {
      // Exact: 24 bits of float times at most 30 bits of 10^k fit a double.
      double scaled = std::round(static_cast<double>(magnitude) * kPow10[k]);
      if (scaled >= 0x1p24) break;
      // Both operands are exact floats, so the division rounds once, as strtof does.
      if (static_cast<float>(scaled) / static_cast<float>(kPow10[k]) == magnitude) {
        append_scaled(value < 0, static_cast<uint64_t>(scaled), k, out);
        return;
      }
    }
  }
  char buffer[40];
  int length = 0;
  for (int precision = magnitude < FLT_MIN ? 1 : FLT_DIG; precision <= 9; ++precision) {
    length = std::snprintf(buffer, sizeof buffer, "%.*g", precision, static_cast<double>(value));
    if (std::strtof(buffer, nullptr) == value) break;
  }
  append_g_text(buffer, length, out);
}

// ---- DECIMAL ----

void append_decimal(int128 unscaled, uint8_t scale, std::string* out) {
  bool negative = unscaled < 0;
  // The unsigned magnitude, so that the most negative value is fine.
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1 : static_cast<unsigned __int128>(unscaled);
  if (magnitude <= UINT64_MAX) {
    append_scaled(negative, static_cast<uint64_t>(magnitude), scale, out);
    return;
  }
  char buffer[48];  // 39 digits at most
  char* begin = buffer + sizeof buffer;
  do {
    *--begin = static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  // More than 19 digits and a scale of at most 38: pad only when the scale needs it.
  while (buffer + sizeof buffer - begin <= scale) *--begin = '0';
  if (negative) out->push_back('-');
  size_t integral = static_cast<size_t>(buffer + sizeof buffer - begin) - scale;
  out->append(begin, integral);
  if (scale > 0) {
    out->push_back('.');
    out->append(begin + integral, scale);
  }
}

// ---- DATE and TIMESTAMP ----

void write_two_digits(uint32_t value, char* at) {
  at[0] = static_cast<char>('0' + value / 10);
  at[1] = static_cast<char>('0' + value % 10);
}

// Writes "YYYY-MM-DD" (10 characters); false when the year is outside 0..9999.
bool write_date(int32_t days, char* at) {
  CivilDate date = civil_from_days(days);
  if (date.year < 0 || date.year > 9999) return false;
  uint32_t year = static_cast<uint32_t>(date.year);
  write_two_digits(year / 100, at);
  write_two_digits(year % 100, at + 2);
  at[4] = '-';
  write_two_digits(date.month, at + 5);
  at[7] = '-';
  write_two_digits(date.day, at + 8);
  return true;
}

void append_date(int32_t days, std::string* out) {
  char text[12];
  text[0] = '"';
  if (!write_date(days, text + 1)) {
    append_json_string(format_date(days), out);
    return;
  }
  text[11] = '"';
  out->append(text, sizeof text);
}

// As format_timestamp: milliseconds when exact, else microseconds, none when zero.
void append_timestamp(int64_t micros, std::string* out) {
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    --days;
  }
  char text[32];
  text[0] = '"';
  if (!write_date(static_cast<int32_t>(days), text + 1)) {
    append_json_string(format_timestamp(micros), out);
    return;
  }
  uint32_t seconds = static_cast<uint32_t>(rest / kMicrosPerSecond);
  uint32_t fraction = static_cast<uint32_t>(rest % kMicrosPerSecond);
  text[11] = ' ';
  write_two_digits(seconds / 3600, text + 12);
  text[14] = ':';
  write_two_digits(seconds / 60 % 60, text + 15);
  text[17] = ':';
  write_two_digits(seconds % 60, text + 18);
  size_t length = 20;
  if (fraction != 0) {
    bool millis = fraction % 1000 == 0;
    uint32_t digits = millis ? fraction / 1000 : fraction;
    size_t width = millis ? 3 : 6;
    text[length++] = '.';
    for (size_t i = width; i > 0; --i, digits /= 10) text[length + i - 1] = static_cast<char>('0' + digits % 10);
    length += width;
  }
  text[length++] = '"';
  out->append(text, length);
}

// ---- VARCHAR ----

// Bytes that end a run copied as is: what JSON must escape, and non-ASCII (to validate).
constexpr std::array<bool, 256> kStopsRun = [] {
  std::array<bool, 256> table{};
  for (int byte = 0; byte < 256; ++byte) table[byte] = byte < 0x20 || byte == '"' || byte == '\\' || byte >= 0x80;
  return table;
}();

void append_escape(uint8_t byte, std::string* out) {
  switch (byte) {
    case '"': out->append("\\\""); return;
    case '\\': out->append("\\\\"); return;
    case '\n': out->append("\\n"); return;
    case '\r': out->append("\\r"); return;
    case '\t': out->append("\\t"); return;
    case '\b': out->append("\\b"); return;
    case '\f': out->append("\\f"); return;
    default: break;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  char text[6] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 15]};
  out->append(text, sizeof text);
}

// The UTF-8 sequence starting with a byte >= 0x80: its length when valid, or
// minus the length of its maximal invalid subpart (Unicode §3.9, as WHATWG).
int utf8_sequence(const uint8_t* bytes, size_t available) {
  uint8_t lead = bytes[0];
  int continuations;
  uint8_t low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    continuations = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    continuations = 2;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    continuations = 3;
    if (lead == 0xF0) low = 0x90;   // no overlong forms
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return -1;
  }
  for (int i = 1; i <= continuations; ++i) {
    if (static_cast<size_t>(i) >= available) return -i;
    uint8_t byte = bytes[i];
    bool valid = i == 1 ? byte >= low && byte <= high : byte >= 0x80 && byte <= 0xBF;
    if (!valid) return -i;
  }
  return continuations + 1;
}

// ---- Rows ----

// Appends the non-NULL value of a fixed-width column.
void append_fixed_value(const SqlType& type, RowRef row, uint32_t offset, std::string* out) {
  switch (type.id) {
    case TypeId::kBoolean: out->append(load<uint8_t>(row, offset) != 0 ? "true" : "false"); return;
    case TypeId::kTinyInt: append_integer(load_ordered_int<int8_t>(row.data + offset), out); return;
    case TypeId::kSmallInt: append_integer(load_ordered_int<int16_t>(row.data + offset), out); return;
    case TypeId::kInt: append_integer(load_ordered_int<int32_t>(row.data + offset), out); return;
    case TypeId::kBigInt: append_integer(load_ordered_int<int64_t>(row.data + offset), out); return;
    case TypeId::kReal: append_real(load<float>(row, offset), out); return;
    case TypeId::kDouble: append_double(load<double>(row, offset), out); return;
    case TypeId::kDecimal: append_decimal(load<int128>(row, offset), type.scale, out); return;
    case TypeId::kDate: append_date(load_ordered_int<int32_t>(row.data + offset), out); return;
    case TypeId::kTimestamp: append_timestamp(load_ordered_int<int64_t>(row.data + offset), out); return;
    // TIME as Feldera's default "%H:%M:%S%.f"; intervals (which Feldera does not
    // serialize) as the text CAST(... AS VARCHAR) gives: "+1 02:00:00", "+1-02".
    case TypeId::kTime: append_json_string(format_time(load_ordered_int<int64_t>(row.data + offset)), out); return;
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth:
      append_json_string(format_interval(load_ordered_int<int64_t>(row.data + offset), type), out);
      return;
    case TypeId::kVarchar: break;  // the caller's: the body is not in the slot
  }
}

// Appends a row's fields, each after its prefix (`{"name":` / `,"name":`); a
// null `prefixes` escapes the names on the fly.
void append_fields(const Schema& schema, RowRef row, const std::string* prefixes, std::string* out) {
  RowReader reader(schema, row);
  uint32_t string_position = schema.fixed_bytes();  // bodies follow in column order
  for (size_t c = 0; c < schema.size(); ++c) {
    if (prefixes != nullptr) {
      out->append(prefixes[c]);
    } else {
      out->push_back(c == 0 ? '{' : ',');
      append_json_string(schema.column(c).name, out);
      out->push_back(':');
    }
    const SqlType& type = schema.type(c);
    if (type.id == TypeId::kVarchar) {
      uint32_t length = load<uint32_t>(row, schema.offset(c));
      if (reader.is_null(c)) {
        out->append("null");
      } else {
        append_json_string({reinterpret_cast<const char*>(row.data + string_position), length}, out);
      }
      string_position += length;
    } else if (reader.is_null(c)) {
      out->append("null");
    } else {
      append_fixed_value(type, row, schema.offset(c), out);
    }
  }
  out->append(schema.empty() ? "{}" : "}");
}

}  // namespace

void append_json_string(std::string_view text, std::string* out) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  size_t size = text.size();
  size_t run_start = 0;  // start of the bytes not yet appended, all to be copied as is
  size_t i = 0;
  out->push_back('"');
  while (i < size) {
    if (!kStopsRun[bytes[i]]) {
      ++i;
      continue;
    }
    if (bytes[i] >= 0x80) {
      int sequence = utf8_sequence(bytes + i, size - i);
      if (sequence > 0) {  // valid: stays in the run
        i += static_cast<size_t>(sequence);
        continue;
      }
      out->append(text.data() + run_start, i - run_start);
      out->append("\xEF\xBF\xBD");  // U+FFFD
      i += static_cast<size_t>(-sequence);
    } else {
      out->append(text.data() + run_start, i - run_start);
      append_escape(bytes[i], out);
      ++i;
    }
    run_start = i;
  }
  out->append(text.data() + run_start, size - run_start);
  out->push_back('"');
}

void append_json_value(const RowReader& row, size_t column, std::string* out) {
  const SqlType& type = row.schema().type(column);
  if (row.is_null(column)) {
    out->append("null");
  } else if (type.id == TypeId::kVarchar) {
    append_json_string(row.get_string(column), out);
  } else {
    append_fixed_value(type, row.row(), row.schema().offset(column), out);
  }
}

void append_json_row(const RowReader& row, std::string* out) { append_fields(row.schema(), row.row(), nullptr, out); }

JsonRowEncoder::JsonRowEncoder(const Schema& schema) : schema_(&schema) {
  prefixes_.reserve(schema.size());
  for (size_t c = 0; c < schema.size(); ++c) {
    std::string prefix(1, c == 0 ? '{' : ',');
    append_json_string(schema.column(c).name, &prefix);
    prefix.push_back(':');
    prefixes_.push_back(std::move(prefix));
  }
}

void JsonRowEncoder::append_row(RowRef row, std::string* out) const {
  append_fields(*schema_, row, prefixes_.data(), out);
}

size_t append_insert_delete(const Batch& batch, const Schema& schema, std::string* out) {
  JsonRowEncoder encoder(schema);
  size_t records = 0;
  for (BatchCursor cursor(batch); cursor.valid(); cursor.next()) {
    Weight weight = cursor.weight();
    if (weight == 0) continue;  // never in a consolidated batch
    if (records > 0) out->push_back(',');
    size_t record_start = out->size();
    out->append(weight > 0 ? "{\"insert\":" : "{\"delete\":");
    encoder.append_row(cursor.key(), out);
    out->push_back('}');
    // A row of weight w is w records: copy the first one's text.
    uint64_t copies = weight > 0 ? static_cast<uint64_t>(weight) : 0 - static_cast<uint64_t>(weight);
    size_t record_length = out->size() - record_start;
    size_t needed = out->size() + static_cast<size_t>(copies - 1) * (record_length + 1);
    // Only when short, and growing geometrically: libc++ 14's reserve()
    // reallocates to an exact fit (even when the capacity suffices), which
    // per record would make encoding quadratic.
    if (copies > 1 && needed > out->capacity()) out->reserve(std::max(needed, 2 * out->capacity()));
    // No reallocation below (reserved), so the source stays where it is.
    for (uint64_t copy = 1; copy < copies; ++copy) {
      out->push_back(',');
      out->append(out->data() + record_start, record_length);
    }
    records += copies;
  }
  return records;
}

void append_rows_by_sign(const Batch& batch, const JsonRowEncoder& encoder, std::string* positive,
                         std::string* negative) {
  for (BatchCursor cursor(batch); cursor.valid(); cursor.next()) {
    Weight weight = cursor.weight();
    std::string* out = weight > 0 ? positive : negative;
    for (uint64_t copies = weight > 0 ? static_cast<uint64_t>(weight) : 0 - static_cast<uint64_t>(weight);
         copies > 0; --copies) {
      if (!out->empty()) out->push_back(',');
      encoder.append_row(cursor.key(), out);
    }
  }
}

}  // namespace freshet::format
