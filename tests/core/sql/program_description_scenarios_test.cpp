// The description of every program of the SQL scenario files
// (tests/sql/*.test, 100+ programs): read back as JSON, field by field, and
// checked against what the program's statements declare (tables, their
// columns, keys and LATENESS; views, MATERIALIZED, indexes) and what the
// compiler made of them (view column types, the watermarks, the clock).
// Nothing may be missing and nothing else may be there.
#include <simdjson.h>

#include <gtest/gtest.h>

#include <set>

#include "freshet/sql/parser.h"
#include "freshet/sql/program_description.h"
#include "support/scenario_files.h"

namespace freshet::sql {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;
//! A field or array item as simdjson hands it out (an error when absent).
using Value = simdjson::simdjson_result<element>;

std::set<std::string> keys_of(object fields) {
  std::set<std::string> keys;
  for (simdjson::dom::key_value_pair field : fields) keys.insert(std::string(field.key));
  return keys;
}

object object_of(Value value) {
  object fields;
  EXPECT_EQ(value.get_object().get(fields), simdjson::SUCCESS);
  return fields;
}

array array_of(Value value) {
  array items;
  EXPECT_EQ(value.get_array().get(items), simdjson::SUCCESS);
  return items;
}

std::string string_of(Value value) {
  std::string_view text;
  EXPECT_EQ(value.get_string().get(text), simdjson::SUCCESS);
  return std::string(text);
}

bool bool_of(Value value) {
  bool flag = false;
  EXPECT_EQ(value.get_bool().get(flag), simdjson::SUCCESS);
  return flag;
}

int64_t int_of(Value value) {
  int64_t number = -1;
  EXPECT_EQ(value.get_int64().get(number), simdjson::SUCCESS);
  return number;
}

std::vector<std::string> strings_of(Value value) {
  std::vector<std::string> texts;
  for (element item : array_of(value)) texts.push_back(string_of(Value(element(item))));
  return texts;
}

//! {"name","type","nullable"} and, by type, precision/scale or length.
void expect_column(Value described, const std::string& name, const SqlType& type) {
  SCOPED_TRACE("column " + name);
  object column = object_of(described);
  std::set<std::string> keys{"name", "type", "nullable"};
  if (type.id == TypeId::kDecimal) keys.insert({"precision", "scale"});
  if (type.id == TypeId::kVarchar && type.max_length) keys.insert("length");
  EXPECT_EQ(keys_of(column), keys);
  EXPECT_EQ(string_of(column["name"]), name);
  EXPECT_EQ(string_of(column["type"]), type.with_nullable(true).to_string());
  EXPECT_EQ(bool_of(column["nullable"]), type.nullable);
  if (type.id == TypeId::kDecimal) {
    EXPECT_EQ(int_of(column["precision"]), type.precision);
    EXPECT_EQ(int_of(column["scale"]), type.scale);
  }
  if (keys.count("length")) {
    EXPECT_EQ(int_of(column["length"]), type.max_length);
  }
}

//! The lateness a table of one `type` column declared LATENESS `literal` gets.
int64_t bound_lateness(const SqlType& type, const std::string& literal) {
  Result<std::unique_ptr<CompiledProgram>> compiled =
      compile_program("CREATE TABLE t (c " + type.with_nullable(true).to_string() + " LATENESS " + literal + ");");
  EXPECT_TRUE(compiled.ok()) << literal << ": " << compiled.status().to_string();
  return compiled.ok() ? (*compiled)->tables[0].watermark->lateness() : -1;
}

//! `properties` as declared (key to value, in any order) and `connectors` an array.
template <typename Declared>
void expect_properties(object described, const Declared& declared) {
  object properties = object_of(described["properties"]);
  std::set<std::pair<std::string, std::string>> got, want;
  for (auto field : properties) {
    std::string_view value;
    EXPECT_EQ(field.value.get_string().get(value), simdjson::SUCCESS);
    got.insert({std::string(field.key), std::string(value)});
  }
  for (const Property& property : declared.properties) want.insert({property.key, property.value});
  EXPECT_EQ(got, want);
  array connectors;
  EXPECT_EQ(described["connectors"].get_array().get(connectors), simdjson::SUCCESS);
}

void expect_table(Value described, const CreateTable& declared, const CompiledTable& compiled) {
  SCOPED_TRACE("table " + declared.name);
  object table = object_of(described);
  EXPECT_EQ(keys_of(table), (std::set<std::string>{"name", "columns", "primaryKey", "materialized", "properties", "connectors",
                                                  "lateness"}));
  EXPECT_EQ(string_of(table["name"]), declared.name);
  array columns = array_of(table["columns"]);
  ASSERT_EQ(columns.size(), declared.columns.size());
  std::vector<std::string> late_columns;
  for (size_t c = 0; c < declared.columns.size(); ++c) {
    expect_column(columns.at(c), declared.columns[c].name, declared.columns[c].type);
    if (declared.columns[c].lateness) late_columns.push_back(declared.columns[c].name);
  }
  EXPECT_EQ(strings_of(table["primaryKey"]), declared.primary_key);
  EXPECT_EQ(bool_of(table["materialized"]), compiled.materialized);  // WITH ('materialized' = 'true')
  expect_properties(table, declared);
  array lateness = array_of(table["lateness"]);
  ASSERT_EQ(lateness.size(), late_columns.size());
  if (late_columns.empty()) return;
  object late = object_of(lateness.at(0));
  EXPECT_EQ(keys_of(late), (std::set<std::string>{"column", "lateness"}));
  EXPECT_EQ(string_of(late["column"]), late_columns[0]);
  ASSERT_NE(compiled.watermark, nullptr);
  EXPECT_EQ(compiled.schema->column(compiled.watermark->column()).name, late_columns[0]);
  const SqlType& type = compiled.schema->column(compiled.watermark->column()).type;
  EXPECT_EQ(bound_lateness(type, string_of(late["lateness"])), compiled.watermark->lateness());
}

void expect_view(Value described, const CreateView& declared, const std::vector<const CreateIndex*>& indexes,
                 const CompiledView& compiled) {
  SCOPED_TRACE("view " + declared.name);
  object view = object_of(described);
  EXPECT_EQ(keys_of(view), (std::set<std::string>{"name", "columns", "materialized", "properties", "connectors", "indexes"}));
  EXPECT_EQ(string_of(view["name"]), declared.name);
  array columns = array_of(view["columns"]);
  ASSERT_EQ(columns.size(), compiled.schema->size());
  for (size_t c = 0; c < columns.size(); ++c) {
    const Column& column = compiled.schema->column(c);
    if (!declared.column_names.empty()) {
      EXPECT_EQ(column.name, declared.column_names[c]);
    }
    expect_column(columns.at(c), column.name, column.type);
  }
  EXPECT_EQ(bool_of(view["materialized"]), declared.materialized || !indexes.empty());
  expect_properties(view, declared);
  array described_indexes = array_of(view["indexes"]);
  ASSERT_EQ(described_indexes.size(), indexes.size());
  for (size_t i = 0; i < indexes.size(); ++i) {
    object index = object_of(described_indexes.at(i));
    EXPECT_EQ(keys_of(index), (std::set<std::string>{"name", "view", "key"}));
    EXPECT_EQ(string_of(index["name"]), indexes[i]->name);
    EXPECT_EQ(string_of(index["view"]), declared.name);
    EXPECT_EQ(strings_of(index["key"]), indexes[i]->columns);
  }
}

void expect_described(const std::string& sql) {
  Result<Program> declared = parse_program(sql);
  ASSERT_TRUE(declared.ok()) << declared.status().to_string();
  Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(sql);
  ASSERT_TRUE(compiled.ok()) << compiled.status().to_string();
  const std::string json = describe_program(**compiled);
  simdjson::dom::parser parser;
  object description;
  ASSERT_EQ(parser.parse(json).get_object().get(description), simdjson::SUCCESS) << json;
  EXPECT_EQ(keys_of(description), (std::set<std::string>{"tables", "views", "systemViews", "readsNow", "warnings"}));
  EXPECT_EQ(array_of(description["warnings"]).size(), (*compiled)->warnings.size());
  std::vector<const CreateTable*> tables;
  std::vector<const CreateView*> views;
  std::vector<const CreateIndex*> indexes;
  for (const Statement& statement : declared->statements) {
    if (auto* table = std::get_if<CreateTable>(&statement)) tables.push_back(table);
    if (auto* view = std::get_if<CreateView>(&statement)) views.push_back(view);
    if (auto* index = std::get_if<CreateIndex>(&statement)) indexes.push_back(index);
  }
  array described_tables = array_of(description["tables"]);
  ASSERT_EQ(described_tables.size(), tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    expect_table(described_tables.at(t), *tables[t], *(*compiled)->find_table(tables[t]->name));
  }
  array described_views = array_of(description["views"]);
  ASSERT_EQ(described_views.size(), views.size());
  for (size_t v = 0; v < views.size(); ++v) {
    std::vector<const CreateIndex*> on_view;
    for (const CreateIndex* index : indexes) {
      if (index->view == views[v]->name) on_view.push_back(index);
    }
    expect_view(described_views.at(v), *views[v], on_view, *(*compiled)->find_view(views[v]->name));
  }
  EXPECT_EQ(bool_of(description["readsNow"]), (*compiled)->clock != nullptr);
}

TEST(ProgramDescription, EveryScenarioProgram) {
  std::vector<testing::ScenarioProgram> programs = testing::scenario_programs();
  ASSERT_GE(programs.size(), 100u);  // tests/sql/ found and read
  size_t with_lateness = 0, with_index = 0, with_now = 0;
  for (const testing::ScenarioProgram& program : programs) {
    SCOPED_TRACE(program.file + ":" + std::to_string(program.line));
    expect_described(program.sql);
    with_lateness += program.sql.find("LATENESS") != std::string::npos;
    with_index += program.sql.find("CREATE INDEX") != std::string::npos;
    with_now += program.sql.find("NOW()") != std::string::npos;
  }
  // The scenarios exercise each part of the description.
  EXPECT_GT(with_lateness, 3u);
  EXPECT_GT(with_index, 0u);
  EXPECT_GT(with_now, 0u);
}

}  // namespace
}  // namespace freshet::sql
