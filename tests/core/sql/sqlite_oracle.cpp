#include "sqlite_oracle.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "freshet/types/temporal.h"

namespace freshet::testing {

std::string canonical_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  char buffer[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value));
  } else {
    std::snprintf(buffer, sizeof buffer, "%.12g", value);
  }
  return buffer;
}

std::string canonical_text(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string describe_cell(const CellValue& value) {
  switch (value.kind) {
    case CellValue::kNull: return "NULL";
    case CellValue::kInt: return std::to_string(value.i);
    case CellValue::kDouble: return canonical_number(value.d);
    case CellValue::kText: return canonical_text(value.s);
    case CellValue::kDate: return canonical_text(value.s);
  }
  return "?";
}

namespace {

std::string decimal_number(int128 unscaled, uint8_t scale) {
  // Exactly, as text, then by value like every other number.
  bool negative = unscaled < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-unscaled) : unscaled;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  while (digits.size() <= scale) digits.insert(digits.begin(), '0');
  std::string text = digits.substr(0, digits.size() - scale);
  if (scale > 0) text += "." + digits.substr(digits.size() - scale);
  return canonical_number((negative ? -1 : 1) * std::strtod(text.c_str(), nullptr));
}

}  // namespace

std::string canonical_row(const Schema& schema, RowRef row) {
  RowReader reader(schema, row);
  std::string out;
  for (size_t c = 0; c < schema.size(); ++c) {
    if (c > 0) out += '|';
    if (reader.is_null(c)) {
      out += "NULL";
      continue;
    }
    const SqlType& type = schema.type(c);
    switch (type.id) {
      case TypeId::kBoolean: out += reader.get_bool(c) ? "1" : "0"; break;
      case TypeId::kTinyInt:
      case TypeId::kSmallInt:
      case TypeId::kInt:
      case TypeId::kBigInt: out += std::to_string(reader.get_int(c)); break;
      case TypeId::kReal:
      case TypeId::kDouble: out += canonical_number(reader.get_double(c)); break;
      case TypeId::kDecimal: out += decimal_number(reader.get_decimal(c), type.scale); break;
      case TypeId::kVarchar: out += canonical_text(reader.get_string(c)); break;
      case TypeId::kDate: out += canonical_text(format_date(static_cast<int32_t>(reader.get_int(c)))); break;
      case TypeId::kTimestamp: out += canonical_text(format_timestamp(reader.get_int(c))); break;
      case TypeId::kTime:
      case TypeId::kIntervalDayTime:
      case TypeId::kIntervalYearMonth: out += canonical_text(reader.get_value(c).to_string()); break;
    }
  }
  return out;
}

SqliteDb::SqliteDb() { sqlite3_open(":memory:", &db_); }

SqliteDb::~SqliteDb() {
  for (auto& [sql, statement] : cache_) sqlite3_finalize(statement);
  sqlite3_close(db_);
}

std::string SqliteDb::error() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }

Status SqliteDb::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : error();
    sqlite3_free(message);
    return Status(ErrorCode::kInternal, "sqlite: " + text + " in: " + sql);
  }
  return Status::OK();
}

Result<sqlite3_stmt*> SqliteDb::prepare(const std::string& sql) {
  for (auto& [text, statement] : cache_) {
    if (text == sql) {
      sqlite3_reset(statement);
      sqlite3_clear_bindings(statement);
      return statement;
    }
  }
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    return Status(ErrorCode::kInternal, "sqlite: " + error() + " in: " + sql);
  }
  cache_.emplace_back(sql, statement);
  return statement;
}

Status SqliteDb::run(const std::string& sql, const std::vector<CellValue>& parameters) {
  Result<sqlite3_stmt*> prepared = prepare(sql);
  if (!prepared.ok()) return prepared.status();
  sqlite3_stmt* statement = *prepared;
  for (size_t p = 0; p < parameters.size(); ++p) {
    const CellValue& value = parameters[p];
    int index = static_cast<int>(p) + 1;
    switch (value.kind) {
      case CellValue::kNull: sqlite3_bind_null(statement, index); break;
      case CellValue::kInt: sqlite3_bind_int64(statement, index, value.i); break;
      case CellValue::kDouble: sqlite3_bind_double(statement, index, value.d); break;
      case CellValue::kText:
      case CellValue::kDate:
        sqlite3_bind_text(statement, index, value.s.data(), static_cast<int>(value.s.size()), SQLITE_TRANSIENT);
        break;
    }
  }
  int rc;
  while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
  }
  if (rc != SQLITE_DONE) return Status(ErrorCode::kInternal, "sqlite: " + error() + " in: " + sql);
  return Status::OK();
}

Result<std::vector<std::string>> SqliteDb::query(const std::string& sql) {
  Result<sqlite3_stmt*> prepared = prepare(sql);
  if (!prepared.ok()) return prepared.status();
  sqlite3_stmt* statement = *prepared;
  std::vector<std::string> rows;
  int columns = sqlite3_column_count(statement);
  int rc;
  while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
    std::string out;
    for (int c = 0; c < columns; ++c) {
      if (c > 0) out += '|';
      switch (sqlite3_column_type(statement, c)) {
        case SQLITE_NULL: out += "NULL"; break;
        case SQLITE_INTEGER: out += std::to_string(sqlite3_column_int64(statement, c)); break;
        case SQLITE_FLOAT: out += canonical_number(sqlite3_column_double(statement, c)); break;
        default: {
          const unsigned char* text = sqlite3_column_text(statement, c);
          out += canonical_text(std::string_view(reinterpret_cast<const char*>(text),
                                                 static_cast<size_t>(sqlite3_column_bytes(statement, c))));
        }
      }
    }
    rows.push_back(std::move(out));
  }
  if (rc != SQLITE_DONE) return Status(ErrorCode::kInternal, "sqlite: " + error() + " in: " + sql);
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace freshet::testing
