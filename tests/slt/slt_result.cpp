// Printing values the way sqllogictest's SQLite harness (slt_sqlite.c) does:
// NULL prints "NULL" whatever the letter; I is "%lld" of
// sqlite3_column_int64, R is "%.3f" of sqlite3_column_double, T is
// sqlite3_column_text with "" shown as "(empty)" and bytes outside ' '..'~'
// shown as '@'. A result with more values than the hash threshold is given
// as the MD5 of the values, each followed by "\n".
#include "slt_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include "freshet/common/md5.h"
#include "freshet/types/decimal.h"

namespace freshet::slt {
namespace {

//! SQLite's integer of a text: its longest numeric prefix ("12abc" is 12, "x" is 0).
int64_t text_to_integer(std::string_view text) {
  std::string copy(text);
  char* end = nullptr;
  double real = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str()) return 0;
  return real_to_integer(real);
}

double text_to_real(std::string_view text) {
  std::string copy(text);
  return std::strtod(copy.c_str(), nullptr);
}

double decimal_to_double(int128 unscaled, uint8_t scale) {
  return std::strtod(decimal_to_string(unscaled, scale).c_str(), nullptr);
}

Cell number_cell(long double number, std::string text) { return Cell{std::move(text), 1, number}; }

}  // namespace

int64_t real_to_integer(double value) {
  if (std::isnan(value)) return 0;
  if (value <= -9223372036854775808.0) return INT64_MIN;
  if (value >= 9223372036854775807.0) return INT64_MAX;
  return static_cast<int64_t>(value);
}

std::string format_real(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  long double magnitude = std::fabs(static_cast<long double>(value)) + 0.0005L;
  char buffer[64];
  if (magnitude < 1e15L) {
    int64_t thousandths = static_cast<int64_t>(magnitude * 1000.0L);
    bool negative = value < 0;
    std::snprintf(buffer, sizeof buffer, "%s%lld.%03lld", negative ? "-" : "",
                  static_cast<long long>(thousandths / 1000), static_cast<long long>(thousandths % 1000));
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f", value);
  }
  return buffer;
}

std::string format_real_as_text(double value) {
  if (std::isnan(value)) return "NaN";  // SQLite has no NaN (it is NULL there)
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", value);
  std::string text = buffer;
  size_t exponent = text.find('e');
  if (text.find('.') == std::string::npos) text.insert(exponent == std::string::npos ? text.size() : exponent, ".0");
  return text;
}

Cell format_cell(const Schema& schema, RowReader row, size_t column, char type) {
  if (row.is_null(column)) return Cell{"NULL", 0, 0};
  const SqlType& sql_type = schema.type(column);
  // The value as SQLite would hold it: an integer, a real or a text.
  enum { kInteger, kReal, kText } kind;
  int64_t integer = 0;
  double real = 0;
  std::string text;
  switch (sql_type.id) {
    case TypeId::kBoolean:
      kind = kInteger, integer = row.get_bool(column) ? 1 : 0;
      break;
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
      kind = kInteger, integer = row.get_int(column);
      break;
    case TypeId::kReal:
    case TypeId::kDouble:
      kind = kReal, real = row.get_double(column);
      break;
    case TypeId::kDecimal:
      kind = kReal, real = decimal_to_double(row.get_decimal(column), sql_type.scale);
      break;
    case TypeId::kVarchar:
      kind = kText, text = std::string(row.get_string(column));
      break;
    default:
      kind = kText, text = row.get_value(column).to_string();
      break;
  }
  long double number = kind == kInteger ? integer : kind == kReal ? real : 0;
  switch (type) {
    case 'I': {
      int64_t value = kind == kInteger ? integer : kind == kReal ? real_to_integer(real) : text_to_integer(text);
      return kind == kText ? Cell{std::to_string(value), 2, 0} : number_cell(number, std::to_string(value));
    }
    case 'R': {
      double value = kind == kInteger ? double(integer) : kind == kReal ? real : text_to_real(text);
      return kind == kText ? Cell{format_real(value), 2, 0} : number_cell(number, format_real(value));
    }
    default: {
      if (kind == kInteger) return number_cell(number, std::to_string(integer));
      if (kind == kReal) return number_cell(number, format_real_as_text(real));
      std::string printed = text.empty() ? "(empty)" : text;
      for (char& c : printed) {
        if (c < ' ' || c > '~') c = '@';
      }
      Cell cell{printed, 2, 0};
      cell.number = 0;
      return cell;
    }
  }
}

std::optional<std::string> rows_of(const Batch& batch, const Schema& schema, const std::string& types,
                                   std::vector<CellRow>& rows) {
  for (size_t k = 0; k < batch.key_count(); ++k) {
    RowRef key = batch.key(k);
    Weight weight = 0;
    for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) weight += batch.weight(v);
    if (weight < 0) return "a row with weight " + std::to_string(weight) + ": " + RowReader(schema, key).to_string();
    CellRow row;
    for (size_t c = 0; c < schema.size(); ++c) {
      row.push_back(format_cell(schema, RowReader(schema, key), c, c < types.size() ? types[c] : 'T'));
    }
    for (Weight w = 0; w < weight; ++w) rows.push_back(row);
  }
  return std::nullopt;
}

std::optional<std::vector<std::pair<size_t, bool>>> order_by_ordinals(const std::string& sql) {
  static const std::regex kOrderBy(R"(ORDER\s+BY\s+((\d+(\s+(ASC|DESC))?\s*,\s*)*\d+(\s+(ASC|DESC))?)\s*;?\s*$)",
                                   std::regex::icase);
  std::smatch match;
  if (!std::regex_search(sql, match, kOrderBy)) return std::nullopt;
  static const std::regex kItem(R"((\d+)(\s+(ASC|DESC))?)", std::regex::icase);
  std::vector<std::pair<size_t, bool>> order;
  std::string items = match[1].str();
  for (std::sregex_iterator it(items.begin(), items.end(), kItem), end; it != end; ++it) {
    size_t ordinal = std::strtoul((*it)[1].str().c_str(), nullptr, 10);
    if (ordinal == 0) return std::nullopt;
    std::string direction = (*it)[3].str();
    order.emplace_back(ordinal - 1, !direction.empty() && (direction[0] == 'D' || direction[0] == 'd'));
  }
  return order;
}

void order_rows(std::vector<CellRow>& rows, const std::vector<std::pair<size_t, bool>>& order) {
  std::sort(rows.begin(), rows.end(), [](const CellRow& a, const CellRow& b) {
    for (size_t c = 0; c < a.size(); ++c) {
      if (a[c].text != b[c].text) return a[c].text < b[c].text;
    }
    return false;
  });
  std::stable_sort(rows.begin(), rows.end(), [&](const CellRow& a, const CellRow& b) {
    for (auto [column, descending] : order) {
      if (column >= a.size()) continue;
      const Cell& x = descending ? b[column] : a[column];
      const Cell& y = descending ? a[column] : b[column];
      if (x.order_class != y.order_class) return x.order_class < y.order_class;
      if (x.order_class == 1 && x.number != y.number) return x.number < y.number;
      if (x.order_class == 2 && x.text != y.text) return x.text < y.text;
    }
    return false;
  });
}

std::vector<std::string> arrange(std::vector<CellRow> rows, const std::string& sort) {
  std::vector<std::string> values;
  if (sort == "rowsort") {
    std::sort(rows.begin(), rows.end(), [](const CellRow& a, const CellRow& b) {
      for (size_t c = 0; c < a.size(); ++c) {
        if (a[c].text != b[c].text) return a[c].text < b[c].text;
      }
      return false;
    });
  }
  for (const CellRow& row : rows) {
    for (const Cell& cell : row) values.push_back(cell.text);
  }
  if (sort == "valuesort") std::sort(values.begin(), values.end());
  return values;
}

std::string compare_result(const Record& record, const std::vector<std::string>& values) {
  if (record.hashed) {
    std::string printed;  // each value followed by a newline, as the format hashes them
    for (const std::string& value : values) printed += value + "\n";
    const std::string hash = md5_hex(printed);
    if (int64_t(values.size()) == record.hash_values && hash == record.hash) return "";
    return "expected " + std::to_string(record.hash_values) + " values hashing to " + record.hash + ", got " +
           std::to_string(values.size()) + " values hashing to " + hash;
  }
  if (values == record.values) return "";
  size_t i = 0;
  while (i < values.size() && i < record.values.size() && values[i] == record.values[i]) ++i;
  auto at = [](const std::vector<std::string>& list, size_t k) { return k < list.size() ? list[k] : "(end)"; };
  return "expected " + std::to_string(record.values.size()) + " values, got " + std::to_string(values.size()) +
         "; value " + std::to_string(i + 1) + ": expected '" + at(record.values, i) + "', got '" + at(values, i) + "'";
}

}  // namespace freshet::slt
