// RowBlockReader: a block means what the same values as JSON mean (the
// rows are compared byte for byte with parse_json's), and every way a block
// or a cell can be wrong is refused with the record and the column.
#include "freshet/format/row_block.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "freshet/types/row.h"
#include "support/oracle.h"

namespace freshet::format {
namespace {

struct Null {};
struct Absent {};
using Cell = std::variant<Null, double, bool, std::string, Absent>;

void put_u32(std::string& out, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>(value >> (8 * i));
}

// What wasm-bindings/js/row_block.js writes for these rows (`ops`: one per
// row, 1 insert 0 delete; none: inserts, the raw format).
std::string block_of(const std::vector<std::vector<Cell>>& rows, size_t columns, const std::vector<uint8_t>& ops = {}) {
  const size_t cells = rows.size() * columns;
  std::string out(kRowBlockHeaderBytes + 9 * cells + ops.size(), '\0');
  put_u32(out, 0, kRowBlockMagic);
  put_u32(out, 4, static_cast<uint32_t>(rows.size()));
  put_u32(out, 8, static_cast<uint32_t>(columns));
  put_u32(out, 12, ops.empty() ? 0 : kRowBlockHasOps);
  for (size_t r = 0; r < ops.size(); ++r) out[kRowBlockHeaderBytes + 9 * cells + r] = static_cast<char>(ops[r]);
  const size_t kinds = kRowBlockHeaderBytes + 8 * cells;
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t c = 0; c < columns; ++c) {
      const size_t i = r * columns + c;
      const Cell& cell = rows[r][c];
      double slot = 0;
      RowBlockKind kind = RowBlockKind::kNull;
      if (const double* number = std::get_if<double>(&cell)) {
        kind = RowBlockKind::kNumber;
        slot = *number;
      } else if (const bool* flag = std::get_if<bool>(&cell)) {
        kind = *flag ? RowBlockKind::kTrue : RowBlockKind::kFalse;
      } else if (std::holds_alternative<Absent>(cell)) {
        kind = RowBlockKind::kAbsent;
      } else if (const std::string* text = std::get_if<std::string>(&cell)) {
        kind = RowBlockKind::kString;
        slot = static_cast<double>(out.size());
        out.resize(out.size() + 4);
        put_u32(out, out.size() - 4, static_cast<uint32_t>(text->size()));
        out += *text;
      }
      uint64_t bits;
      std::memcpy(&bits, &slot, 8);
      for (int b = 0; b < 8; ++b) out[kRowBlockHeaderBytes + 8 * i + b] = static_cast<char>(bits >> (8 * b));
      out[kinds + i] = static_cast<char>(kind);
    }
  }
  return out;
}

Schema all_types_schema() {
  return Schema({{"b", SqlType::boolean()},
                 {"tiny", SqlType::tinyint()},
                 {"i", SqlType::integer()},
                 {"big", SqlType::bigint(false)},
                 {"r", SqlType::real()},
                 {"d", SqlType::double_precision()},
                 {"m", SqlType::decimal(10, 2)},
                 {"v", SqlType::varchar(true, 5)},
                 {"day", SqlType::date()},
                 {"ts", SqlType::timestamp()}});
}

std::vector<std::string> rows_of(const Result<ParsedUpdates>& result) {
  std::vector<std::string> rows;
  EXPECT_TRUE(result.ok()) << result.status().to_string();
  if (!result.ok()) return rows;
  for (const ParsedUpdate update : *result) {
    EXPECT_TRUE(update.insert);
    EXPECT_FALSE(update.key_only);
    rows.push_back(update.row.to_bytes());
  }
  return rows;
}

// The same updates: operations, deletes by key and row bytes, in order.
void expect_same_updates(const ParsedUpdates& actual, const ParsedUpdates& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i].insert, expected[i].insert) << i;
    EXPECT_EQ(actual[i].key_only, expected[i].key_only) << i;
    EXPECT_EQ(actual[i].row.bytes(), expected[i].row.bytes()) << i;
  }
}

TEST(RowBlockTest, RowsEqualTheSameValuesReadAsJson) {
  Schema schema = all_types_schema();
  RowBlockReader reader(TableShape{&schema, {}});
  std::string block = block_of(
      {
          {true, 5.0, -7.0, 9007199254740991.0, 1.5, 0.1, std::string("12.34"), std::string("héllo"),
           std::string("2024-02-29"), std::string("2024-02-29 12:34:56.5")},
          {Null{}, Null{}, Null{}, -9007199254740991.0, Null{}, -1e300, Null{}, std::string(""), Null{}, Null{}},
          {false, -128.0, 2147483647.0, 1152921504606846976.0, 3.4e38, 5e-324, std::string("-0.5"),
           std::string("\xF0\x9F\x98\x80"), Null{}, Null{}},
          // Strings into non-text columns are read as JSON strings are.
          {std::string("TRUE"), std::string("+12"), std::string("-3"), std::string("42"), std::string("NaN"),
           std::string("-Infinity"), Null{}, Null{}, Null{}, Null{}},
      },
      schema.size());
  const char* json =
      "[{\"b\": true, \"tiny\": 5, \"i\": -7, \"big\": 9007199254740991, \"r\": 1.5, \"d\": 0.1, \"m\": \"12.34\","
      "  \"v\": \"h\\u00e9llo\", \"day\": \"2024-02-29\", \"ts\": \"2024-02-29 12:34:56.5\"},"
      " {\"big\": -9007199254740991, \"d\": -1e300, \"v\": \"\"},"
      " {\"b\": false, \"tiny\": -128, \"i\": 2147483647, \"big\": 1152921504606846976, \"r\": 3.4e38,"
      "  \"d\": 5e-324, \"m\": \"-0.5\", \"v\": \"\\ud83d\\ude00\"},"
      " {\"b\": \"TRUE\", \"tiny\": \"+12\", \"i\": \"-3\", \"big\": \"42\", \"r\": \"NaN\", \"d\": \"-Infinity\"}]";
  TableShape shape{&schema, {}};
  std::vector<std::string> expected = rows_of(parse_json(json, shape, InputOptions{UpdateFormat::kRaw, true}));
  ASSERT_EQ(expected.size(), 4u);
  EXPECT_EQ(rows_of(reader.read(block)), expected);
  // The reader keeps its builder between calls: a second read is the same.
  EXPECT_EQ(rows_of(reader.read(block)), expected);
  EXPECT_EQ(rows_of(reader.read(block_of({}, schema.size()))).size(), 0u);
}

// Inserts and deletes (the insert_delete format): deletes giving key
// columns only are by key, as in JSON; ABSENT is a column left out.
TEST(RowBlockTest, OperationsEqualTheSameRecordsReadAsJson) {
  Schema schema({{"id", SqlType::bigint(false)}, {"name", SqlType::varchar(false)}, {"x", SqlType::double_precision()}});
  TableShape keyed{&schema, {0}}, keyless{&schema, {}};
  std::vector<std::vector<Cell>> rows = {
      {1.0, std::string("a"), 1.5},       // insert
      {2.0, std::string("b"), Absent{}},  // insert, x left out: NULL
      {1.0, Absent{}, Absent{}},          // delete by key
      {3.0, std::string("c"), Null{}},    // delete of a whole row
      {4.0, Absent{}, Null{}},            // x given (null): a whole row, name missing
  };
  std::vector<uint8_t> ops = {1, 1, 0, 0, 0};
  const char* json =
      "[{\"insert\": {\"id\": 1, \"name\": \"a\", \"x\": 1.5}}, {\"insert\": {\"id\": 2, \"name\": \"b\"}},"
      " {\"delete\": {\"id\": 1}}, {\"delete\": {\"id\": 3, \"name\": \"c\", \"x\": null}},"
      " {\"delete\": {\"id\": 4, \"x\": null}}]";
  RowBlockReader keyed_reader(keyed);
  Result<ParsedUpdates> from_json = parse_json(json, keyed, InputOptions{});
  // The last record misses NOT NULL "name" and is not by key: both refuse it.
  ASSERT_FALSE(from_json.ok());
  Result<ParsedUpdates> from_block = keyed_reader.read(block_of(rows, 3, ops));
  ASSERT_FALSE(from_block.ok());
  EXPECT_EQ(from_block.status().code(), from_json.status().code());
  EXPECT_NE(from_block.status().message().find("record 4, column 'name'"), std::string::npos) << from_block.status().to_string();

  rows.pop_back();
  ops.pop_back();
  const char* good_json =
      "[{\"insert\": {\"id\": 1, \"name\": \"a\", \"x\": 1.5}}, {\"insert\": {\"id\": 2, \"name\": \"b\"}},"
      " {\"delete\": {\"id\": 1}}, {\"delete\": {\"id\": 3, \"name\": \"c\", \"x\": null}}]";
  {
    RowBlockReader reader(keyed);
    Result<ParsedUpdates> expected = parse_json(good_json, keyed, InputOptions{});
    Result<ParsedUpdates> actual = reader.read(block_of(rows, 3, ops));
    ASSERT_TRUE(expected.ok()) << expected.status().to_string();
    ASSERT_TRUE(actual.ok()) << actual.status().to_string();
    ASSERT_NO_FATAL_FAILURE(expect_same_updates(*actual, *expected));
    EXPECT_TRUE((*actual)[2].key_only) << "a delete of key columns only is by key in a keyed table";
  }
  // In a keyless table that delete is of a whole row, which misses NOT NULL "name".
  EXPECT_FALSE(parse_json(good_json, keyless, InputOptions{}).ok());
  EXPECT_FALSE(RowBlockReader(keyless).read(block_of(rows, 3, ops)).ok());
  EXPECT_FALSE(RowBlockReader(keyed).read(block_of({{1.0, Absent{}, Absent{}}}, 3, {7})).ok());  // unknown op
}

TEST(RowBlockTest, CellsJsonRefusesAreRefused) {
  Schema schema = all_types_schema();
  RowBlockReader reader(TableShape{&schema, {}});
  auto row_with = [&](size_t column, Cell cell) {
    std::vector<Cell> row(schema.size(), Null{});
    row[3] = 1.0;  // big is NOT NULL
    row[column] = std::move(cell);
    return block_of({row}, schema.size());
  };
  struct Case {
    size_t column;
    Cell cell;
    ErrorCode code;
    const char* message;
  };
  const Case cases[] = {
      {1, 1.5, ErrorCode::kParseError, "record 0, column 'tiny': expected an integer"},
      {1, 300.0, ErrorCode::kTypeError, "record 0, column 'tiny': 300 is out of range"},
      {3, 9223372036854775808.0, ErrorCode::kParseError, "record 0, column 'big': expected an integer"},
      {3, Null{}, ErrorCode::kTypeError, "record 0, column 'big': NULL in NOT NULL column"},
      {4, 1e39, ErrorCode::kTypeError, "record 0, column 'r'"},
      {5, std::nan(""), ErrorCode::kParseError, "record 0, column 'd'"},
      {6, 1.5, ErrorCode::kParseError, "record 0, column 'm'"},  // JSON reads DECIMAL from a number's text
      {7, 5.0, ErrorCode::kParseError, "record 0, column 'v'"},
      {7, std::string("toolong"), ErrorCode::kTypeError, "record 0, column 'v'"},
      {0, 1.0, ErrorCode::kParseError, "record 0, column 'b'"},
      {1, true, ErrorCode::kParseError, "record 0, column 'tiny'"},
      {8, std::string("2024-02-30"), ErrorCode::kTypeError, "record 0, column 'day'"},
      {7, std::string("\xC3"), ErrorCode::kParseError, "record 0, column 'v': malformed row block: a string that is not UTF-8"},
  };
  for (const Case& c : cases) {
    Result<ParsedUpdates> result = reader.read(row_with(c.column, c.cell));
    ASSERT_FALSE(result.ok()) << c.message;
    EXPECT_EQ(result.status().code(), c.code) << result.status().to_string();
    EXPECT_NE(result.status().message().find(c.message), std::string::npos) << result.status().to_string();
  }
  // After each refusal the reader starts clean.
  EXPECT_EQ(rows_of(reader.read(row_with(1, 2.0))).size(), 1u);
}

// Rows of integers, DOUBLEs and BOOLEANs only are written straight into
// the updates (RowBlockReader::read_plain_row) unless a cell is anything but
// a plain value of its column, which the general path then reads. Either
// way a record means what it means as JSON: random records of edge values,
// NULLs, left-out columns and strings, each read alone and in one block
// with the others, against parse_json of the same records as
// JSON.stringify writes them.
TEST(RowBlockTest, PlainRowsEqualTheSameRecordsReadAsJson) {
  Schema schema({{"b", SqlType::boolean()},
                 {"t", SqlType::tinyint()},
                 {"s", SqlType::smallint()},
                 {"i", SqlType::integer()},
                 {"big", SqlType::bigint(false)},
                 {"d", SqlType::double_precision()},
                 {"d2", SqlType::double_precision(false)},
                 {"i2", SqlType::integer()},
                 {"b2", SqlType::boolean(false)},
                 {"t2", SqlType::tinyint()}});  // 10 columns: two bytes of null bitmap
  const std::vector<double> numbers = {0.0,
                                       -0.0,
                                       1.0,
                                       -1.0,
                                       1.5,
                                       127.0,
                                       128.0,
                                       -128.0,
                                       -129.0,
                                       32767.0,
                                       32768.0,
                                       -32769.0,
                                       2147483647.0,
                                       2147483648.0,
                                       -2147483649.0,
                                       9007199254740993.0,
                                       9223372036854775807.0,
                                       -9223372036854775808.0,
                                       1e300,
                                       -1e-300,
                                       5e-324,
                                       0.1};
  const std::vector<std::string> texts = {"42", "1.5", "true", "x", "-0"};
  std::mt19937_64 random(testing::test_seed(71));
  // Any cell at all, many of them wrong for some column.
  auto wild = [&]() -> Cell {
    switch (random() % 8) {
      case 0:
        return Null{};
      case 1:
        return Absent{};
      case 2:
        return random() % 2 == 0;
      case 3:
        return texts[random() % texts.size()];
      default:
        return numbers[random() % numbers.size()];
    }
  };
  // A value that fits the column (NULL where it may be).
  auto fitting = [&](size_t column) -> Cell {
    const SqlType& type = schema.type(column);
    if (type.nullable && random() % 6 == 0) return Null{};
    if (type.id == TypeId::kBoolean) return random() % 2 == 0;
    if (type.id == TypeId::kDouble) {
      const double number = numbers[random() % numbers.size()];
      return random() % 2 == 0 ? number : -number;
    }
    return static_cast<double>(static_cast<int64_t>(random() % 255) - 128);
  };
  // As JSON.stringify writes the number (integral values as integers, -0 as 0).
  auto json_number = [](double value) {
    char text[40];
    if (std::trunc(value) == value && std::fabs(value) < 1e21) {
      std::snprintf(text, sizeof text, "%.0f", value == 0 ? 0.0 : value);
    } else {
      std::snprintf(text, sizeof text, "%.17g", value);
    }
    return std::string(text);
  };
  auto json_of = [&](const std::vector<Cell>& row) {
    std::string json = "{";
    for (size_t c = 0; c < row.size(); ++c) {
      const Cell& cell = row[c];
      if (std::holds_alternative<Absent>(cell)) continue;
      if (json.size() > 1) json += ",";
      json += "\"" + schema.column(c).name + "\":";
      if (std::holds_alternative<Null>(cell)) json += "null";
      if (const double* number = std::get_if<double>(&cell)) json += json_number(*number);
      if (const bool* flag = std::get_if<bool>(&cell)) json += *flag ? "true" : "false";
      if (const std::string* text = std::get_if<std::string>(&cell)) json += "\"" + *text + "\"";
    }
    return json + "}";
  };
  TableShape shape{&schema, {}};
  RowBlockReader reader(shape);
  std::vector<std::vector<Cell>> accepted;
  std::vector<std::string> accepted_rows;
  size_t plain = 0;
  for (int round = 0; round < 3000; ++round) {
    // A third plain, a third plain but for one cell the general path reads
    // (a column left out, an integer or a boolean as text), a third plain
    // but for one cell of any kind and value (out of range, not integral,
    // NULL in NOT NULL, ...).
    std::vector<Cell> row;
    for (size_t c = 0; c < schema.size(); ++c) row.push_back(fitting(c));
    if (round % 3 == 2) row[random() % schema.size()] = wild();
    if (round % 3 == 1) {
      const size_t c = random() % schema.size();
      const TypeId type = schema.type(c).id;
      row[c] = schema.type(c).nullable && random() % 2 == 0 ? Cell(Absent{})
               : type == TypeId::kBoolean                   ? Cell(std::string("true"))
               : type == TypeId::kDouble                    ? Cell(std::string("1.5"))
                                                            : Cell(std::string("42"));
    }
    const std::string json = "[" + json_of(row) + "]";
    Result<ParsedUpdates> expected = parse_json(json, shape, InputOptions{UpdateFormat::kRaw, true});
    Result<ParsedUpdates> actual = reader.read(block_of({row}, schema.size()));
    ASSERT_EQ(actual.ok(), expected.ok())
        << json << "\nJSON: " << expected.status().to_string() << "\nblock: " << actual.status().to_string();
    if (!expected.ok()) continue;
    ASSERT_EQ(rows_of(actual), rows_of(expected)) << json;
    accepted.push_back(row);
    accepted_rows.push_back(rows_of(expected)[0]);
    bool all_plain = true;
    for (const Cell& cell : row)
      all_plain = all_plain && !std::holds_alternative<Absent>(cell) && !std::holds_alternative<std::string>(cell);
    plain += all_plain;
  }
  EXPECT_GT(plain, 900u) << "too few records took the plain path";
  EXPECT_GT(accepted.size() - plain, 900u) << "too few accepted records took the general path";
  // All the accepted records in one block, plain and general rows mixed.
  EXPECT_EQ(rows_of(reader.read(block_of(accepted, schema.size()))), accepted_rows);
}

// In a keyed table of plain columns, inserts take the plain path and
// deletes the general one (a delete giving only the key is by key).
TEST(RowBlockTest, PlainRowsWithOperationsEqualTheSameRecordsReadAsJson) {
  Schema schema({{"id", SqlType::bigint(false)}, {"x", SqlType::double_precision()}, {"n", SqlType::integer()}});
  TableShape keyed{&schema, {0}};
  std::vector<std::vector<Cell>> rows = {
      {1.0, 1.5, 7.0}, {2.0, Null{}, -3.0}, {1.0, Absent{}, Absent{}}, {3.0, 0.5, 1.0}, {4.0, -0.0, Null{}}};
  const std::vector<uint8_t> ops = {1, 1, 0, 0, 1};
  const char* json =
      "[{\"insert\": {\"id\": 1, \"x\": 1.5, \"n\": 7}}, {\"insert\": {\"id\": 2, \"x\": null, \"n\": -3}},"
      " {\"delete\": {\"id\": 1}}, {\"delete\": {\"id\": 3, \"x\": 0.5, \"n\": 1}},"
      " {\"insert\": {\"id\": 4, \"x\": 0, \"n\": null}}]";
  Result<ParsedUpdates> expected = parse_json(json, keyed, InputOptions{});
  Result<ParsedUpdates> actual = RowBlockReader(keyed).read(block_of(rows, 3, ops));
  ASSERT_TRUE(expected.ok()) << expected.status().to_string();
  ASSERT_TRUE(actual.ok()) << actual.status().to_string();
  ASSERT_NO_FATAL_FAILURE(expect_same_updates(*actual, *expected));
}

// A bulk load is read in chunks of rows (row_block.cpp): across their
// boundaries the rows are those JSON gives, in order, and a bad row in a
// later chunk is named by its record number, with nothing returned.
TEST(RowBlockTest, LargeBlocksReadAsJsonAndNameABadRowAcrossChunks) {
  Schema schema({{"id", SqlType::bigint(false)}, {"s", SqlType::varchar()}, {"x", SqlType::double_precision()}});
  TableShape shape{&schema, {}};
  RowBlockReader reader(shape);
  const size_t count = 5000;  // more than two chunks
  std::vector<std::vector<Cell>> rows;
  std::string json = "[";
  for (size_t i = 0; i < count; ++i) {
    const std::string text = "s" + std::to_string(i * 7919 % 1000);
    rows.push_back({static_cast<double>(i), i % 3 ? Cell(text) : Cell(Null{}), static_cast<double>(i) / 4});
    json += (i ? "," : "") + std::string("{\"id\":") + std::to_string(i) + (i % 3 ? ",\"s\":\"" + text + "\"" : "") +
            ",\"x\":" + std::to_string(static_cast<double>(i) / 4) + "}";
  }
  json += "]";
  std::vector<std::string> expected = rows_of(parse_json(json, shape, InputOptions{UpdateFormat::kRaw, true}));
  ASSERT_EQ(expected.size(), count);
  EXPECT_EQ(rows_of(reader.read(block_of(rows, 3))), expected);

  rows[4100][0] = Null{};  // NOT NULL
  Result<ParsedUpdates> refused = reader.read(block_of(rows, 3));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kTypeError);
  EXPECT_NE(refused.status().message().find("record 4100, column 'id'"), std::string::npos)
      << refused.status().to_string();
  // The reader starts clean after it.
  rows[4100][0] = 4100.0;
  EXPECT_EQ(rows_of(reader.read(block_of(rows, 3))), expected);
}

// Parts of one ingest read into one ParsedUpdates (pipeline.h IngestPart)
// equal the whole block, and a bad row is named by its record in the whole.
TEST(RowBlockTest, PartsReadIntoOneUpdatesAsTheWholeBlock) {
  Schema schema({{"id", SqlType::bigint(false)}, {"s", SqlType::varchar()}});
  TableShape shape{&schema, {}};
  RowBlockReader reader(shape);
  std::vector<std::vector<Cell>> rows;
  for (size_t i = 0; i < 3000; ++i) rows.push_back({static_cast<double>(i), Cell("t" + std::string(i % 13, 'x'))});
  std::vector<std::string> expected = rows_of(reader.read(block_of(rows, 2)));
  auto part = [&](size_t from, size_t to) {
    return block_of(std::vector<std::vector<Cell>>(rows.begin() + from, rows.begin() + to), 2);
  };
  ParsedUpdates updates;
  ASSERT_TRUE(reader.read(part(0, 1000), updates, rows.size()).ok());
  ASSERT_TRUE(reader.read(part(1000, 2500), updates, 0).ok());
  ASSERT_TRUE(reader.read(part(2500, 3000), updates, 0).ok());
  EXPECT_EQ(rows_of(Result<ParsedUpdates>(std::move(updates))), expected);

  rows[1700][0] = Null{};
  ParsedUpdates refused;
  ASSERT_TRUE(reader.read(part(0, 1000), refused, rows.size()).ok());
  Status status = reader.read(part(1000, 2500), refused, 0);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("record 1700, column 'id'"), std::string::npos) << status.to_string();
}

TEST(RowBlockTest, MalformedBlocksAreRefused) {
  Schema schema({{"x", SqlType::bigint()}, {"s", SqlType::varchar()}});
  RowBlockReader reader(TableShape{&schema, {}});
  std::string good = block_of({{1.0, std::string("abc")}, {2.0, Null{}}}, 2);
  ASSERT_TRUE(reader.read(good).ok());
  auto refused = [&](std::string block, const char* reason) {
    Result<ParsedUpdates> result = reader.read(block);
    ASSERT_FALSE(result.ok()) << reason;
    EXPECT_EQ(result.status().code(), ErrorCode::kParseError);
    EXPECT_NE(result.status().message().find(reason), std::string::npos) << result.status().to_string();
  };
  refused("", "no row block header");
  refused(std::string(good).replace(0, 1, "X"), "no row block header");
  refused(block_of({{1.0}}, 1), "1 columns, the table has 2");
  refused(good.substr(0, good.size() - 10), "shorter than its 2 rows");
  // The first string's offset, then its length, pointing past the end.
  std::string bad_offset = good;
  double past = 1e9;
  std::memcpy(&bad_offset[kRowBlockHeaderBytes + 8], &past, 8);
  refused(bad_offset, "record 0, column 's': malformed row block: a string outside the block");
  std::string bad_length = good;
  put_u32(bad_length, good.size() - 7, 1000);
  refused(bad_length, "a string outside the block");
  std::string bad_kind = good;
  bad_kind[kRowBlockHeaderBytes + 8 * 4 + 1] = 9;
  refused(bad_kind, "a cell of unknown kind 9");
}

}  // namespace
}  // namespace freshet::format
