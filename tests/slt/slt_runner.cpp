// A file's run, in three parts:
//  1. plan (in this process): statements are checked and collected — each
//     CREATE TABLE compiles with the tables before it, each INSERT becomes
//     JSON records (slt_insert.h) — and every query gets its view's SQL;
//  2. compile (in children): each query compiles on its own, with the tables
//     created before it; one that does not is recorded with its first error;
//  3. run (in children): the queries that compile become materialized views
//     of one pipeline (at most views_per_pipeline of them; the program is
//     every table and those views), which replays the file: one step per
//     INSERT, and each view checked where its query stands. A pipeline that
//     fails (a step error, a crash, a timeout) had its views checked up to
//     then; the rest run again each alone, one after another.
#include "slt_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "freshet/pipeline/pipeline.h"
#include "freshet/sql/compiler.h"
#include "isolate.h"
#include "slt_file.h"
#include "slt_insert.h"
#include "slt_result.h"

namespace freshet::slt {
namespace {

using Clock = std::chrono::steady_clock;

struct Event {
  bool insert = false;
  std::string table, json;  //!< an insert's table (lowercased) and records
  size_t query = 0;         //!< a query's index in FileResult::queries
};

struct FilePlan {
  std::string tables_ddl;  //!< every CREATE TABLE that compiled
  std::vector<Event> events;
  std::vector<const Record*> records;    //!< by query index
  std::vector<std::string> compile_ddl;  //!< by query index: the tables created before it
};

//! One line of text for a message (the child protocol is line based).
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  }
  return text;
}

std::string trim_statement(std::string sql) {
  while (!sql.empty() && (isspace(static_cast<unsigned char>(sql.back())) || sql.back() == ';')) sql.pop_back();
  return sql;
}

std::string first_words(const std::string& sql, int count) {
  std::istringstream in(sql);
  std::string out, word;
  for (int i = 0; i < count && in >> word; ++i) {
    for (char& c : word) c = char(tolower(static_cast<unsigned char>(c)));
    out += (i ? " " : "") + word;
  }
  return out;
}

std::string view_name(size_t query) { return "slt_q" + std::to_string(query); }

std::string view_sql(const FilePlan& plan, size_t query) {
  return "CREATE MATERIALIZED VIEW " + view_name(query) + " AS\n" + trim_statement(plan.records[query]->sql) + ";\n";
}

//! Checks one statement and adds what it does to the plan.
void plan_statement(const Record& record, FilePlan& plan, std::unique_ptr<sql::CompiledProgram>& tables,
                    FileResult& result) {
  ++result.statements;
  bool expect_error = record.kind == Record::Kind::kStatementError;
  std::string sql = trim_statement(record.sql);
  std::string head = first_words(sql, 2);
  auto problem = [&](std::string reason) { result.statement_problems.push_back({record.line, sql, one_line(reason)}); };
  if (head == "create table") {
    auto compiled = sql::compile_program(plan.tables_ddl + sql + ";\n");
    if (compiled.ok() == expect_error) {
      problem(compiled.ok() ? "compiled, but the record expects an error" : compiled.status().message());
    }
    if (compiled.ok()) {
      plan.tables_ddl += sql + ";\n";
      tables = std::move(compiled.value());
    }
    return;
  }
  if (head == "create index" || head == "create unique") {
    // SQLite's index on a table is an access path with no effect on results;
    // Freshet's (Feldera's) CREATE INDEX names a view.
    if (!expect_error) problem("ignored: CREATE INDEX on a table (an access path in SQLite)");
    return;
  }
  if (is_insert(sql)) {
    std::string table = insert_table(sql);
    const sql::CompiledTable* target = tables ? tables->find_table(table) : nullptr;
    if (!target) {
      if (!expect_error) problem("INSERT into unknown table '" + table + "'");
      return;
    }
    auto insert = translate_insert(sql, *target->schema);
    if (insert.ok() == expect_error)
      problem(insert.ok() ? "translated, but the record expects an error" : insert.status().message());
    if (insert.ok()) plan.events.push_back(Event{true, table, insert.value().json, 0});
    return;
  }
  problem("statement not supported by the runner: " + head);
}

FilePlan plan_file(const SltFile& file, const RunOptions& options, FileResult& result) {
  FilePlan plan;
  std::unique_ptr<sql::CompiledProgram> tables;
  int64_t seen = 0;
  for (const Record& record : file.records) {
    if (record.kind == Record::Kind::kQuery) {
      if (seen++ % options.sample_stride != 0) {
        ++result.skipped_queries;
        continue;
      }
      size_t index = result.queries.size();
      result.queries.push_back(QueryResult{record.line, trim_statement(record.sql), false, Outcome::kCorrect, ""});
      plan.records.push_back(&record);
      plan.compile_ddl.push_back(plan.tables_ddl);
      Event event;
      event.query = index;
      plan.events.push_back(event);
    } else if (record.kind == Record::Kind::kStatementOk || record.kind == Record::Kind::kStatementError) {
      plan_statement(record, plan, tables, result);
    }
  }
  return plan;
}

//! Compiles each query alone, in children; marks those that fail.
void compile_queries(const FilePlan& plan, const RunOptions& options, FileResult& result, std::vector<bool>& compiled) {
  size_t next = 0;
  size_t count = plan.records.size();
  compiled.assign(count, false);
  while (next < count) {
    size_t from = next;
    ChildOutcome child = run_in_child(
        [&](int fd) {
          for (size_t q = from; q < count; ++q) {
            auto program = sql::compile_program(plan.compile_ddl[q] + view_sql(plan, q));
            write_line(fd,
                       std::to_string(q) + (program.ok() ? "\tOK" : "\tERR\t" + one_line(program.status().message())));
          }
        },
        options.query_timeout + 0.05 * double(count - from));
    std::istringstream lines(child.output);
    for (std::string line; std::getline(lines, line);) {
      size_t tab = line.find('\t');
      size_t q = std::stoul(line.substr(0, tab));
      std::string status = line.substr(tab + 1, 3);
      compiled[q] = result.queries[q].compiled = status == "OK";
      if (!compiled[q]) {
        result.queries[q].outcome = Outcome::kNotCompiled;
        result.queries[q].reason = line.substr(tab + 5);
      }
      next = q + 1;
    }
    if (child.status != ChildOutcome::Status::kExited && next < count) {
      bool crashed = child.status == ChildOutcome::Status::kCrashed;
      result.queries[next].outcome = crashed ? Outcome::kCrashed : Outcome::kTimedOut;
      result.queries[next].reason = crashed ? "the compiler crashed: " + child.detail : "compiling took too long";
      ++next;
    }
  }
}

//! In a child: runs the views `queries` over the file's events, writing
//! "<query>\tOK" / "<query>\tWRONG\t<how>" / "<query>\tERROR\t<error>" (the
//! view failed at a step, the others going on) as each is checked, then
//! "DONE", or "FAIL\t<error>" when the pipeline cannot go on.
void run_views(const FilePlan& plan, const std::vector<size_t>& queries, size_t memory_budget, int fd) {
  std::string program = plan.tables_ddl;
  std::vector<bool> member(plan.records.size(), false);
  for (size_t q : queries) program += view_sql(plan, q), member[q] = true;
  auto created = Pipeline::create(program);
  if (!created.ok())
    return write_line(fd, "FAIL\tthe pipeline does not compile: " + one_line(created.status().message()));
  Pipeline& pipeline = *created.value();
  pipeline.set_memory_budget(memory_budget);
  double slowest = 0, total = 0;
  int64_t steps = 0;
  auto step = [&]() {
    auto start = Clock::now();
    auto stepped = pipeline.step();
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    slowest = std::max(slowest, ms), total += ms, ++steps;
    if (!stepped.ok()) write_line(fd, "FAIL\t" + one_line(stepped.status().message()));
    return stepped.ok();
  };
  if (!step()) return;  // step 0: views over empty tables (a global COUNT's 0)
  for (const Event& event : plan.events) {
    if (event.insert) {
      auto ingested = pipeline.ingest(event.table, event.json);
      if (!ingested.ok()) return write_line(fd, "FAIL\tingest: " + one_line(ingested.status().message()));
      if (!step()) return;
      continue;
    }
    if (!member[event.query]) continue;
    const Record& record = *plan.records[event.query];
    // A view failed by a runtime error fails alone (the step goes on for the others): its verdict.
    Status failed = pipeline.view_failure(view_name(event.query));
    if (!failed.ok()) {
      write_line(fd, std::to_string(event.query) + "\tERROR\t" + one_line(failed.message()));
      continue;
    }
    auto snapshot = pipeline.snapshot(view_name(event.query));
    if (!snapshot.ok()) return write_line(fd, "FAIL\tsnapshot: " + one_line(snapshot.status().message()));
    const Schema& schema = *pipeline.program().find_view(view_name(event.query))->schema;
    std::string wrong;
    std::vector<CellRow> rows;
    if (schema.size() != record.types.size()) {
      wrong = "the query has " + std::to_string(schema.size()) + " columns, the record's types " +
              std::to_string(record.types.size());
    } else if (auto bad = rows_of(*snapshot.value(), schema, record.types, rows)) {
      wrong = *bad;
    } else {
      if (record.sort == "nosort") {
        if (auto order = order_by_ordinals(record.sql)) order_rows(rows, *order);
      }
      wrong = compare_result(record, arrange(std::move(rows), record.sort));
    }
    write_line(fd, std::to_string(event.query) + (wrong.empty() ? "\tOK" : "\tWRONG\t" + one_line(wrong)));
  }
  write_line(fd, "DONE\t" + std::to_string(slowest) + "\t" + std::to_string(total) + "\t" + std::to_string(steps) +
                     "\t" + std::to_string(queries.size()));
}

//! Reads a child's lines into `result`: view verdicts, "DONE" (step
//! statistics) and, for views run alone, "ALONE\t<view>" before each view's
//! run and "FAIL\t<error>" for the view named last. Returns the last FAIL's
//! error (a pipeline of several views) and sets `current` to the view run
//! alone last.
std::string read_child(const std::string& output, FileResult& result, std::vector<bool>& reported,
                       std::optional<size_t>& current) {
  std::string failure;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    size_t tab = line.find('\t');
    std::string head = line.substr(0, tab);
    std::string rest = tab == std::string::npos ? "" : line.substr(tab + 1);
    if (head == "DONE") {
      std::istringstream numbers(rest);
      double slowest = 0, total = 0;
      int64_t steps = 0, views = 0;
      numbers >> slowest >> total >> steps >> views;
      result.slowest_step_ms = std::max(result.slowest_step_ms, slowest);
      if (views > result.largest_pipeline_views) {
        result.largest_pipeline_views = views;
        result.largest_pipeline_mean_step_ms = steps ? total / double(steps) : 0;
      }
    } else if (head == "ALONE") {
      current = std::stoul(rest);
    } else if (head == "FAIL") {
      failure = rest;
      // A view alone that failed after its check keeps its verdict.
      if (current && !reported[*current]) {
        reported[*current] = true;
        result.queries[*current].outcome = Outcome::kRuntimeError;
        result.queries[*current].reason = rest;
      }
    } else {
      size_t q = std::stoul(head);
      reported[q] = true;
      bool ok = rest == "OK", error = rest.rfind("ERROR\t", 0) == 0;
      result.queries[q].outcome = ok ? Outcome::kCorrect : error ? Outcome::kRuntimeError : Outcome::kWrong;
      result.queries[q].reason = ok ? "" : rest.substr(6);
    }
  }
  return failure;
}

void mark_not_run(const std::vector<size_t>& queries, size_t from, FileResult& result) {
  for (size_t k = from; k < queries.size(); ++k) {
    result.queries[queries[k]].outcome = Outcome::kNotRun;
    result.queries[queries[k]].reason = "the file's time budget ran out";
  }
}

//! Runs each of `queries` in a pipeline of its own, one after another, in
//! children: alarm() bounds each view (SIGALRM ends the child), and after a
//! crash or a timeout the next child starts at the view after it.
void run_each(const FilePlan& plan, const std::vector<size_t>& queries, const RunOptions& options,
              Clock::time_point deadline, FileResult& result) {
  std::vector<bool> reported(plan.records.size(), false);
  size_t next = 0;
  while (next < queries.size()) {
    double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    if (left <= 0) return mark_not_run(queries, next, result);
    size_t from = next;
    ++result.pipelines;
    ChildOutcome child = run_in_child(
        [&](int fd) {
          for (size_t k = from; k < queries.size(); ++k) {
            write_line(fd, "ALONE\t" + std::to_string(queries[k]));
            ::alarm(unsigned(std::max(1.0, options.query_timeout)));
            run_views(plan, {queries[k]}, options.memory_budget, fd);
            ::alarm(0);
          }
        },
        left);
    std::optional<size_t> current;
    read_child(child.output, result, reported, current);
    if (child.status == ChildOutcome::Status::kExited) return;
    if (!current) return mark_not_run(queries, next, result);  // killed at the deadline before any view
    next = size_t(std::find(queries.begin(), queries.end(), *current) - queries.begin()) + 1;
    if (reported[*current]) continue;  // checked, then slow or crashed later: its verdict stands
    bool alarm =
        child.status == ChildOutcome::Status::kCrashed && child.detail == std::string("signal ") + ::strsignal(SIGALRM);
    if (child.status == ChildOutcome::Status::kTimedOut) return mark_not_run(queries, next - 1, result);
    result.queries[*current].outcome = alarm ? Outcome::kTimedOut : Outcome::kCrashed;
    result.queries[*current].reason =
        alarm ? "a step took too long (over the query timeout)" : "the pipeline crashed: " + child.detail;
  }
}

//! Runs `queries` in one pipeline. A pipeline that fails (a step error, a
//! crash, a timeout) has its views checked up to then; the others run alone,
//! which finds the views at fault, and then (once) in one pipeline again
//! without them, so that most views are still checked among many.
void run_group(const FilePlan& plan, const std::vector<size_t>& queries, const RunOptions& options,
               Clock::time_point deadline, FileResult& result, bool retry = true) {
  if (queries.empty()) return;
  if (Clock::now() >= deadline) return mark_not_run(queries, 0, result);
  ++result.pipelines;
  double timeout = options.query_timeout + 0.02 * double(queries.size());
  ChildOutcome child = run_in_child([&](int fd) { run_views(plan, queries, options.memory_budget, fd); }, timeout);
  std::vector<bool> reported(plan.records.size(), false);
  std::optional<size_t> current;
  std::string failure = read_child(child.output, result, reported, current);
  if (failure.empty() && child.status == ChildOutcome::Status::kExited) return;
  std::vector<size_t> rest;
  for (size_t q : queries) {
    if (!reported[q]) rest.push_back(q);
  }
  if (options.verbose) {
    fprintf(stderr, "  %zu views: %s; %zu not checked, each alone\n", queries.size(),
            failure.empty() ? (child.status == ChildOutcome::Status::kTimedOut ? "timed out" : child.detail.c_str())
                            : failure.c_str(),
            rest.size());
  }
  if (child.status == ChildOutcome::Status::kTimedOut && rest.size() > 1) {
    // Slow views come many at a time (a file's joins of many tables): the
    // fast ones are found sooner in eighths than one by one.
    size_t parts = std::min<size_t>(8, rest.size());
    for (size_t part = 0; part < parts; ++part) {
      run_group(plan,
                std::vector<size_t>(rest.begin() + rest.size() * part / parts,
                                    rest.begin() + rest.size() * (part + 1) / parts),
                options, deadline, result, retry);
    }
    return;
  }
  run_each(plan, rest, options, deadline, result);
  std::vector<size_t> sound;
  for (size_t q : rest) {
    Outcome outcome = result.queries[q].outcome;
    if (outcome == Outcome::kCorrect || outcome == Outcome::kWrong) sound.push_back(q);
  }
  if (retry && sound.size() > 1 && sound.size() < rest.size()) {
    run_group(plan, sound, options, deadline, result, false);
  }
}

}  // namespace

FileResult run_file(const std::string& path, const RunOptions& options) {
  auto start = Clock::now();
  FileResult result;
  result.path = path;
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  SltFile file = parse_slt(text.str());
  result.skipped_queries = file.skipped_queries;
  FilePlan plan = plan_file(file, options, result);
  std::vector<bool> compiled;
  compile_queries(plan, options, result, compiled);
  auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.file_budget));
  std::vector<size_t> group;
  for (size_t q = 0; q < compiled.size(); ++q) {
    if (compiled[q]) group.push_back(q);
    if (int64_t(group.size()) == options.views_per_pipeline || (q + 1 == compiled.size() && !group.empty())) {
      run_group(plan, group, options, deadline, result);
      group.clear();
    }
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace freshet::slt
