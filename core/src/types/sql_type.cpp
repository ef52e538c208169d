#include "freshet/types/sql_type.h"

namespace freshet {

uint32_t fixed_width(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt:
    case TypeId::kReal:
    case TypeId::kDate:
    case TypeId::kVarchar: return 4;
    case TypeId::kBigInt:
    case TypeId::kDouble:
    case TypeId::kTimestamp: return 8;
    case TypeId::kDecimal: return 16;
  }
  return 8;
}

const char* type_name(TypeId id) {
  switch (id) {
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kTinyInt: return "TINYINT";
    case TypeId::kSmallInt: return "SMALLINT";
    case TypeId::kInt: return "INTEGER";
    case TypeId::kBigInt: return "BIGINT";
    case TypeId::kReal: return "REAL";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal: return "DECIMAL";
    case TypeId::kVarchar: return "VARCHAR";
    case TypeId::kDate: return "DATE";
    case TypeId::kTimestamp: return "TIMESTAMP";
  }
  return "UNKNOWN";
}

std::string SqlType::to_string() const {
  std::string text = type_name(id);
  if (id == TypeId::kDecimal) {
    text += "(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
  } else if (id == TypeId::kVarchar && max_length != 0) {
    text += "(" + std::to_string(max_length) + ")";
  }
  if (!nullable) text += " NOT NULL";
  return text;
}

}  // namespace freshet
