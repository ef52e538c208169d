// JSON input with simdjson's On-Demand API: the text is copied once into a
// padded buffer, scanned once, and each record is built straight into one
// RowBuilder (per call) from the parser's values; nothing is allocated per
// field except the output rows. Exactness: integers are read as int64 (never
// through a double), DECIMALs from the number's own text.
#include "freshet/format/json_input.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "field_conversion.h"
#include "freshet/types/row.h"

namespace freshet::format {
namespace {

namespace ondemand = simdjson::ondemand;
static_assert(kJsonPadding >= simdjson::SIMDJSON_PADDING, "kJsonPadding is simdjson's padding");
using internal::ShownValue;

// A parser keeps its buffers between calls; one that grew for a huge input
// is dropped afterwards rather than kept for the thread's lifetime.
constexpr size_t kKeptParserCapacity = size_t{16} << 20;
// Records parsed before the output is sized from their average length.
constexpr size_t kSampledRecords = 64;

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool is_blank(std::string_view text) { return trim_right(text).empty(); }

// A number exactly as the JSON grammar has it: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
bool is_json_number(std::string_view text) {
  size_t i = 0, n = text.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < n && text[i] == '-') ++i;
  if (i < n && text[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < n && text[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == n;
}

}  // namespace

namespace internal {

//! parse_json for one table: its builders, kept between calls
//! (JsonTableReader), and the state of the call in progress.
class JsonIngest {
 public:
  explicit JsonIngest(TableShape table)
      : table_(std::move(table)),
        schema_(*table_.schema),
        key_schema_(key_columns(table_)),
        row_(schema_),
        key_row_(key_schema_),
        seen_(schema_.size(), 0),
        is_key_(schema_.size(), false) {
    for (size_t column : table_.primary_key) is_key_[column] = true;
  }

  Result<ParsedUpdates> parse(std::string_view data, const InputOptions& options) {
    thread_local ondemand::parser parser;
    options_ = options;
    record_ = 0;
    malformed_seen_ = false;
    updates_ = {};
    std::fill(seen_.begin(), seen_.end(), 0);
    Result<ParsedUpdates> result = run(parser, data);
    if (parser.capacity() > kKeptParserCapacity) parser = ondemand::parser();
    return result;
  }

 private:
  Result<ParsedUpdates> run(ondemand::parser& parser, std::string_view data) {
    if (options_.padded) return run_in_place(parser, simdjson::padded_string_view(data, data.size() + kJsonPadding));
    simdjson::padded_string padded(data);
    return run_in_place(parser, padded);
  }

  Result<ParsedUpdates> run_in_place(ondemand::parser& parser, simdjson::padded_string_view text) {
    Status status = options_.array ? parse_array(parser, text) : parse_lines(parser, text);
    if (!status.ok()) return status;
    return std::move(updates_);
  }

  // Growing the output vector by doubling moves every update several times
  // and touches fresh memory each time: once a few records are parsed, room
  // is made for as many more as the rest of the text likely holds
  // (overestimating costs only address space).
  void reserve_for(size_t consumed_bytes, size_t total_bytes) {
    if (consumed_bytes == 0) return;
    double records = static_cast<double>(total_bytes) / static_cast<double>(consumed_bytes) * kSampledRecords;
    updates_.reserve_total(static_cast<size_t>(records * 1.1) + kSampledRecords);
  }

  static Schema key_columns(const TableShape& table) {
    std::vector<Column> columns;
    for (size_t column : table.primary_key) columns.push_back(table.schema->column(column));
    return Schema(std::move(columns));
  }

  // Fast path: the whole array in one pass. When simdjson finds the text
  // malformed, where it notices is not always in the bad record (unbalanced
  // brackets are seen up front), so the call starts over element by element.
  Status parse_array(ondemand::parser& parser, simdjson::padded_string_view text) {
    if (is_blank(text)) return Status::OK();
    Status status = parse_whole_array(parser, text);
    if (status.ok() || !malformed_seen_) return status;
    updates_.clear();
    record_ = 0;
    std::fill(seen_.begin(), seen_.end(), 0);
    return parse_array_by_elements(parser, text);
  }

  Status parse_whole_array(ondemand::parser& parser, simdjson::padded_string_view text) {
    ondemand::document document;
    ondemand::json_type type;
    if (auto error = parser.iterate(text).get(document)) return malformed(error);
    if (auto error = document.type().get(type)) return malformed(error);
    if (type != ondemand::json_type::array) {
      return Status(ErrorCode::kParseError, "expected a JSON array of records (or array=false for one record per line)");
    }
    ondemand::array records;
    if (auto error = document.get_array().get(records)) return malformed(error);
    for (auto element : records) {
      ondemand::value record;
      if (auto error = element.get(record)) return malformed(error);
      FRESHET_RETURN_IF_ERROR(parse_record(record));
      if (++record_ == kSampledRecords) {
        const char* at = nullptr;
        if (!document.current_location().get(at)) reserve_for(static_cast<size_t>(at - text.data()), text.size());
      }
    }
    if (!document.current_location().error()) return malformed(simdjson::TRAILING_CONTENT);
    return Status::OK();
  }

  // The slow path for text that simdjson refuses as a whole (unbalanced
  // brackets, trailing content, bad UTF-8): split the array into its
  // elements with a small scanner and parse each on its own, so that the
  // first bad record, malformed or not, is the one reported.
  Status parse_array_by_elements(ondemand::parser& parser, simdjson::padded_string_view text) {
    const char* data = text.data();
    size_t size = text.size(), position = skip_whitespace(text, 0);
    if (position == size || data[position] != '[') {
      return Status(ErrorCode::kParseError, "expected a JSON array of records (or array=false for one record per line)");
    }
    position = skip_whitespace(text, position + 1);
    bool closed = position < size && data[position] == ']';
    if (closed) ++position;
    while (!closed) {
      size_t begin = position;
      position = skip_element(text, position);
      ondemand::document document;
      ondemand::value record;
      if (auto error = parser.iterate(data + begin, position - begin, size - begin + simdjson::SIMDJSON_PADDING)
                           .get(document)) {
        return malformed(position == begin ? simdjson::TAPE_ERROR : error);
      }
      if (auto error = document.get_value().get(record)) return malformed(error);
      FRESHET_RETURN_IF_ERROR(parse_record(record));
      if (!document.current_location().error()) return malformed(simdjson::TRAILING_CONTENT);
      if (position == size) return malformed(simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
      closed = data[position] == ']';
      position = closed ? position + 1 : skip_whitespace(text, position + 1);
      ++record_;
    }
    if (skip_whitespace(text, position) != size) {
      return Status(ErrorCode::kParseError, std::string("malformed JSON after the array: ") +
                                                simdjson::error_message(simdjson::TRAILING_CONTENT));
    }
    return Status(ErrorCode::kParseError, "malformed JSON: the array is not valid JSON as a whole");
  }

  static size_t skip_whitespace(std::string_view text, size_t position) {
    while (position < text.size() && (text[position] == ' ' || text[position] == '\t' || text[position] == '\n' ||
                                      text[position] == '\r')) {
      ++position;
    }
    return position;
  }

  // The position of the ',' or ']' that ends the element at `position` (or
  // the end of the text), outside strings and nested brackets.
  static size_t skip_element(std::string_view text, size_t position) {
    int64_t depth = 0;
    bool in_string = false;
    for (; position < text.size(); ++position) {
      char c = text[position];
      if (in_string) {
        if (c == '\\') ++position;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if ((c == ']' || c == '}') && depth > 0) {
        --depth;
      } else if ((c == ',' || c == ']') && depth == 0) {
        return position;
      }
    }
    return text.size();
  }

  // Newline-delimited: each non-blank line is one document, parsed in place
  // (the rest of the padded buffer is its padding).
  Status parse_lines(ondemand::parser& parser, simdjson::padded_string_view text) {
    const char* begin = text.data();
    size_t size = text.size();
    size_t start = 0;
    while (start < size) {
      const void* newline = std::memchr(begin + start, '\n', size - start);
      size_t end = newline == nullptr ? size : static_cast<size_t>(static_cast<const char*>(newline) - begin);
      std::string_view line(begin + start, end - start);
      if (!is_blank(line)) {
        ondemand::document document;
        if (auto error = parser.iterate(line.data(), line.size(), size - start + simdjson::SIMDJSON_PADDING)
                             .get(document)) {
          return malformed(error);
        }
        ondemand::value record;
        if (auto error = document.get_value().get(record)) return malformed(error);
        FRESHET_RETURN_IF_ERROR(parse_record(record));
        if (!document.current_location().error()) return malformed(simdjson::TRAILING_CONTENT);
        if (++record_ == kSampledRecords) reserve_for(end, size);
      }
      start = end + 1;
    }
    return Status::OK();
  }

  Status parse_record(ondemand::value& record) {
    ondemand::json_type type;
    if (auto error = record.type().get(type)) return malformed(error);
    if (options_.update_format == UpdateFormat::kRaw) {
      if (type != ondemand::json_type::object) return record_error("expected a row object, found " + shown(record));
      return parse_row(record, true);
    }
    if (type != ondemand::json_type::object) return not_insert_delete();
    ondemand::object wrapper;
    if (auto error = record.get_object().get(wrapper)) return malformed(error);
    bool found = false;
    for (auto field_result : wrapper) {
      ondemand::field field;
      if (auto error = std::move(field_result).get(field)) return malformed(error);
      std::string_view key;
      if (auto error = field.unescaped_key().get(key)) return malformed(error);
      if (found || (key != "insert" && key != "delete")) return not_insert_delete();
      found = true;
      ondemand::value row = field.value();
      if (auto error = row.type().get(type)) return malformed(error);
      if (type != ondemand::json_type::object) {
        return record_error("expected a row object in \"" + std::string(key) + "\", found " + shown(row));
      }
      FRESHET_RETURN_IF_ERROR(parse_row(row, key == "insert"));
    }
    return found ? Status::OK() : not_insert_delete();
  }

  Status parse_row(ondemand::value& value, bool insert) {
    ondemand::object row;
    if (auto error = value.get_object().get(row)) return malformed(error);
    uint64_t stamp = record_ + 1;  // seen_[c] == stamp: column c was given in this record
    size_t position = 0;
    for (auto field_result : row) {
      ondemand::field field;
      if (auto error = std::move(field_result).get(field)) return malformed(error);
      std::string_view key;
      if (auto error = field.unescaped_key().get(key)) return malformed(error);
      size_t column = 0;
      FRESHET_RETURN_IF_ERROR(find_column(key, position++, &column));
      if (seen_[column] == stamp) return column_error(column, Status(ErrorCode::kParseError, "given twice"));
      seen_[column] = stamp;
      ondemand::value field_value = field.value();
      FRESHET_RETURN_IF_ERROR(set_column(column, field_value));
    }
    return finish_row(insert, stamp);
  }

  // A delete from a keyed table that names key columns only is by key.
  Status finish_row(bool insert, uint64_t stamp) {
    bool key_only = !insert && !table_.primary_key.empty();
    for (size_t column = 0; key_only && column < schema_.size(); ++column) {
      if (seen_[column] == stamp && !is_key_[column]) key_only = false;
    }
    for (size_t column = 0; column < schema_.size(); ++column) {
      if (seen_[column] == stamp || (key_only && !is_key_[column])) continue;
      if (!schema_.type(column).nullable) {
        return column_error(column, Status(ErrorCode::kTypeError, "NULL in NOT NULL column (missing from the record)"));
      }
      row_.set_null(column);
    }
    RowRef row = row_.finish();
    if (!key_only) {
      updates_.push(insert, row);
      return Status::OK();
    }
    RowReader reader(schema_, row);
    for (size_t i = 0; i < table_.primary_key.size(); ++i) key_row_.copy_field(i, reader, table_.primary_key[i]);
    updates_.push(false, key_row_.finish(), /*key_only=*/true);
    return Status::OK();
  }

  Status set_column(size_t column, ondemand::value& value) {
    const SqlType& type = schema_.type(column);
    ondemand::json_type json_type;
    if (auto error = value.type().get(json_type)) return malformed(error);
    Status status;
    switch (json_type) {
      case ondemand::json_type::null: {
        bool is_null = false;
        if (value.is_null().get(is_null) || !is_null) return malformed(simdjson::N_ATOM_ERROR);
        if (!type.nullable) return column_error(column, Status(ErrorCode::kTypeError, "NULL in NOT NULL column"));
        row_.set_null(column);
        return Status::OK();
      }
      case ondemand::json_type::boolean: {
        bool flag = false;
        if (auto error = value.get_bool().get(flag)) return malformed(error);
        if (type.id != TypeId::kBoolean) return column_error(column, internal::wrong_kind(type, {flag ? "true" : "false"}));
        row_.set_bool(column, flag);
        return Status::OK();
      }
      case ondemand::json_type::number: status = set_number(column, value); break;
      case ondemand::json_type::string: {
        std::string_view raw = trim_right(value.raw_json_token());
        std::string_view text;
        if (auto error = value.get_string().get(text)) return malformed(error);
        status = internal::set_from_text(row_, column, text, {raw});
        break;
      }
      case ondemand::json_type::array: status = internal::wrong_kind(type, {"[...]"}); break;
      case ondemand::json_type::object: status = internal::wrong_kind(type, {"{...}"}); break;
    }
    if (!status.ok() && status.code() == ErrorCode::kInvalidArgument) return malformed(simdjson::NUMBER_ERROR);
    return status.ok() ? status : column_error(column, status);
  }

  // kInvalidArgument marks a token that is not a JSON number (set_column
  // turns it into "malformed JSON").
  Status set_number(size_t column, ondemand::value& value) {
    std::string_view raw = trim_right(value.raw_json_token());
    if (!is_json_number(raw)) return Status(ErrorCode::kInvalidArgument, "");
    const SqlType& type = schema_.type(column);
    if (type.is_integer()) {
      int64_t integer = 0;
      if (!value.get_int64().get(integer)) return internal::set_integer(row_, column, integer, raw);
      return internal::set_from_text(row_, column, raw, {raw});  // not integral, or out of range
    }
    if (type.is_floating()) {
      double number = 0;
      if (!value.get_double().get(number)) return internal::set_floating(row_, column, number, raw);
      return internal::set_from_text(row_, column, raw, {raw});
    }
    if (type.id == TypeId::kDecimal) return internal::set_decimal_text(row_, column, raw, {raw});
    return internal::wrong_kind(type, {raw});
  }

  // The declared name, else the one column whose name matches ignoring case;
  // the column at the field's position is tried first (rows usually follow
  // the table's order).
  Status find_column(std::string_view name, size_t position, size_t* column) {
    if (position < schema_.size() && schema_.column(position).name == name) {
      *column = position;
      return Status::OK();
    }
    size_t matches = 0;
    for (size_t i = 0; i < schema_.size(); ++i) {
      const std::string& candidate = schema_.column(i).name;
      if (candidate == name) {
        *column = i;
        return Status::OK();
      }
      if (internal::equals_ignoring_case(candidate, name)) {
        if (matches++ == 0) *column = i;
      }
    }
    if (matches == 1) return Status::OK();
    std::string columns;
    for (size_t i = 0; i < schema_.size(); ++i) {
      if (matches > 1 && !internal::equals_ignoring_case(schema_.column(i).name, name)) continue;
      columns += (columns.empty() ? "" : ", ") + schema_.column(i).name;
    }
    if (matches > 1) return record_error("column '" + std::string(name) + "' is ambiguous (matches " + columns + ")");
    return record_error("unknown column '" + std::string(name) + "' (columns: " + columns + ")");
  }


  std::string shown(ondemand::value& value) {
    ondemand::json_type type;
    if (value.type().get(type)) return "?";
    if (type == ondemand::json_type::array) return "[...]";
    if (type == ondemand::json_type::object) return "{...}";
    return internal::show({trim_right(value.raw_json_token())});
  }

  Status record_error(const std::string& reason) const {
    return Status(ErrorCode::kParseError, "record " + std::to_string(record_) + ": " + reason);
  }
  Status not_insert_delete() const { return record_error("expected an object with \"insert\" or \"delete\""); }
  Status malformed(simdjson::error_code error) {
    malformed_seen_ = true;
    return record_error(std::string("malformed JSON: ") + simdjson::error_message(error));
  }
  Status column_error(size_t column, const Status& reason) const {
    return Status(reason.code(), "record " + std::to_string(record_) + ", column '" + schema_.column(column).name +
                                     "': " + reason.message());
  }

  const TableShape table_;
  const Schema& schema_;
  InputOptions options_;
  Schema key_schema_;
  RowBuilder row_;
  RowBuilder key_row_;
  std::vector<uint64_t> seen_;  // per column: the record stamp it was last given in
  std::vector<bool> is_key_;
  uint64_t record_ = 0;
  bool malformed_seen_ = false;  // a simdjson error (not a bad value) was reported
  ParsedUpdates updates_;
};

}  // namespace internal

JsonTableReader::JsonTableReader(TableShape table) : ingest_(std::make_unique<internal::JsonIngest>(std::move(table))) {}
JsonTableReader::~JsonTableReader() = default;

Result<ParsedUpdates> JsonTableReader::parse(std::string_view data, const InputOptions& options) {
  return ingest_->parse(data, options);
}

Result<ParsedUpdates> parse_json(std::string_view data, const TableShape& table, const InputOptions& options) {
  return JsonTableReader(table).parse(data, options);
}

}  // namespace freshet::format
