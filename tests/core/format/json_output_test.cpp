// JSON output (json_output.h): every type's text, NULLs, escaping and
// invalid UTF-8, insert_delete records with weights, and a round trip through
// simdjson that must give back the same values.
#include "freshet/format/json_output.h"

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "freshet/types/decimal.h"
#include "freshet/types/temporal.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

#if defined(__GLIBCXX__)
#include <charconv>  // floating std::to_chars: the shortest-text oracle (libstdc++ only)
#endif

namespace freshet::format {
namespace {

// One column of a type, one value: the JSON text of that value.
std::string value_json(SqlType type, const Value& value) {
  Schema schema({{"c", type}});
  std::string bytes = encode_row(schema, {value});
  std::string out;
  append_json_value(RowReader(schema, RowRef(bytes)), 0, &out);
  return out;
}

std::string double_json(double value) { return value_json(SqlType::double_precision(), Value::double_precision(value)); }
std::string real_json(float value) { return value_json(SqlType::real(), Value::floating(TypeId::kReal, value)); }
std::string string_json(std::string_view text) {
  std::string out;
  append_json_string(text, &out);
  return out;
}

Schema all_types_schema() {
  return Schema({{"b", SqlType::boolean()},
                 {"t", SqlType::tinyint()},
                 {"s", SqlType::smallint()},
                 {"i", SqlType::integer()},
                 {"g", SqlType::bigint()},
                 {"r", SqlType::real()},
                 {"d", SqlType::double_precision()},
                 {"m", SqlType::decimal(20, 2)},
                 {"v", SqlType::varchar()},
                 {"w", SqlType::varchar()},
                 {"day", SqlType::date()},
                 {"ts", SqlType::timestamp()}});
}

std::string row_json(const Schema& schema, const std::vector<Value>& values) {
  std::string bytes = encode_row(schema, values);
  std::string out;
  append_json_row(RowReader(schema, RowRef(bytes)), &out);
  return out;
}

TEST(JsonOutputTest, EveryTypeInColumnOrder) {
  Schema schema = all_types_schema();
  std::vector<Value> values = {Value::boolean(true),
                               Value::integer(TypeId::kTinyInt, -7),
                               Value::integer(TypeId::kSmallInt, 30000),
                               Value::integer(TypeId::kInt, -2000000000),
                               Value::bigint(9223372036854775807),
                               Value::floating(TypeId::kReal, 1.5),
                               Value::double_precision(12.5),
                               Value::decimal(1250, 2),
                               Value::varchar("north"),
                               Value::varchar(""),
                               Value::date(*parse_date("2024-02-29")),
                               Value::timestamp(*parse_timestamp("2024-02-29 23:59:59.125"))};
  EXPECT_EQ(row_json(schema, values),
            R"({"b":true,"t":-7,"s":30000,"i":-2000000000,"g":9223372036854775807,"r":1.5,"d":12.5,)"
            R"("m":12.50,"v":"north","w":"","day":"2024-02-29","ts":"2024-02-29 23:59:59.125"})");
}

TEST(JsonOutputTest, NullsInEveryType) {
  Schema schema = all_types_schema();
  std::vector<Value> values;
  for (const Column& column : schema.columns()) values.push_back(Value::null(column.type.id));
  EXPECT_EQ(row_json(schema, values),
            R"({"b":null,"t":null,"s":null,"i":null,"g":null,"r":null,"d":null,"m":null,"v":null,"w":null,)"
            R"("day":null,"ts":null})");
  // A NULL string between two others: the bodies after it are still found.
  Schema strings({{"a", SqlType::varchar()}, {"b", SqlType::varchar()}, {"c", SqlType::varchar()}});
  EXPECT_EQ(row_json(strings, {Value::varchar("x"), Value::null(TypeId::kVarchar), Value::varchar("yz")}),
            R"({"a":"x","b":null,"c":"yz"})");
}

TEST(JsonOutputTest, ColumnNamesAreEscaped) {
  Schema schema({{"we\"ird\\", SqlType::boolean()}, {"ünï", SqlType::boolean()}});
  EXPECT_EQ(row_json(schema, {Value::boolean(false), Value::boolean(true)}), R"({"we\"ird\\":false,"ünï":true})");
  EXPECT_EQ(row_json(Schema(), {}), "{}");
}

TEST(JsonOutputTest, IntegersKeepEveryDigit) {
  EXPECT_EQ(value_json(SqlType::tinyint(), Value::integer(TypeId::kTinyInt, -128)), "-128");
  EXPECT_EQ(value_json(SqlType::tinyint(), Value::integer(TypeId::kTinyInt, 127)), "127");
  EXPECT_EQ(value_json(SqlType::smallint(), Value::integer(TypeId::kSmallInt, -32768)), "-32768");
  EXPECT_EQ(value_json(SqlType::integer(), Value::integer(TypeId::kInt, 2147483647)), "2147483647");
  EXPECT_EQ(value_json(SqlType::integer(), Value::integer(TypeId::kInt, 0)), "0");
  EXPECT_EQ(value_json(SqlType::bigint(), Value::bigint(std::numeric_limits<int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(value_json(SqlType::bigint(), Value::bigint(std::numeric_limits<int64_t>::max())), "9223372036854775807");
  EXPECT_EQ(value_json(SqlType::bigint(), Value::bigint(9007199254740993)), "9007199254740993");  // 2^53 + 1
}

TEST(JsonOutputTest, DoublesAreShortestRoundTrip) {
  EXPECT_EQ(double_json(0.1), "0.1");
  EXPECT_EQ(double_json(-0.1), "-0.1");
  EXPECT_EQ(double_json(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(double_json(1e-300), "1e-300");
  EXPECT_EQ(double_json(123456789.125), "123456789.125");
  EXPECT_EQ(double_json(100), "100");
  EXPECT_EQ(double_json(-3), "-3");
  EXPECT_EQ(double_json(1e16), "10000000000000000");
  EXPECT_EQ(double_json(1e17), "1e+17");
  EXPECT_EQ(double_json(1.5e-7), "1.5e-7");
  EXPECT_EQ(double_json(0.0001), "0.0001");
  EXPECT_EQ(double_json(0.05), "0.05");
  EXPECT_EQ(double_json(1234.56), "1234.56");
  EXPECT_EQ(double_json(2.0 / 3.0), "0.6666666666666666");
  EXPECT_EQ(double_json(DBL_MAX), "1.7976931348623157e+308");
  EXPECT_EQ(double_json(std::numeric_limits<double>::denorm_min()), "5e-324");
  EXPECT_EQ(double_json(-0.0), "0");  // rows are canonical: -0.0 is stored as 0.0
}

#if defined(__GLIBCXX__)
// Significant digits of a JSON number's text (leading and trailing zeros aside).
size_t significant_digits(std::string_view text) {
  std::string digits;
  for (char c : text.substr(0, text.find('e'))) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  size_t first = digits.find_first_not_of('0');
  size_t last = digits.find_last_not_of('0');
  return first == std::string::npos ? 0 : last - first + 1;
}
#endif

// Every double reads back exactly. Short decimals (the fast path) come out in
// the fewest digits; other doubles go through Grisu2, which is shortest for
// all but a tiny fraction of them and then one digit longer.
TEST(JsonOutputTest, RandomDoublesRoundTripInTheFewestDigits) {
  std::mt19937_64 random(42);
  int longer_than_shortest = 0;
  for (int i = 0; i < 100000; ++i) {
    double value;
    bool short_decimal = i % 3 == 1;
    if (i % 3 == 0) {
      uint64_t bits = random();
      std::memcpy(&value, &bits, sizeof value);
      if (!std::isfinite(value)) continue;
    } else if (short_decimal) {
      value = static_cast<double>(static_cast<int64_t>(random() % 2000000000) - 1000000000) /
              std::pow(10.0, static_cast<double>(random() % 12));
    } else {  // a running SUM of amounts in cents: 16 or 17 digits, Grisu2's case
      value = 0;
      for (uint64_t n = 2 + random() % 50; n > 0; --n) value += static_cast<double>(random() % 10000000) / 100;
    }
    if (value == 0) continue;
    std::string text = double_json(value);
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
#if defined(__GLIBCXX__)
    char shortest[64];
    char* end = std::to_chars(shortest, shortest + sizeof shortest, value).ptr;
    size_t fewest = significant_digits(std::string_view(shortest, end - shortest));
    if (short_decimal) {
      ASSERT_EQ(significant_digits(text), fewest) << text << " vs " << std::string_view(shortest, end - shortest);
    } else {
      ASSERT_LE(significant_digits(text), fewest + 1) << text << " vs " << std::string_view(shortest, end - shortest);
      if (significant_digits(text) > fewest) ++longer_than_shortest;
    }
    if (i == 99999) std::printf("[ digits   ] %d of ~66,000 doubles one digit longer than the fewest\n", longer_than_shortest);
#endif
  }
  EXPECT_LT(longer_than_shortest, 500);  // of ~66,000 doubles not short decimals
}

TEST(JsonOutputTest, RealsAreShortestAsFloats) {
  EXPECT_EQ(real_json(0.1f), "0.1");
  EXPECT_EQ(real_json(-2.25f), "-2.25");
  EXPECT_EQ(real_json(3.14159f), "3.14159");
  EXPECT_EQ(real_json(1e-10f), "1e-10");
  EXPECT_EQ(real_json(FLT_MAX), "3.4028235e+38");
  EXPECT_EQ(real_json(16777216.0f), "16777216");
  std::mt19937 random(7);
  for (int i = 0; i < 100000; ++i) {
    uint32_t bits = static_cast<uint32_t>(random());
    float value;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value)) continue;
    std::string text = real_json(value);
    ASSERT_EQ(std::strtof(text.c_str(), nullptr), value) << text;
  }
}

TEST(JsonOutputTest, NanAndInfinitiesAreStrings) {
  EXPECT_EQ(double_json(std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(double_json(std::numeric_limits<double>::infinity()), "\"Infinity\"");
  EXPECT_EQ(double_json(-std::numeric_limits<double>::infinity()), "\"-Infinity\"");
  EXPECT_EQ(real_json(std::numeric_limits<float>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(real_json(-std::numeric_limits<float>::infinity()), "\"-Infinity\"");
}

TEST(JsonOutputTest, DecimalsHaveExactlyTheirScale) {
  auto decimal_json = [](int128 unscaled, uint8_t precision, uint8_t scale) {
    return value_json(SqlType::decimal(precision, scale), Value::decimal(unscaled, scale));
  };
  EXPECT_EQ(decimal_json(12345, 10, 0), "12345");
  EXPECT_EQ(decimal_json(-7, 10, 0), "-7");
  EXPECT_EQ(decimal_json(0, 10, 0), "0");
  EXPECT_EQ(decimal_json(1250, 12, 2), "12.50");
  EXPECT_EQ(decimal_json(-5, 12, 2), "-0.05");
  EXPECT_EQ(decimal_json(0, 12, 2), "0.00");
  EXPECT_EQ(decimal_json(-123456789012345, 20, 2), "-1234567890123.45");
  int128 largest = pow10_int128(38) - 1;
  EXPECT_EQ(decimal_json(largest, 38, 0), std::string(38, '9'));
  EXPECT_EQ(decimal_json(-largest, 38, 38), "-0." + std::string(38, '9'));
  EXPECT_EQ(decimal_json(1, 38, 38), "0." + std::string(37, '0') + "1");
  // Against decimal_to_string on both sides of the 64-bit fast path.
  std::mt19937_64 random(3);
  for (int i = 0; i < 20000; ++i) {
    int128 unscaled = (static_cast<int128>(random()) << (random() % 60)) + static_cast<int128>(random() % 1000);
    if (random() % 2) unscaled = -unscaled;
    uint8_t scale = static_cast<uint8_t>(random() % 39);
    ASSERT_EQ(decimal_json(unscaled, 38, scale), decimal_to_string(unscaled, scale));
  }
}

TEST(JsonOutputTest, StringsAreEscaped) {
  EXPECT_EQ(string_json("plain"), "\"plain\"");
  EXPECT_EQ(string_json("say \"hi\""), R"("say \"hi\"")");
  EXPECT_EQ(string_json("C:\\dir"), R"("C:\\dir")");
  EXPECT_EQ(string_json("a\nb\rc\td\be\ff"), R"("a\nb\rc\td\be\ff")");
  EXPECT_EQ(string_json(std::string_view("\x00\x01\x1f\x7f", 4)), R"("\u0000\u0001\u001f)" "\x7f\"");
  EXPECT_EQ(string_json("/"), "\"/\"");
}

TEST(JsonOutputTest, ValidUtf8PassesThrough) {
  EXPECT_EQ(string_json("café"), "\"café\"");
  EXPECT_EQ(string_json("\xF0\x9F\x98\x80 ok"), "\"\xF0\x9F\x98\x80 ok\"");  // U+1F600
  EXPECT_EQ(string_json("\xE2\x82\xAC\xF4\x8F\xBF\xBF"), "\"\xE2\x82\xAC\xF4\x8F\xBF\xBF\"");  // U+20AC U+10FFFF
}

TEST(JsonOutputTest, InvalidUtf8BecomesReplacementCharacters) {
  const std::string kFffd = "\xEF\xBF\xBD";
  EXPECT_EQ(string_json("a\xFF" "b"), "\"a" + kFffd + "b\"");
  EXPECT_EQ(string_json("\x80"), "\"" + kFffd + "\"");                            // lone continuation
  EXPECT_EQ(string_json("a\xE2\x82"), "\"a" + kFffd + "\"");                       // truncated at the end
  EXPECT_EQ(string_json("\xE2\x82(x"), "\"" + kFffd + "(x\"");                     // maximal subpart: one
  EXPECT_EQ(string_json("\xC0\xAF"), "\"" + kFffd + kFffd + "\"");                 // overlong
  EXPECT_EQ(string_json("\xED\xA0\x80"), "\"" + kFffd + kFffd + kFffd + "\"");     // surrogate
  EXPECT_EQ(string_json("\xF4\x90\x80\x80"), "\"" + kFffd + kFffd + kFffd + kFffd + "\"");  // > U+10FFFF
  EXPECT_EQ(string_json("\xF0\x9F\x98\""), "\"" + kFffd + "\\\"\"");               // cut by a quote
}

TEST(JsonOutputTest, DatesAsFormatDate) {
  auto date_json = [](int32_t days) { return value_json(SqlType::date(), Value::date(days)); };
  EXPECT_EQ(date_json(0), "\"1970-01-01\"");
  EXPECT_EQ(date_json(-1), "\"1969-12-31\"");
  EXPECT_EQ(date_json(*parse_date("1900-03-01")), "\"1900-03-01\"");
  EXPECT_EQ(date_json(*parse_date("0001-01-01")), "\"0001-01-01\"");
  EXPECT_EQ(date_json(*parse_date("9999-12-31")), "\"9999-12-31\"");
  for (int32_t days = -800000; days < 2950000; days += 997) {
    ASSERT_EQ(date_json(days), "\"" + format_date(days) + "\"");
  }
  int32_t year_10000 = days_from_civil({10000, 1, 1});
  EXPECT_EQ(date_json(year_10000), "\"10000-01-01\"");
}

TEST(JsonOutputTest, TimestampsAsFormatTimestamp) {
  auto timestamp_json = [](int64_t micros) { return value_json(SqlType::timestamp(), Value::timestamp(micros)); };
  EXPECT_EQ(timestamp_json(0), "\"1970-01-01 00:00:00\"");
  EXPECT_EQ(timestamp_json(-1), "\"1969-12-31 23:59:59.999999\"");
  EXPECT_EQ(timestamp_json(*parse_timestamp("2024-03-01 12:30:00.25")), "\"2024-03-01 12:30:00.250\"");
  EXPECT_EQ(timestamp_json(*parse_timestamp("1969-07-20 20:17:40.000001")), "\"1969-07-20 20:17:40.000001\"");
  std::mt19937_64 random(11);
  for (int i = 0; i < 20000; ++i) {
    int64_t micros = static_cast<int64_t>(random() % 500'000'000'000'000'000) - 250'000'000'000'000'000;
    if (i % 3 == 0) micros -= micros % 1000;  // milliseconds
    if (i % 5 == 0) micros -= micros % kMicrosPerSecond;
    ASSERT_EQ(timestamp_json(micros), "\"" + format_timestamp(micros) + "\"");
  }
}

TEST(JsonOutputTest, EncoderMatchesAppendJsonRow) {
  Schema schema = all_types_schema();
  std::vector<Value> values = {Value::boolean(false),        Value::integer(TypeId::kTinyInt, 1),
                               Value::null(TypeId::kSmallInt), Value::integer(TypeId::kInt, 3),
                               Value::bigint(-4),             Value::floating(TypeId::kReal, 0.5),
                               Value::double_precision(0.1),  Value::decimal(-1, 2),
                               Value::varchar("a\"b"),        Value::null(TypeId::kVarchar),
                               Value::date(-719162),          Value::timestamp(1)};
  std::string bytes = encode_row(schema, values);
  JsonRowEncoder encoder(schema);
  std::string from_encoder = "prefix:";
  encoder.append_row(RowRef(bytes), &from_encoder);
  EXPECT_EQ(from_encoder, "prefix:" + row_json(schema, values));
}

TEST(JsonOutputTest, InsertDeleteRepeatsRowsByWeight) {
  Schema schema({{"id", SqlType::bigint()}, {"name", SqlType::varchar()}});
  BatchBuilder builder;
  auto add = [&](int64_t id, const char* name, Weight weight) {
    std::string row = encode_row(schema, {Value::bigint(id), Value::varchar(name)});
    builder.add_row(RowRef(row), weight);
  };
  add(1, "a", 2);
  add(2, "b", -1);
  add(3, "c", -3);
  add(4, "d", 1);
  BatchPtr batch = builder.finish();
  std::string out = "[";
  EXPECT_EQ(append_insert_delete(*batch, schema, &out), 7u);
  out += "]";
  EXPECT_EQ(out,
            R"([{"insert":{"id":1,"name":"a"}},{"insert":{"id":1,"name":"a"}},{"delete":{"id":2,"name":"b"}},)"
            R"({"delete":{"id":3,"name":"c"}},{"delete":{"id":3,"name":"c"}},{"delete":{"id":3,"name":"c"}},)"
            R"({"insert":{"id":4,"name":"d"}}])");

  std::string empty;
  EXPECT_EQ(append_insert_delete(*Batch::empty_batch(), schema, &empty), 0u);
  EXPECT_EQ(empty, "");
}

// A random row of all_types_schema(), each column NULL sometimes; strings are valid UTF-8.
std::vector<Value> random_row(std::mt19937_64& random) {
  static const char* kStrings[] = {"", "north", "say \"hi\"", "back\\slash", "tab\tnew\nline\x01", "café ☕ 😀"};
  std::vector<Value> values = {
      Value::boolean(random() % 2 == 0),
      Value::integer(TypeId::kTinyInt, static_cast<int8_t>(random())),
      Value::integer(TypeId::kSmallInt, static_cast<int16_t>(random())),
      Value::integer(TypeId::kInt, static_cast<int32_t>(random())),
      Value::bigint(static_cast<int64_t>(random())),
      Value::floating(TypeId::kReal, static_cast<float>(static_cast<int32_t>(random() % 200000) - 100000) / 100),
      Value::double_precision(static_cast<double>(static_cast<int64_t>(random() % 2000000) - 1000000) / 100 *
                              std::pow(10.0, static_cast<double>(random() % 40) - 20)),
      Value::decimal(static_cast<int128>(static_cast<int64_t>(random() % 2000000000000)) - 1000000000000, 2),
      Value::varchar(kStrings[random() % 6]),
      Value::varchar(kStrings[random() % 6]),
      Value::date(static_cast<int32_t>(random() % 100000) - 50000),
      Value::timestamp(static_cast<int64_t>(random() % 4'000'000'000'000'000) - 2'000'000'000'000'000)};
  for (Value& value : values) {
    if (random() % 10 == 0) value = Value::null(value.type());
  }
  return values;
}

// Checks one parsed field against the value it was written from.
void expect_same_value(simdjson::dom::element field, const SqlType& type, const Value& value) {
  if (value.is_null()) {
    EXPECT_TRUE(field.is_null());
    return;
  }
  switch (type.id) {
    case TypeId::kBoolean: EXPECT_EQ(field.get_bool().value_unsafe(), value.as_bool()); return;
    // A REAL's text is the shortest that reads back as the same float, not as the same double.
    case TypeId::kReal:
      EXPECT_EQ(static_cast<float>(field.get_double().value_unsafe()), static_cast<float>(value.as_double()));
      return;
    case TypeId::kDouble: EXPECT_EQ(field.get_double().value_unsafe(), value.as_double()); return;
    case TypeId::kDecimal: {
      std::string text = decimal_to_string(value.as_decimal(), value.decimal_scale());
      EXPECT_EQ(field.get_double().value_unsafe(), std::strtod(text.c_str(), nullptr));
      return;
    }
    case TypeId::kVarchar: EXPECT_EQ(field.get_string().value_unsafe(), value.as_string()); return;
    case TypeId::kDate: EXPECT_EQ(field.get_string().value_unsafe(), format_date(static_cast<int32_t>(value.as_int()))); return;
    case TypeId::kTimestamp: EXPECT_EQ(field.get_string().value_unsafe(), format_timestamp(value.as_int())); return;
    default: EXPECT_EQ(field.get_int64().value_unsafe(), value.as_int()); return;
  }
}

TEST(JsonOutputTest, RoundTripsThroughSimdjson) {
  Schema schema = all_types_schema();
  std::mt19937_64 random(5);
  std::vector<std::vector<Value>> rows;
  BatchBuilder builder;
  for (int i = 0; i < 2000; ++i) {
    rows.push_back(random_row(random));
    std::string bytes = encode_row(schema, rows.back());
    builder.add_row(RowRef(bytes), 1);
  }
  BatchPtr batch = builder.finish();
  std::string json = "[";
  size_t records = append_insert_delete(*batch, schema, &json);
  json += "]";

  simdjson::dom::parser parser;
  simdjson::dom::array parsed;
  ASSERT_EQ(parser.parse(json).get_array().get(parsed), simdjson::SUCCESS) << json.substr(0, 2000);
  ASSERT_EQ(parsed.size(), records);
  size_t index = 0;
  for (freshet::BatchCursor cursor(*batch); cursor.valid(); cursor.next(), ++index) {
    simdjson::dom::object row;
    ASSERT_EQ(parsed.at(index)["insert"].get_object().get(row), simdjson::SUCCESS);
    std::vector<Value> values = decode_row(schema, cursor.key());
    size_t column = 0;
    for (simdjson::dom::key_value_pair field : row) {
      ASSERT_LT(column, schema.size());
      EXPECT_EQ(field.key, schema.column(column).name);
      expect_same_value(field.value, schema.type(column), values[column]);
      ++column;
    }
    EXPECT_EQ(column, schema.size());
  }
}

}  // namespace
}  // namespace freshet::format
