// TIME and intervals crossing the formats: JSON output writes TIME as
// Feldera's default "%H:%M:%S%.f" and intervals as CAST(... AS VARCHAR)
// gives them; JSON, CSV and row blocks read TIME from text (an interval
// column, which only views have, reads back what the output wrote).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "freshet/format/json_input.h"
#include "freshet/format/json_output.h"
#include "freshet/format/row_block.h"
#include "freshet/types/interval.h"
#include "freshet/types/row.h"
#include "freshet/types/temporal.h"

namespace freshet::format {
namespace {

Schema temporal_schema() {
  return Schema({{"t", SqlType::time()},
                 {"ds", SqlType::interval_day_time()},
                 {"hm", SqlType::interval_day_time(IntervalUnit::kHour, IntervalUnit::kMinute)},
                 {"ym", SqlType::interval_year_month()},
                 {"m", SqlType::interval_year_month(IntervalUnit::kMonth, IntervalUnit::kMonth)}});
}

std::vector<Value> sample_values() {
  return {Value::time(*parse_time("08:30:00.25")),
          Value::interval(TypeId::kIntervalDayTime, -(kMicrosPerDay + 2 * kMicrosPerHour + 1), IntervalUnit::kDay,
                          IntervalUnit::kSecond),
          Value::interval(TypeId::kIntervalDayTime, 26 * kMicrosPerHour + 3 * kMicrosPerMinute, IntervalUnit::kHour,
                          IntervalUnit::kMinute),
          Value::interval(TypeId::kIntervalYearMonth, 14, IntervalUnit::kYear, IntervalUnit::kMonth),
          Value::interval(TypeId::kIntervalYearMonth, -3, IntervalUnit::kMonth, IntervalUnit::kMonth)};
}

const char* kSampleJson = R"({"t":"08:30:00.250","ds":"-1 02:00:00.000001","hm":"+26:03","ym":"+1-02","m":"-3"})";

TEST(TemporalFormatTest, JsonOutputWritesTimeAndIntervalsAsText) {
  Schema schema = temporal_schema();
  std::string bytes = encode_row(schema, sample_values());
  std::string out;
  append_json_row(RowReader(schema, RowRef(bytes)), &out);
  EXPECT_EQ(out, kSampleJson);
  std::string nulls = encode_row(
      schema, {Value::null(TypeId::kTime), Value::null(TypeId::kIntervalDayTime), Value::null(TypeId::kIntervalDayTime),
               Value::null(TypeId::kIntervalYearMonth), Value::null(TypeId::kIntervalYearMonth)});
  out.clear();
  append_json_row(RowReader(schema, RowRef(nulls)), &out);
  EXPECT_EQ(out, R"({"t":null,"ds":null,"hm":null,"ym":null,"m":null})");
}

TEST(TemporalFormatTest, JsonInputReadsWhatTheOutputWrote) {
  Schema schema = temporal_schema();
  TableShape table{&schema, {}};
  auto parsed = parse_json(std::string("[") + kSampleJson + "]", table, InputOptions{UpdateFormat::kRaw, true});
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].row.to_bytes(), encode_row(schema, sample_values()));
}

TEST(TemporalFormatTest, JsonInputRefusesBadTime) {
  Schema schema({{"t", SqlType::time()}});
  TableShape table{&schema, {}};
  auto wrong_kind = parse_json(R"([{"t": 123}])", table, InputOptions{UpdateFormat::kRaw, true});
  ASSERT_FALSE(wrong_kind.ok());
  EXPECT_EQ(wrong_kind.status().code(), ErrorCode::kParseError);
  EXPECT_NE(wrong_kind.status().message().find("expected a time 'HH:MM:SS[.ffffff]', found 123"), std::string::npos)
      << wrong_kind.status().message();
  auto bad_text = parse_json(R"([{"t": "25:00:00"}])", table, InputOptions{UpdateFormat::kRaw, true});
  ASSERT_FALSE(bad_text.ok());
  EXPECT_EQ(bad_text.status().code(), ErrorCode::kTypeError);
  EXPECT_NE(bad_text.status().message().find("'25:00:00' is not a time"), std::string::npos)
      << bad_text.status().message();
}

TEST(TemporalFormatTest, CsvReadsTime) {
  Schema schema({{"id", SqlType::integer()}, {"t", SqlType::time()}});
  TableShape table{&schema, {}};
  auto parsed = parse_csv("1,23:59:59.999999\n2,\n3,\"00:00:01\"\n", table);
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  std::vector<std::string> rows;
  for (const ParsedUpdate update : *parsed) rows.push_back(RowReader(schema, RowRef(update.row)).to_string());
  EXPECT_EQ(rows, (std::vector<std::string>{"(1, 23:59:59.999999)", "(2, NULL)", "(3, 00:00:01)"}));
  auto bad = parse_csv("1,12:00\n", table);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'12:00' is not a time"), std::string::npos) << bad.status().message();
}

void put_u32(std::string& out, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>(value >> (8 * i));
}

// A one-row, one-column block holding a string cell (as row_block.js writes TIME).
std::string string_block(const std::string& text) {
  std::string out(kRowBlockHeaderBytes + 9, '\0');
  put_u32(out, 0, kRowBlockMagic);
  put_u32(out, 4, 1);
  put_u32(out, 8, 1);
  double offset = static_cast<double>(out.size());
  out.resize(out.size() + 4);
  put_u32(out, out.size() - 4, static_cast<uint32_t>(text.size()));
  out += text;
  uint64_t bits;
  std::memcpy(&bits, &offset, 8);
  for (int b = 0; b < 8; ++b) out[kRowBlockHeaderBytes + b] = static_cast<char>(bits >> (8 * b));
  out[kRowBlockHeaderBytes + 8] = static_cast<char>(RowBlockKind::kString);
  return out;
}

TEST(TemporalFormatTest, RowBlocksCarryTimeAsText) {
  Schema schema({{"t", SqlType::time()}});
  RowBlockReader reader(TableShape{&schema, {}});
  auto parsed = reader.read(string_block("12:34:56.5"));
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->size(), 1u);
  EXPECT_EQ((*parsed)[0].row.to_bytes(), encode_row(schema, {Value::time(*parse_time("12:34:56.5"))}));
  auto bad = reader.read(string_block("noon"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'noon' is not a time"), std::string::npos) << bad.status().message();
}

}  // namespace
}  // namespace freshet::format
