#include "freshet/types/row.h"

#include <cmath>
#include <limits>

#include "freshet/common/assert.h"
#include "freshet/common/copy_row_bytes.h"

namespace freshet {
namespace {

// The canonical double: one zero and one NaN, so equal values have equal bytes.
double canonical_double(double value) {
  if (value == 0) return 0.0;
  if (std::isnan(value)) return std::numeric_limits<double>::quiet_NaN();
  return value;
}

}  // namespace

bool RowReader::any_null() const {
  for (uint32_t i = 0; i < schema_->bitmap_bytes(); ++i) {
    if (row_.data[i] != 0) return true;
  }
  return false;
}

int64_t RowReader::get_int(size_t column) const {
  switch (schema_->type(column).id) {
    case TypeId::kBoolean: return load<uint8_t>(column);
    case TypeId::kTinyInt: return load_int<int8_t>(column);
    case TypeId::kSmallInt: return load_int<int16_t>(column);
    case TypeId::kInt:
    case TypeId::kDate: return load_int<int32_t>(column);
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTime:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return load_int<int64_t>(column);
    default: FRESHET_ASSERT(false && "get_int on a non-integer column");
  }
  return 0;
}

int128 RowReader::get_decimal(size_t column) const {
  FRESHET_ASSERT(schema_->type(column).id == TypeId::kDecimal);
  return load<int128>(column);
}

std::string_view RowReader::get_string(size_t column) const {
  FRESHET_ASSERT(schema_->type(column).id == TypeId::kVarchar);
  // Bodies follow the fixed part in column order: skip the earlier ones.
  uint32_t position = schema_->fixed_bytes();
  for (size_t c = 0; c < column; ++c) {
    if (schema_->string_ordinal(c) >= 0) position += load<uint32_t>(c);
  }
  return {reinterpret_cast<const char*>(row_.data + position), load<uint32_t>(column)};
}

Value RowReader::get_value(size_t column) const {
  const SqlType& type = schema_->type(column);
  if (is_null(column)) return Value::null(type.id);
  switch (type.id) {
    case TypeId::kBoolean: return Value::boolean(get_bool(column));
    case TypeId::kReal:
    case TypeId::kDouble: return Value::floating(type.id, get_double(column));
    case TypeId::kDecimal: return Value::decimal(get_decimal(column), type.scale);
    case TypeId::kVarchar: return Value::varchar(get_string(column));
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth:
      return Value::interval(type.id, get_int(column), type.interval_start(), type.interval_end());
    default: return Value::integer(type.id, get_int(column));
  }
}

std::string RowReader::to_string() const {
  std::string text = "(";
  for (size_t c = 0; c < schema_->size(); ++c) {
    if (c > 0) text += ", ";
    text += get_value(c).to_string();
  }
  return text + ")";
}

RowBuilder::RowBuilder(const Schema& schema)
    : schema_(&schema), fixed_(schema.fixed_bytes(), 0), strings_(schema.string_count()) {}

void RowBuilder::set_null(size_t column) {
  std::memset(fixed_.data() + schema_->offset(column), 0, fixed_width(schema_->type(column).id));
  if (schema_->string_ordinal(column) >= 0) strings_[schema_->string_ordinal(column)].clear();
  fixed_[column >> 3] |= static_cast<uint8_t>(1u << (column & 7));
}

void RowBuilder::set_bool(size_t column, bool value) { store<uint8_t>(column, value ? 1 : 0); }

void RowBuilder::set_int(size_t column, int64_t value) {
  switch (schema_->type(column).id) {
    case TypeId::kBoolean: store<uint8_t>(column, value != 0 ? 1 : 0); break;
    case TypeId::kTinyInt: store_int<int8_t>(column, static_cast<int8_t>(value)); break;
    case TypeId::kSmallInt: store_int<int16_t>(column, static_cast<int16_t>(value)); break;
    case TypeId::kInt:
    case TypeId::kDate: store_int<int32_t>(column, static_cast<int32_t>(value)); break;
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTime:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: store_int<int64_t>(column, value); break;
    default: FRESHET_ASSERT(false && "set_int on a non-integer column");
  }
}

void RowBuilder::set_double(size_t column, double value) {
  if (schema_->type(column).id == TypeId::kReal) {
    // Narrowed before canonicalised: a double too small for a float (-1e-300)
    // narrows to -0.0f, which must be stored as +0 like every other zero.
    store<float>(column, static_cast<float>(canonical_double(static_cast<float>(value))));
  } else {
    FRESHET_ASSERT(schema_->type(column).id == TypeId::kDouble);
    store<double>(column, canonical_double(value));
  }
}

void RowBuilder::set_decimal(size_t column, int128 value) {
  FRESHET_ASSERT(schema_->type(column).id == TypeId::kDecimal);
  store<int128>(column, value);
}

void RowBuilder::set_string(size_t column, std::string_view value) {
  FRESHET_ASSERT(schema_->type(column).id == TypeId::kVarchar);
  store<uint32_t>(column, static_cast<uint32_t>(value.size()));
  ByteBuffer& body = strings_[schema_->string_ordinal(column)];
  body.clear();
  body.append(reinterpret_cast<const uint8_t*>(value.data()), value.size());
}

void RowBuilder::set_value(size_t column, const Value& value) {
  if (value.is_null()) return set_null(column);
  switch (schema_->type(column).id) {
    case TypeId::kBoolean: return set_bool(column, value.as_bool());
    case TypeId::kReal:
    case TypeId::kDouble:
      return set_double(column, value.type() == TypeId::kReal || value.type() == TypeId::kDouble
                                    ? value.as_double()
                                    : static_cast<double>(value.as_int()));
    case TypeId::kDecimal:
      return set_decimal(column, value.type() == TypeId::kDecimal
                                     ? rescale_decimal(value.as_decimal(), value.decimal_scale(),
                                                       schema_->type(column).scale)
                                     : value.as_int() * pow10_int128(schema_->type(column).scale));
    case TypeId::kVarchar: return set_string(column, value.as_string());
    default: return set_int(column, value.as_int());
  }
}

void RowBuilder::copy_field(size_t column, const RowReader& source, size_t source_column) {
  FRESHET_ASSERT(source.schema().type(source_column).id == schema_->type(column).id);
  if (source.is_null(source_column)) return set_null(column);
  if (schema_->type(column).id == TypeId::kVarchar) return set_string(column, source.get_string(source_column));
  clear_null(column);
  uint8_t* to = fixed_.data() + schema_->offset(column);
  const uint8_t* from = source.row().data + source.schema().offset(source_column);
  copy_slot_bytes(to, from, fixed_width(schema_->type(column).id));
}

RowRef RowBuilder::finish() {
  finished_.clear();
  finished_.append(fixed_.data(), fixed_.size());
  for (ByteBuffer& body : strings_) {
    finished_.append(body.data(), body.size());
    body.clear();
  }
  if (!fixed_.empty()) std::memset(fixed_.data(), 0, fixed_.size());  // an empty schema's data() is null
  return RowRef(finished_.data(), static_cast<uint32_t>(finished_.size()));
}

std::string encode_row(const Schema& schema, const std::vector<Value>& values) {
  FRESHET_ASSERT(values.size() == schema.size());
  RowBuilder builder(schema);
  for (size_t c = 0; c < values.size(); ++c) builder.set_value(c, values[c]);
  return builder.finish().to_bytes();
}

std::vector<Value> decode_row(const Schema& schema, RowRef row) {
  RowReader reader(schema, row);
  std::vector<Value> values;
  values.reserve(schema.size());
  for (size_t c = 0; c < schema.size(); ++c) values.push_back(reader.get_value(c));
  return values;
}

bool row_fits_schema(const Schema& schema, RowRef row) {
  uint64_t size = schema.fixed_bytes();
  if (row.size < size) return false;
  RowReader reader(schema, row);
  for (size_t c = 0; c < schema.size(); ++c) {
    if (schema.string_ordinal(c) < 0) continue;
    uint32_t length;
    std::memcpy(&length, row.data + schema.offset(c), sizeof length);
    if (reader.is_null(c) && length != 0) return false;
    size += length;
  }
  return size == row.size;
}

}  // namespace freshet
