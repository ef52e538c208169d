// CSV input (RFC 4180, no header): records end at "\n" or "\r\n" (the last
// one's line end is optional); fields are separated by ','; a field that
// starts with '"' is quoted, may hold ',', '"' (written "") and line ends, and
// must be followed by ',' or the end of its record. A '"' inside an unquoted
// field is an error. An empty line is a record of one NULL field.
//
// Each record is first split into field spans (a vector reused for the whole
// call), so a wrong field count is reported before any value; then each field
// is converted with the rules shared with JSON (field_conversion.h).
#include <simdjson.h>

#include <cstring>

#include "field_conversion.h"
#include "freshet/format/json_input.h"
#include "freshet/types/row.h"

namespace freshet::format {
namespace {

using internal::ShownValue;

constexpr size_t kSampledRecords = 64;

struct FieldSpan {
  size_t begin = 0;
  size_t end = 0;
  bool quoted = false;
  bool has_escapes = false;  //!< holds "" pairs to turn into "
};

class CsvIngest {
 public:
  CsvIngest(std::string_view data, const TableShape& table)
      : data_(data), schema_(*table.schema), row_(schema_) {}

  Result<ParsedUpdates> run() {
    while (position_ < data_.size()) {
      FRESHET_RETURN_IF_ERROR(split_record());
      if (fields_.size() != schema_.size()) {
        return record_error("expected " + std::to_string(schema_.size()) + " fields, found " +
                            std::to_string(fields_.size()));
      }
      for (size_t column = 0; column < fields_.size(); ++column) {
        FRESHET_RETURN_IF_ERROR(set_column(column, fields_[column]));
      }
      updates_.push(true, row_.finish());
      if (++record_ == kSampledRecords) {  // size the output from the first records (as parse_json)
        const double records = static_cast<double>(data_.size()) / static_cast<double>(position_) * kSampledRecords;
        updates_.reserve_total(static_cast<size_t>(records * 1.1) + kSampledRecords);
      }
    }
    return std::move(updates_);
  }

 private:
  // Splits the record at position_ into fields_ and moves past its line end.
  Status split_record() {
    fields_.clear();
    while (true) {
      FieldSpan field;
      if (position_ < data_.size() && data_[position_] == '"') {
        FRESHET_RETURN_IF_ERROR(scan_quoted(&field));
      } else {
        FRESHET_RETURN_IF_ERROR(scan_unquoted(&field));
      }
      fields_.push_back(field);
      if (position_ == data_.size()) return Status::OK();
      char next = data_[position_];
      if (next == ',') {
        ++position_;
      } else if (next == '\n') {
        ++position_;
        return Status::OK();
      } else if (next == '\r' && position_ + 1 < data_.size() && data_[position_ + 1] == '\n') {
        position_ += 2;
        return Status::OK();
      } else {
        return record_error("expected ',' or a line end after a quoted field, found '" + std::string(1, next) + "'");
      }
    }
  }

  Status scan_quoted(FieldSpan* field) {
    field->quoted = true;
    field->begin = ++position_;
    while (true) {
      const void* quote = std::memchr(data_.data() + position_, '"', data_.size() - position_);
      if (quote == nullptr) return record_error("unterminated quoted field");
      size_t at = static_cast<size_t>(static_cast<const char*>(quote) - data_.data());
      if (at + 1 < data_.size() && data_[at + 1] == '"') {
        field->has_escapes = true;
        position_ = at + 2;
        continue;
      }
      field->end = at;
      position_ = at + 1;
      return Status::OK();
    }
  }

  // Stops at ',', '\n' or "\r\n" (a lone '\r' belongs to the field).
  Status scan_unquoted(FieldSpan* field) {
    field->begin = position_;
    size_t size = data_.size();
    while (position_ < size) {
      char c = data_[position_];
      if (c == ',' || c == '\n' || (c == '\r' && position_ + 1 < size && data_[position_ + 1] == '\n')) break;
      if (c == '"') return record_error("'\"' inside an unquoted field (quote the whole field, doubling its quotes)");
      ++position_;
    }
    field->end = position_;
    return Status::OK();
  }

  Status set_column(size_t column, const FieldSpan& field) {
    const SqlType& type = schema_.type(column);
    std::string_view text = data_.substr(field.begin, field.end - field.begin);
    if (!field.quoted && text.empty()) {
      if (!type.nullable) return column_error(column, Status(ErrorCode::kTypeError, "NULL in NOT NULL column"));
      row_.set_null(column);
      return Status::OK();
    }
    if (field.has_escapes) {
      unescaped_.clear();
      for (size_t i = 0; i < text.size(); ++i) {
        unescaped_ += text[i];
        if (text[i] == '"') ++i;  // the second quote of a "" pair
      }
      text = unescaped_;
    }
    if (type.id == TypeId::kVarchar && !simdjson::validate_utf8(text.data(), text.size())) {
      return column_error(column, Status(ErrorCode::kParseError, "invalid UTF-8"));
    }
    Status status = internal::set_from_text(row_, column, text, ShownValue{text, true});
    return status.ok() ? status : column_error(column, status);
  }

  Status record_error(const std::string& reason) const {
    return Status(ErrorCode::kParseError, "record " + std::to_string(record_) + ": " + reason);
  }
  Status column_error(size_t column, const Status& reason) const {
    return Status(reason.code(), "record " + std::to_string(record_) + ", column '" + schema_.column(column).name +
                                     "': " + reason.message());
  }

  std::string_view data_;
  const Schema& schema_;
  RowBuilder row_;
  size_t position_ = 0;
  uint64_t record_ = 0;
  std::vector<FieldSpan> fields_;
  std::string unescaped_;
  ParsedUpdates updates_;
};

}  // namespace

Result<ParsedUpdates> parse_csv(std::string_view data, const TableShape& table) { return CsvIngest(data, table).run(); }

}  // namespace freshet::format
