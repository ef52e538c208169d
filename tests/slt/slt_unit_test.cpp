// The runner's pieces (part of freshet_tests): SQLite's printing of values,
// the record reader, the INSERT translation, sort modes and hashed results.
#include <gtest/gtest.h>

#include "freshet/common/md5.h"
#include "freshet/types/value.h"
#include "slt_file.h"
#include "slt_insert.h"
#include "slt_result.h"

namespace freshet::slt {
namespace {

TEST(SltValues, PrintedAsSqlitePrintsThem) {
  EXPECT_EQ(format_real(1.0), "1.000");
  EXPECT_EQ(format_real(-2.5), "-2.500");
  EXPECT_EQ(format_real(0.0005), "0.001");  // SQLite's printf rounds half away from zero
  EXPECT_EQ(format_real(-0.0), "0.000");
  EXPECT_EQ(format_real(1234.56789), "1234.568");
  EXPECT_EQ(format_real_as_text(3.0), "3.0");
  EXPECT_EQ(format_real_as_text(0.5), "0.5");
  EXPECT_EQ(format_real_as_text(1e20), "1.0e+20");
  EXPECT_EQ(real_to_integer(-2.9), -2);
  EXPECT_EQ(real_to_integer(1e30), INT64_MAX);
}

TEST(SltValues, CellsByTypeLetter) {
  Schema schema(
      {Column{"i", SqlType::integer()}, Column{"d", SqlType::double_precision()}, Column{"s", SqlType::varchar()}});
  RowBuilder builder(schema);
  builder.set_int(0, 7);
  builder.set_double(1, -3.75);
  builder.set_string(2, "");
  RowReader row(schema, builder.finish());
  EXPECT_EQ(format_cell(schema, row, 0, 'I').text, "7");
  EXPECT_EQ(format_cell(schema, row, 0, 'R').text, "7.000");
  EXPECT_EQ(format_cell(schema, row, 1, 'I').text, "-3");  // sqlite3_column_int64 truncates
  EXPECT_EQ(format_cell(schema, row, 1, 'R').text, "-3.750");
  EXPECT_EQ(format_cell(schema, row, 1, 'T').text, "-3.75");
  EXPECT_EQ(format_cell(schema, row, 2, 'T').text, "(empty)");
  EXPECT_EQ(format_cell(schema, row, 2, 'I').text, "0");
}

TEST(SltFile, RecordsConditionsAndHashes) {
  SltFile file = parse_slt(
      "hash-threshold 8\n\nstatement ok\nCREATE TABLE t(a INTEGER,\n b INTEGER)\n\n"
      "skipif mysql # comment\nquery II rowsort label-1\nSELECT a, b\nFROM t\n----\n1\n2\n\n"
      "onlyif mysql\nquery I nosort\nSELECT 1\n----\n1\n\n"
      "skipif freshet\nstatement ok\nDROP TABLE t\n\n"
      "query I valuesort\nSELECT a FROM t\n----\n30 values hashing to 0123abc\n\nhalt\n\nquery I nosort\nSELECT 2\n");
  ASSERT_EQ(file.records.size(), 4u);
  EXPECT_EQ(file.records[0].kind, Record::Kind::kHashThreshold);
  EXPECT_EQ(file.records[1].sql, "CREATE TABLE t(a INTEGER,\n b INTEGER)");
  const Record& query = file.records[2];
  EXPECT_EQ(query.kind, Record::Kind::kQuery);
  EXPECT_EQ(query.types, "II");
  EXPECT_EQ(query.sort, "rowsort");
  EXPECT_EQ(query.label, "label-1");
  EXPECT_EQ(query.sql, "SELECT a, b\nFROM t");
  EXPECT_EQ(query.values, (std::vector<std::string>{"1", "2"}));
  EXPECT_TRUE(file.records[3].hashed);
  EXPECT_EQ(file.records[3].hash_values, 30);
  EXPECT_EQ(file.records[3].hash, "0123abc");
  EXPECT_EQ(file.skipped_queries, 1);
  EXPECT_EQ(file.skipped_statements, 1);
}

TEST(SltInsert, LiteralsBecomeJson) {
  Schema schema({Column{"a", SqlType::integer()}, Column{"b", SqlType::integer()}, Column{"x", SqlType::varchar()}});
  auto all = translate_insert("INSERT INTO t1 VALUES(1,-2,'it''s \"q\"')", schema);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all.value().json, R"([{"insert":{"a":1,"b":-2,"x":"it's \"q\""}}])");
  auto named = translate_insert("INSERT INTO t1(x,a) VALUES('r', NULL), ('s', 3)", schema);
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named.value().json, R"([{"insert":{"x":"r","a":null}},{"insert":{"x":"s","a":3}}])");
  EXPECT_FALSE(translate_insert("INSERT INTO t1 VALUES(1+1, 2, 'a')", schema).ok());
  EXPECT_FALSE(translate_insert("INSERT INTO t1(z) VALUES(1)", schema).ok());
  EXPECT_EQ(insert_table("insert into T1 values(1)"), "t1");
}

TEST(SltResult, SortModesOrderByAndHashes) {
  auto cell = [](std::string text, int order_class, long double number) {
    return Cell{std::move(text), order_class, number};
  };
  std::vector<CellRow> rows = {
      {cell("10", 1, 10), cell("b", 2, 0)}, {cell("9", 1, 9), cell("a", 2, 0)}, {cell("NULL", 0, 0), cell("c", 2, 0)}};
  EXPECT_EQ(arrange(rows, "rowsort"), (std::vector<std::string>{"10", "b", "9", "a", "NULL", "c"}));
  EXPECT_EQ(arrange(rows, "valuesort"), (std::vector<std::string>{"10", "9", "NULL", "a", "b", "c"}));
  auto order = order_by_ordinals("SELECT a, b FROM t\n ORDER BY 1");
  ASSERT_TRUE(order.has_value());
  order_rows(rows, *order);  // SQLite: NULL first, then numbers by value
  EXPECT_EQ(arrange(rows, "nosort"), (std::vector<std::string>{"NULL", "c", "9", "a", "10", "b"}));
  EXPECT_EQ(order_by_ordinals("SELECT a FROM t ORDER BY 2 DESC, 1")->at(0), std::make_pair(size_t(1), true));
  EXPECT_FALSE(order_by_ordinals("SELECT a FROM t ORDER BY a").has_value());

  Record record;
  record.hashed = true;
  record.hash_values = 2;
  record.hash = md5_hex("1\n2\n");
  EXPECT_EQ(compare_result(record, {"1", "2"}), "");
  EXPECT_NE(compare_result(record, {"2", "1"}), "");
  Record inline_record;
  inline_record.values = {"1", "2"};
  EXPECT_EQ(compare_result(inline_record, {"1", "2"}), "");
  EXPECT_NE(compare_result(inline_record, {"1"}), "");
}

}  // namespace
}  // namespace freshet::slt
