// Runs the SQL scenario files of tests/sql/ (format in tests/sql/README.md):
// each file compiles a program, applies changes over several steps and
// checks the views' contents and deltas after each step.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "freshet/sql/compiler.h"
#include "freshet/types/temporal.h"
#include "freshet/zset/cursor.h"
#include "support/scenario_files.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

using testing::scenario_files;
using testing::scenario_folder;

// Splits "1, 'a, b', NULL" into its literals.
std::vector<std::string> split_literals(const std::string& line) {
  std::vector<std::string> parts;
  std::string current;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '\'') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '\'') {
        current += "''";
        ++i;
        continue;
      }
      quoted = !quoted;
    }
    if (c == ',' && !quoted) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  parts.push_back(current);
  for (std::string& part : parts) {
    size_t begin = part.find_first_not_of(' '), end = part.find_last_not_of(' ');
    part = begin == std::string::npos ? "" : part.substr(begin, end - begin + 1);
  }
  return parts;
}

// Encodes a row written as SQL literals, reading each by its column's type.
Result<std::string> parse_row(const std::string& line, const Schema& schema) {
  std::vector<std::string> literals = split_literals(line);
  if (literals.size() != schema.size()) {
    return Status(ErrorCode::kInvalidArgument, "row '" + line + "' has " + std::to_string(literals.size()) +
                                                   " values, the table " + std::to_string(schema.size()));
  }
  RowBuilder row(schema);
  for (size_t c = 0; c < literals.size(); ++c) {
    std::string text = literals[c];
    if (text == "NULL") {
      row.set_null(c);
      continue;
    }
    if (text.size() >= 2 && text.front() == '\'') {
      text = text.substr(1, text.size() - 2);
      for (size_t at = text.find("''"); at != std::string::npos; at = text.find("''", at + 1)) text.erase(at, 1);
    }
    const SqlType& type = schema.type(c);
    switch (type.id) {
      case TypeId::kBoolean: row.set_bool(c, text == "TRUE" || text == "true"); break;
      case TypeId::kReal:
      case TypeId::kDouble: row.set_double(c, std::stod(text)); break;
      case TypeId::kDecimal: {
        Result<int128> value = parse_decimal(text, type.precision, type.scale);
        if (!value.ok()) return value.status();
        row.set_decimal(c, *value);
        break;
      }
      case TypeId::kVarchar: row.set_string(c, text); break;
      case TypeId::kDate: {
        Result<int32_t> days = parse_date(text);
        if (!days.ok()) return days.status();
        row.set_int(c, *days);
        break;
      }
      case TypeId::kTimestamp: {
        Result<int64_t> micros = parse_timestamp(text);
        if (!micros.ok()) return micros.status();
        row.set_int(c, *micros);
        break;
      }
      case TypeId::kTime: {
        Result<int64_t> micros = parse_time(text);
        if (!micros.ok()) return micros.status();
        row.set_int(c, *micros);
        break;
      }
      default: row.set_int(c, std::stoll(text)); break;
    }
  }
  return row.finish().to_bytes();
}

// "(1, 'a')" -> "1, 'a'"
std::string render(const Schema& schema, RowRef row) {
  std::string text = RowReader(schema, row).to_string();
  return text.substr(1, text.size() - 2);
}

class ScenarioRunner {
 public:
  //! With `check_inputs`, every operator sees only the streams its factory
  //! declared as its inputs (Circuit::set_check_inputs): a scenario that
  //! then fails has an operator reading a stream the circuit's graph misses.
  ScenarioRunner(std::string name, bool check_inputs) : name_(std::move(name)), check_inputs_(check_inputs) {}

  void run() {
    std::ifstream file(scenario_folder() / name_);
    ASSERT_TRUE(file) << "cannot open " << name_;
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    size_t i = 0;
    while (i < lines.size()) {
      const std::string line = lines[i];
      if (line.empty() || line[0] == '#') {
        ++i;
        continue;
      }
      SCOPED_TRACE(name_ + ":" + std::to_string(i + 1) + ": " + line);
      std::istringstream words(line);
      std::string command, argument;
      words >> command >> argument;
      ++i;
      if (command == "program" || command == "error") {
        std::string sql;
        for (; i < lines.size() && lines[i] != "----"; ++i) sql += lines[i] + "\n";
        ++i;
        // `program null`: the program's runtime error mode is 'null' (runtime_error_mode.h).
        options_ = CompileOptions();
        if (argument == "null") options_.on_runtime_error = RuntimeErrorMode::kNull;
        Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(sql, options_);
        if (command == "program") {
          ASSERT_TRUE(compiled.ok()) << compiled.status().to_string();
          program_ = std::move(*compiled);
          program_->circuit->set_check_inputs(check_inputs_);
          program_sql_ = sql;
          integrated_.clear();
        } else {
          ASSERT_FALSE(compiled.ok()) << "expected an error";
          ASSERT_LT(i, lines.size()) << "the expected message is missing";
          EXPECT_EQ(compiled.status().message(), lines[i]);
          ++i;
        }
        continue;
      }
      ASSERT_NE(program_, nullptr) << "no program yet";
      if (command == "insert" || command == "delete") {
        const CompiledTable* table = program_->find_table(argument);
        ASSERT_NE(table, nullptr) << "no table " << argument;
        for (; i < lines.size() && !lines[i].empty(); ++i) {
          Result<std::string> row = parse_row(lines[i], *table->schema);
          ASSERT_TRUE(row.ok()) << row.status().to_string();
          bool insert = command == "insert";
          if (table->upsert_input) {
            insert ? table->upsert_input->push_upsert(RowRef(*row)) : table->upsert_input->push_delete_row(RowRef(*row));
          } else {
            table->input->push_row(RowRef(*row), insert ? 1 : -1);
          }
        }
      } else if (command == "step") {
        Status status = program_->circuit->step();
        if (status.ok()) status = program_->circuit->last_step_error();  // the failing view's error
        if (argument == "error") {
          ASSERT_FALSE(status.ok()) << "expected the step to fail";
          EXPECT_EQ(status.message(), line.substr(std::string("step error ").size()));
        } else {
          ASSERT_TRUE(status.ok()) << status.to_string();
        }
        uint64_t dropped = 0;
        last_errors_ = program_->circuit->error_log().take(&dropped);
        for (const CompiledView& view : program_->views) testing::add_batch(integrated_[view.name], *view.stream.current());
        for (const CompiledView& table : program_->table_views) {
          testing::add_batch(integrated_[table.name], *table.stream.current());
        }
      } else if (command == "clock") {
        // The time of the following steps: NOW() in views.
        ASSERT_NE(program_->clock, nullptr) << "no view reads NOW()";
        Result<int64_t> micros = parse_timestamp(line.substr(std::string("clock ").size()));
        ASSERT_TRUE(micros.ok()) << micros.status().to_string();
        program_->clock->set_time(*micros);
      } else if (command == "restart") {
        // A checkpoint round trip: the circuit's state saved, the program
        // compiled again, the state restored into it.
        ByteWriter saved;
        program_->circuit->save_state(saved);
        Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(program_sql_, options_);
        ASSERT_TRUE(compiled.ok()) << compiled.status().to_string();
        program_ = std::move(*compiled);
        program_->circuit->set_check_inputs(check_inputs_);
        Status restored = program_->circuit->restore_state(saved.data());
        ASSERT_TRUE(restored.ok()) << restored.to_string();
      } else if (command == "late") {
        const CompiledTable* table = program_->find_table(argument);
        ASSERT_NE(table, nullptr) << "no table " << argument;
        ASSERT_NE(table->watermark, nullptr) << "table " << argument << " has no LATENESS";
        uint64_t expected = 0;
        words >> expected;
        EXPECT_EQ(table->watermark->late_records(), expected);
      } else if (command == "view" || command == "delta") {
        const CompiledView* view = program_->find_view(argument);
        for (const CompiledView& table : program_->table_views) {
          if (table.name == argument) view = &table;  // a materialized table
        }
        ASSERT_NE(view, nullptr) << "no view " << argument;
        std::vector<std::string> expected, actual;
        for (; i < lines.size() && !lines[i].empty(); ++i) expected.push_back(lines[i]);
        if (command == "view") {
          for (const auto& [entry, weight] : integrated_[view->name]) {
            for (Weight w = 0; w < weight; ++w) actual.push_back(render(*view->schema, RowRef(entry.first)));
            if (weight < 0) actual.push_back("NEGATIVE WEIGHT " + render(*view->schema, RowRef(entry.first)));
          }
        } else {
          for (BatchCursor c(*view->stream.current()); c.valid(); c.next()) {
            Weight copies = c.weight() < 0 ? -c.weight() : c.weight();
            for (Weight w = 0; w < copies; ++w) {
              actual.push_back((c.weight() > 0 ? "+ " : "- ") + render(*view->schema, c.key()));
            }
          }
        }
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        EXPECT_EQ(actual, expected);
      } else if (command == "errors") {
        // The error view's rows of the last step, in order: "relation: message".
        std::vector<std::string> expected, actual;
        for (; i < lines.size() && !lines[i].empty(); ++i) expected.push_back(lines[i]);
        for (const ErrorRecord& record : last_errors_) actual.push_back(record.relation + ": " + record.message);
        EXPECT_EQ(actual, expected);
      } else if (command == "nulled") {
        // `nulled v 2`: runtime errors of view v turned into NULL so far.
        uint64_t expected = 0;
        words >> expected;
        const std::map<std::string, uint64_t>& nulled = program_->circuit->error_log().nulled();
        EXPECT_EQ(nulled.count(argument) ? nulled.at(argument) : 0, expected);
      } else if (command == "warnings") {
        // The program's warnings (WITH properties not honoured), in order.
        std::vector<std::string> expected, actual;
        for (; i < lines.size() && !lines[i].empty(); ++i) expected.push_back(lines[i]);
        for (const CompileWarning& warning : program_->warnings) {
          actual.push_back("line " + std::to_string(warning.position.line) + ", column " +
                           std::to_string(warning.position.column) + ": " + warning.message);
        }
        EXPECT_EQ(actual, expected);
      } else {
        FAIL() << "unknown command '" << command << "'";
      }
    }
  }

 private:
  std::string name_;
  bool check_inputs_;
  std::unique_ptr<CompiledProgram> program_;
  std::string program_sql_;
  CompileOptions options_;
  std::vector<ErrorRecord> last_errors_;
  std::map<std::string, testing::ZSetMap> integrated_;
};

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioTest, Runs) { ScenarioRunner(GetParam(), false).run(); }
// Every stream an operator reads is among its declared inputs (circuit_graph.cpp).
TEST_P(ScenarioTest, RunsSeeingOnlyDeclaredInputs) { ScenarioRunner(GetParam(), true).run(); }

INSTANTIATE_TEST_SUITE_P(Sql, ScenarioTest, ::testing::ValuesIn(scenario_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 5);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace freshet::sql
