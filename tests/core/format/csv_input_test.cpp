// parse_csv: RFC 4180 quoting and line ends, NULLs, the per-type text rules
// shared with JSON, and every error message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "freshet/format/json_input.h"
#include "freshet/types/row.h"

namespace freshet::format {
namespace {

Schema orders_schema() {
  return Schema({{"id", SqlType::bigint(false)}, {"customer", SqlType::varchar()}, {"amount", SqlType::decimal(10, 2)}});
}

std::vector<std::string> parse(std::string_view data, const Schema& schema) {
  TableShape table{&schema, {}};
  auto result = parse_csv(data, table);
  std::vector<std::string> out;
  EXPECT_TRUE(result.ok()) << result.status().to_string();
  if (!result.ok()) return out;
  for (const ParsedUpdate update : *result) {
    EXPECT_TRUE(update.insert);
    EXPECT_FALSE(update.key_only);
    out.push_back(RowReader(schema, RowRef(update.row)).to_string());
  }
  return out;
}

std::string error_of(std::string_view data, const Schema& schema, ErrorCode code = ErrorCode::kParseError) {
  TableShape table{&schema, {}};
  auto result = parse_csv(data, table);
  EXPECT_FALSE(result.ok());
  if (result.ok()) return "";
  EXPECT_EQ(result.status().code(), code) << result.status().message();
  return result.status().message();
}

TEST(CsvInputTest, LinesAndLineEnds) {
  Schema schema = orders_schema();
  EXPECT_EQ(parse("1,ann,2.50\n2,bob,3\r\n3,,-0.1", schema),
            (std::vector<std::string>{"(1, 'ann', 2.50)", "(2, 'bob', 3.00)", "(3, NULL, -0.10)"}));
  EXPECT_EQ(parse("1,ann,2.50\n", schema), (std::vector<std::string>{"(1, 'ann', 2.50)"}));
  EXPECT_TRUE(parse("", schema).empty());
}

TEST(CsvInputTest, QuotingEdgeCases) {
  Schema schema = orders_schema();
  EXPECT_EQ(parse("1,\"a, \"\"b\"\"\",1\n2,\"line\r\nbreak\",2\n3,\"\",3\n4,\"\"\"\",4\n5,a\rb,5\n6,\"日本\",\"6.5\"", schema),
            (std::vector<std::string>{"(1, 'a, \"b\"', 1.00)", "(2, 'line\r\nbreak', 2.00)", "(3, '', 3.00)",
                                      "(4, '\"', 4.00)", "(5, 'a\rb', 5.00)", "(6, '日本', 6.50)"}));
  Schema one({{"v", SqlType::varchar()}});
  EXPECT_EQ(parse("\n\"\"\n", one), (std::vector<std::string>{"(NULL)", "('')"}));
  EXPECT_EQ(parse("x,", Schema({{"a", SqlType::varchar()}, {"b", SqlType::varchar()}})),
            (std::vector<std::string>{"('x', NULL)"}));
}

TEST(CsvInputTest, EveryTypeFromText) {
  Schema schema({{"b", SqlType::boolean()},
                 {"tiny", SqlType::tinyint()},
                 {"big", SqlType::bigint()},
                 {"r", SqlType::real()},
                 {"d", SqlType::double_precision()},
                 {"day", SqlType::date()},
                 {"ts", SqlType::timestamp()}});
  EXPECT_EQ(parse("TRUE,-128,9007199254740993,0.5,-1e3,2024-02-29,2024-03-01 12:30:00.5\nfalse,+7,,,NaN,,", schema),
            (std::vector<std::string>{"(TRUE, -128, 9007199254740993, 0.5, -1000, 2024-02-29, 2024-03-01 12:30:00.500)",
                                      "(FALSE, 7, NULL, NULL, nan, NULL, NULL)"}));
  EXPECT_EQ(error_of("yes,,,,,,", schema), "record 0, column 'b': expected a boolean, found \"yes\"");
  EXPECT_EQ(error_of(",128,,,,,", schema, ErrorCode::kTypeError),
            "record 0, column 'tiny': 128 is out of range for TINYINT");
  EXPECT_EQ(error_of(",1.5,,,,,", schema), "record 0, column 'tiny': expected an integer, found \"1.5\"");
  EXPECT_EQ(error_of(",,,,1.2.3,,", schema), "record 0, column 'd': expected a number, found \"1.2.3\"");
  EXPECT_EQ(error_of(",,,,,2024-13-01,", schema, ErrorCode::kTypeError),
            "record 0, column 'day': '2024-13-01' is not a valid calendar date");
  EXPECT_EQ(error_of(",,,,,,\"\"", schema, ErrorCode::kTypeError),
            "record 0, column 'ts': '' is not a timestamp (expected YYYY-MM-DD HH:MM:SS[.ffffff])");
}

TEST(CsvInputTest, Errors) {
  Schema schema = orders_schema();
  EXPECT_EQ(error_of("1,a,1\n2,b,2\n3,c\n", schema), "record 2: expected 3 fields, found 2");
  EXPECT_EQ(error_of("1,a,1,4", schema), "record 0: expected 3 fields, found 4");
  EXPECT_EQ(error_of("1,a,1\n\n", schema), "record 1: expected 3 fields, found 1");
  EXPECT_EQ(error_of("1,a,1\n,b,1", schema, ErrorCode::kTypeError), "record 1, column 'id': NULL in NOT NULL column");
  EXPECT_EQ(error_of("1,a,abc", schema), "record 0, column 'amount': expected a number, found \"abc\"");
  EXPECT_EQ(error_of("1,a,1.234", schema, ErrorCode::kTypeError),
            "record 0, column 'amount': '1.234' has more than 2 digits after the point");
  EXPECT_EQ(error_of("1,\"a,1", schema), "record 0: unterminated quoted field");
  EXPECT_EQ(error_of("1,\"a\"b,1", schema), "record 0: expected ',' or a line end after a quoted field, found 'b'");
  EXPECT_EQ(error_of("1,a\"b,1", schema),
            "record 0: '\"' inside an unquoted field (quote the whole field, doubling its quotes)");
  EXPECT_EQ(error_of("1,\xff,1", schema), "record 0, column 'customer': invalid UTF-8");
  Schema short_text({{"v", SqlType::varchar(true, 3)}});
  EXPECT_EQ(error_of("abcd", short_text, ErrorCode::kTypeError),
            "record 0, column 'v': \"abcd\" has 4 characters, more than VARCHAR(3) allows");
}

TEST(CsvInputTest, ALateBadRecordFailsTheWholeCall) {
  Schema schema = orders_schema();
  std::string data;
  for (int i = 0; i < 50000; ++i) data += std::to_string(i) + ",c,1.5\n";
  EXPECT_EQ(parse(data, schema).size(), 50000u);
  data += "x,c,1\n";
  EXPECT_EQ(error_of(data, schema), "record 50000, column 'id': expected an integer, found \"x\"");
}

}  // namespace
}  // namespace freshet::format
