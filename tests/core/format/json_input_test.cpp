// parse_json: both update formats, arrays and newline-delimited records,
// every column type accepted and refused, key-only deletes, column names,
// and every error message.
#include "freshet/format/json_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "freshet/types/decimal.h"
#include "freshet/types/row.h"

namespace freshet::format {
namespace {

Schema orders_schema() {
  return Schema({{"id", SqlType::bigint(false)}, {"customer", SqlType::varchar()}, {"amount", SqlType::double_precision()}});
}

Schema all_types_schema() {
  return Schema({{"b", SqlType::boolean()},
                 {"tiny", SqlType::tinyint()},
                 {"small", SqlType::smallint()},
                 {"i", SqlType::integer()},
                 {"big", SqlType::bigint()},
                 {"r", SqlType::real()},
                 {"d", SqlType::double_precision()},
                 {"m", SqlType::decimal(10, 2)},
                 {"v", SqlType::varchar(true, 5)},
                 {"day", SqlType::date()},
                 {"ts", SqlType::timestamp()}});
}

InputOptions raw_lines() { return InputOptions{UpdateFormat::kRaw, false}; }

//! Each update as "+(row)", "-(row)" or "-key(row)".
std::vector<std::string> describe(const Result<ParsedUpdates>& result, const TableShape& table) {
  std::vector<std::string> out;
  EXPECT_TRUE(result.ok()) << result.status().to_string();
  if (!result.ok()) return out;
  std::vector<Column> key_columns;
  for (size_t column : table.primary_key) key_columns.push_back(table.schema->column(column));
  Schema key_schema(key_columns);
  for (const ParsedUpdate update : *result) {
    const Schema& schema = update.key_only ? key_schema : *table.schema;
    out.push_back(std::string(update.insert ? "+" : "-") + (update.key_only ? "key" : "") +
                  RowReader(schema, RowRef(update.row)).to_string());
  }
  return out;
}

std::vector<std::string> parse(std::string_view data, const Schema& schema, InputOptions options = {},
                               std::vector<size_t> key = {}) {
  TableShape table{&schema, std::move(key)};
  return describe(parse_json(data, table, options), table);
}

//! The error message of a parse that must fail with `code`.
std::string error_of(std::string_view data, const Schema& schema, InputOptions options = {},
                     ErrorCode code = ErrorCode::kParseError, std::vector<size_t> key = {}) {
  TableShape table{&schema, std::move(key)};
  auto result = parse_json(data, table, options);
  EXPECT_FALSE(result.ok());
  if (result.ok()) return "";
  EXPECT_EQ(result.status().code(), code) << result.status().message();
  return result.status().message();
}

//! One value of the all-types table, parsed from {"<column>": <json>}.
std::string one_value(const std::string& column, const std::string& json) {
  Schema schema = all_types_schema();
  TableShape table{&schema, {}};
  auto result = parse_json("{\"" + column + "\":" + json + "}", table, raw_lines());
  EXPECT_TRUE(result.ok()) << result.status().to_string();
  if (!result.ok() || result->size() != 1) return "";
  RowReader reader(schema, RowRef((*result)[0].row));
  return reader.get_value(*schema.find(column)).to_string();
}

std::string value_error(const std::string& column, const std::string& json, ErrorCode code = ErrorCode::kParseError) {
  return error_of("{\"" + column + "\":" + json + "}", all_types_schema(), raw_lines(), code);
}

TEST(JsonInputTest, InsertDeleteArray) {
  Schema schema = orders_schema();
  EXPECT_EQ(parse(R"([{"insert":{"id":1,"customer":"ann","amount":2.5}},
                      {"delete":{"id":2,"customer":null,"amount":1}}])",
                  schema),
            (std::vector<std::string>{"+(1, 'ann', 2.5)", "-(2, NULL, 1)"}));
  EXPECT_TRUE(parse("[]", schema).empty());
  EXPECT_TRUE(parse("  \n ", schema).empty());
}

// options.padded: the text is read in place, and what lies in the padding
// after it (here text that would change the result) is never part of it.
TEST(JsonInputTest, PaddedTextIsParsedInPlaceAndEndsWhereItsSizeSays) {
  Schema schema = orders_schema();
  auto in_place = [&](const std::string& text, InputOptions options) {
    std::string buffer = text + "]},{\"insert\":{\"id\":99}}]\n{\"id\":98}";
    buffer.resize(text.size() + kJsonPadding, ' ');
    options.padded = true;
    return parse(std::string_view(buffer.data(), text.size()), schema, options);
  };
  EXPECT_EQ(in_place(R"([{"insert":{"id":1,"customer":"ann","amount":2.5}},{"delete":{"id":2}}])", {}),
            (std::vector<std::string>{"+(1, 'ann', 2.5)", "-(2, NULL, NULL)"}));
  EXPECT_EQ(in_place("{\"id\":7}\n{\"id\":8}", raw_lines()),
            (std::vector<std::string>{"+(7, NULL, NULL)", "+(8, NULL, NULL)"}));
  EXPECT_TRUE(in_place("[]", {}).empty());
  std::string buffer = std::string(R"([{"insert":{"id":1}})") + std::string(kJsonPadding, ']');
  InputOptions padded;
  padded.padded = true;
  EXPECT_EQ(error_of(std::string_view(buffer.data(), 20), schema, padded),
            "record 0: malformed JSON: JSON document ended early in the middle of an object or array.");
  EXPECT_EQ(error_of(std::string_view(buffer.data(), 20), schema, padded),
            error_of(std::string_view(buffer.data(), 20), schema));
}

// A JsonTableReader is reused call after call (a pipeline keeps one per
// table): each call answers as a fresh parse would, whatever the one before
// it did or failed with.
TEST(JsonInputTest, AReaderReusedAcrossCallsAnswersAsAFreshParse) {
  Schema schema = orders_schema();
  TableShape table{&schema, {0}};
  JsonTableReader reader(table);
  InputOptions lines{UpdateFormat::kInsertDelete, false};
  const std::pair<std::string, InputOptions> calls[] = {
      {R"([{"insert":{"id":1,"customer":"a","amount":1}},{"delete":{"id":2}}])", {}},
      {R"([{"insert":{"id":3}},{"insert":{"id":4,"amount":"x"}}])", {}},        // a bad value in record 1
      {R"([{"insert":{"id":5}},{"insert":{"id":6})", {}},                         // malformed: element by element
      {R"([{"insert":{"id":7,"id":7}}])", {}},                                    // a column given twice
      {"{\"insert\":{\"id\":8}}\n{\"delete\":{\"id\":9,\"customer\":\"z\"}}\n", lines},
      {R"([{"id":10,"amount":2.5}])", InputOptions{UpdateFormat::kRaw, true}},
      {R"([{"insert":{"id":11,"customer":"b"}}])", {}},
  };
  for (const auto& [text, options] : calls) {
    Result<ParsedUpdates> reused = reader.parse(text, options);
    Result<ParsedUpdates> fresh = parse_json(text, table, options);
    ASSERT_EQ(reused.ok(), fresh.ok()) << text;
    if (!fresh.ok()) {
      EXPECT_EQ(reused.status().message(), fresh.status().message()) << text;
      continue;
    }
    EXPECT_EQ(describe(reused, table), describe(fresh, table)) << text;
  }
}

TEST(JsonInputTest, NewlineDelimitedWithBlankLines) {
  Schema schema = orders_schema();
  InputOptions options{UpdateFormat::kInsertDelete, false};
  EXPECT_EQ(parse("{\"insert\":{\"id\":1}}\n\n  \r\n{\"delete\":{\"id\":2,\"amount\":-1e3}}\r\n", schema, options),
            (std::vector<std::string>{"+(1, NULL, NULL)", "-(2, NULL, -1000)"}));
  EXPECT_EQ(parse("{\"id\":7}", schema, raw_lines()), (std::vector<std::string>{"+(7, NULL, NULL)"}));
}

TEST(JsonInputTest, RawArray) {
  Schema schema = orders_schema();
  EXPECT_EQ(parse(R"([{"id":1},{"amount":3,"id":2}])", schema, {UpdateFormat::kRaw, true}),
            (std::vector<std::string>{"+(1, NULL, NULL)", "+(2, NULL, 3)"}));
}

TEST(JsonInputTest, ColumnNamesExactThenUniqueIgnoringCase) {
  Schema schema({{"id", SqlType::bigint()}, {"Name", SqlType::varchar()}, {"name", SqlType::varchar()},
                 {"Region", SqlType::varchar()}});
  EXPECT_EQ(parse(R"({"ID":1,"name":"a","Name":"b","REGION":"r"})", schema, raw_lines()),
            (std::vector<std::string>{"+(1, 'b', 'a', 'r')"}));
  EXPECT_EQ(error_of(R"({"NAME":"x"})", schema, raw_lines()),
            "record 0: column 'NAME' is ambiguous (matches Name, name)");
  EXPECT_EQ(error_of(R"({"i\u0064":1,"id":2})", schema, raw_lines()), "record 0, column 'id': given twice");
}

TEST(JsonInputTest, KeyOnlyAndFullRowDeletes) {
  Schema schema({{"region", SqlType::varchar()}, {"id", SqlType::bigint(false)}, {"day", SqlType::date(false)},
                 {"total", SqlType::double_precision(false)}});
  std::vector<size_t> key = {2, 1};  // PRIMARY KEY (day, id)
  EXPECT_EQ(parse(R"([{"delete":{"id":1,"day":"2024-03-01"}},
                      {"delete":{"id":1,"day":"2024-03-01","total":2,"region":"x"}},
                      {"insert":{"id":1,"day":"2024-03-01","total":2}}])",
                  schema, {}, key),
            (std::vector<std::string>{"-key(2024-03-01, 1)", "-('x', 1, 2024-03-01, 2)",
                                      "+(NULL, 1, 2024-03-01, 2)"}));
  // A key-only delete still needs its NOT NULL key columns; a delete naming a
  // non-key column is a full row.
  EXPECT_EQ(error_of(R"([{"delete":{"id":1}}])", schema, {}, ErrorCode::kTypeError, key),
            "record 0, column 'day': NULL in NOT NULL column (missing from the record)");
  EXPECT_EQ(error_of(R"([{"delete":{"id":1,"day":"2024-03-01","region":"x"}}])", schema, {}, ErrorCode::kTypeError,
                     key),
            "record 0, column 'total': NULL in NOT NULL column (missing from the record)");
  // Without a key a delete is a full row: missing nullable columns are NULL.
  Schema orders = orders_schema();
  EXPECT_EQ(parse(R"([{"delete":{"id":1}}])", orders), (std::vector<std::string>{"-(1, NULL, NULL)"}));
}

TEST(JsonInputTest, Booleans) {
  EXPECT_EQ(one_value("b", "true"), "TRUE");
  EXPECT_EQ(one_value("b", "false"), "FALSE");
  EXPECT_EQ(one_value("b", "\"True\""), "TRUE");
  EXPECT_EQ(one_value("b", "null"), "NULL");
  EXPECT_EQ(value_error("b", "1"), "record 0, column 'b': expected a boolean, found 1");
  EXPECT_EQ(value_error("b", "\"yes\""), "record 0, column 'b': expected a boolean, found \"yes\"");
}

TEST(JsonInputTest, IntegersWithRangeChecks) {
  EXPECT_EQ(one_value("tiny", "-128"), "-128");
  EXPECT_EQ(one_value("tiny", "\"127\""), "127");
  EXPECT_EQ(one_value("small", "-32768"), "-32768");
  EXPECT_EQ(one_value("i", "2147483647"), "2147483647");
  EXPECT_EQ(one_value("big", "-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(value_error("tiny", "300", ErrorCode::kTypeError), "record 0, column 'tiny': 300 is out of range for TINYINT");
  EXPECT_EQ(value_error("small", "-32769", ErrorCode::kTypeError),
            "record 0, column 'small': -32769 is out of range for SMALLINT");
  EXPECT_EQ(value_error("i", "\"2147483648\"", ErrorCode::kTypeError),
            "record 0, column 'i': 2147483648 is out of range for INTEGER");
  EXPECT_EQ(value_error("big", "9223372036854775808", ErrorCode::kTypeError),
            "record 0, column 'big': 9223372036854775808 is out of range for BIGINT");
  EXPECT_EQ(value_error("big", "123456789012345678901234567890", ErrorCode::kTypeError),
            "record 0, column 'big': 123456789012345678901234567890 is out of range for BIGINT");
  EXPECT_EQ(value_error("i", "1.5"), "record 0, column 'i': expected an integer, found 1.5");
  EXPECT_EQ(value_error("i", "1e2"), "record 0, column 'i': expected an integer, found 1e2");
  EXPECT_EQ(value_error("i", "\"12a\""), "record 0, column 'i': expected an integer, found \"12a\"");
  EXPECT_EQ(value_error("i", "true"), "record 0, column 'i': expected an integer, found true");
  EXPECT_EQ(value_error("i", "[1]"), "record 0, column 'i': expected an integer, found [...]");
  EXPECT_EQ(value_error("i", "{\"a\":1}"), "record 0, column 'i': expected an integer, found {...}");
}

TEST(JsonInputTest, BigIntegersAreExact) {
  Schema schema = all_types_schema();
  TableShape table{&schema, {}};
  for (const char* json : {"{\"big\":9007199254740993}", "{\"big\":\"9007199254740993\"}"}) {
    auto result = parse_json(json, table, raw_lines());
    ASSERT_TRUE(result.ok()) << result.status().to_string();
    EXPECT_EQ(RowReader(schema, RowRef((*result)[0].row)).get_int(4), int64_t{9007199254740993});
  }
}

TEST(JsonInputTest, FloatingPoint) {
  EXPECT_EQ(one_value("d", "-2.5e-1"), "-0.25");
  EXPECT_EQ(one_value("d", "3"), "3");
  EXPECT_EQ(one_value("d", "\"1.25\""), "1.25");
  EXPECT_EQ(one_value("r", "0.5"), "0.5");
  EXPECT_EQ(one_value("d", "\"Infinity\""), "inf");
  EXPECT_EQ(one_value("d", "\"-Infinity\""), "-inf");
  EXPECT_EQ(one_value("d", "\"NaN\""), "nan");
  EXPECT_EQ(value_error("r", "1e39", ErrorCode::kTypeError), "record 0, column 'r': 1e39 is out of range for REAL");
  EXPECT_EQ(value_error("d", "1e400", ErrorCode::kTypeError), "record 0, column 'd': 1e400 is out of range for DOUBLE");
  EXPECT_EQ(value_error("d", "\"abc\""), "record 0, column 'd': expected a number, found \"abc\"");
  EXPECT_EQ(value_error("d", "false"), "record 0, column 'd': expected a number, found false");
}

TEST(JsonInputTest, DecimalsAreExactFromTheText) {
  Schema schema({{"m", SqlType::decimal(10, 1)}});
  TableShape table{&schema, {}};
  auto result = parse_json(R"([{"m":0.1},{"m":"12345.6"},{"m":1.25e2},{"m":-0.00}])", table, {UpdateFormat::kRaw, true});
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  std::vector<int128> expected = {1, 123456, 1250, 0};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(RowReader(schema, RowRef((*result)[i].row)).get_decimal(0) == expected[i]) << i;
  }
  EXPECT_EQ(one_value("m", "12345678.9"), "12345678.90");
  EXPECT_EQ(one_value("m", "1.50"), "1.50");
  EXPECT_EQ(value_error("m", "1.234", ErrorCode::kTypeError),
            "record 0, column 'm': '1.234' has more than 2 digits after the point");
  EXPECT_EQ(value_error("m", "123456789", ErrorCode::kTypeError),
            "record 0, column 'm': '123456789' does not fit DECIMAL(10, 2)");
  EXPECT_EQ(value_error("m", "1e200", ErrorCode::kTypeError), "record 0, column 'm': 1e200 does not fit DECIMAL(10, 2)");
  EXPECT_EQ(value_error("m", "\"abc\""), "record 0, column 'm': expected a number, found \"abc\"");
  // 37 digits scaled by 10^2 would overflow 128 bits (a fuzzer finding).
  Schema wide({{"m", SqlType::decimal(38, 2)}});
  EXPECT_EQ(error_of(R"({"m":1234567890123456789012345678901234567})", wide, raw_lines(), ErrorCode::kTypeError),
            "record 0, column 'm': '1234567890123456789012345678901234567' has too many digits");
}

TEST(JsonInputTest, StringsAreUtf8WithLengthLimits) {
  EXPECT_EQ(one_value("v", "\"h\\u00e9\\n\""), "'hé\n'");
  EXPECT_EQ(one_value("v", "\"日本語です\""), "'日本語です'");  // 5 code points, 15 bytes
  EXPECT_EQ(value_error("v", "\"日本語ですね\"", ErrorCode::kTypeError),
            "record 0, column 'v': \"日本語ですね\" has 6 characters, more than VARCHAR(5) allows");
  EXPECT_EQ(value_error("v", "5"), "record 0, column 'v': expected a string, found 5");
  EXPECT_EQ(error_of("{\"v\":\"\xff\"}", all_types_schema(), raw_lines()),
            "record 0: malformed JSON: The input is not valid UTF-8");
}

TEST(JsonInputTest, DatesAndTimestamps) {
  EXPECT_EQ(one_value("day", "\"2024-02-29\""), "2024-02-29");
  EXPECT_EQ(one_value("ts", "\"2024-03-01 12:30:00.25\""), "2024-03-01 12:30:00.250");
  EXPECT_EQ(one_value("ts", "\"2024-03-01T12:30:00\""), "2024-03-01 12:30:00");
  EXPECT_EQ(value_error("day", "\"2023-02-29\"", ErrorCode::kTypeError),
            "record 0, column 'day': '2023-02-29' is not a valid calendar date");
  EXPECT_EQ(value_error("day", "20240101"), "record 0, column 'day': expected a date 'YYYY-MM-DD', found 20240101");
  EXPECT_EQ(value_error("ts", "\"2024-03-01\"", ErrorCode::kTypeError),
            "record 0, column 'ts': '2024-03-01' is not a timestamp (expected YYYY-MM-DD HH:MM:SS[.ffffff])");
  EXPECT_EQ(value_error("ts", "1"), "record 0, column 'ts': expected a timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]', found 1");
}

TEST(JsonInputTest, RecordErrors) {
  Schema schema = orders_schema();
  EXPECT_EQ(error_of(R"([{"insert":{"id":1}}, {"insert":{"id":2}}, {"insert":{"id":3,"amount":"abc"}}])", schema),
            "record 2, column 'amount': expected a number, found \"abc\"");
  EXPECT_EQ(error_of(R"([{"id":1}])", schema), "record 0: expected an object with \"insert\" or \"delete\"");
  EXPECT_EQ(error_of(R"([{"insert":{"id":1},"delete":{"id":1}}])", schema),
            "record 0: expected an object with \"insert\" or \"delete\"");
  EXPECT_EQ(error_of(R"([{}])", schema), "record 0: expected an object with \"insert\" or \"delete\"");
  EXPECT_EQ(error_of(R"([5])", schema), "record 0: expected an object with \"insert\" or \"delete\"");
  EXPECT_EQ(error_of(R"([{"insert":[1]}])", schema), "record 0: expected a row object in \"insert\", found [...]");
  EXPECT_EQ(error_of(R"([{"insert":{"id":1}}, {"insert":{"id":null}}])", schema, {}, ErrorCode::kTypeError),
            "record 1, column 'id': NULL in NOT NULL column");
  EXPECT_EQ(error_of(R"([{"insert":{"customer":"x"}}])", schema, {}, ErrorCode::kTypeError),
            "record 0, column 'id': NULL in NOT NULL column (missing from the record)");
  EXPECT_EQ(error_of(R"({"id":1}
{"id":2}
{"id":3}
{"id":4}
{"id":5,"colour":"red"})",
                     schema, raw_lines()),
            "record 4: unknown column 'colour' (columns: id, customer, amount)");
  EXPECT_EQ(error_of(R"([1,2])", schema, {UpdateFormat::kRaw, true}), "record 0: expected a row object, found 1");
  EXPECT_EQ(error_of(R"({"id":1})", schema), "expected a JSON array of records (or array=false for one record per line)");
}

TEST(JsonInputTest, MalformedJson) {
  Schema schema = orders_schema();
  EXPECT_EQ(error_of(R"([{"insert":{"id":1}}, {"insert":{"id":2}}, {"insert":{"id":3}}, {"insert":{"id":)", schema),
            "record 3: malformed JSON: The JSON document has an improper structure: missing or superfluous commas, "
            "braces, missing keys, etc.");
  EXPECT_EQ(error_of("{\"id\":1}\n{\"id\":2} {\"id\":3}\n", schema, raw_lines()),
            "record 1: malformed JSON: Unexpected trailing content in the JSON input.");
  EXPECT_EQ(error_of("[{\"insert\":{\"id\":1}}] x", schema),
            "malformed JSON after the array: Unexpected trailing content in the JSON input.");
  EXPECT_EQ(error_of(R"({"id":01})", schema, raw_lines()), "record 0: malformed JSON: Problem while parsing a number");
  EXPECT_EQ(error_of(R"({"id":nul})", schema, raw_lines()),
            "record 0: malformed JSON: Problem while parsing an atom starting with the letter 'n'");
}

TEST(JsonInputTest, ALateBadRecordFailsTheWholeCall) {
  Schema schema = orders_schema();
  std::string data = "[";
  for (int i = 0; i < 100000; ++i) {
    data += "{\"insert\":{\"id\":" + std::to_string(i) + ",\"customer\":\"c\",\"amount\":1.5}},";
  }
  std::string good = data.substr(0, data.size() - 1) + "]";
  TableShape table{&schema, {}};
  auto result = parse_json(good, table, {});
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  EXPECT_EQ(result->size(), 100000u);
  data += "{\"insert\":{\"id\":\"x\"}}]";
  EXPECT_EQ(error_of(data, schema), "record 100000, column 'id': expected an integer, found \"x\"");
}

}  // namespace
}  // namespace freshet::format
