// The report. Dialect differences are recognised from the error (or, for
// a wrong result, from the query) by the rules in `kDialectRules`; each rule
// names the difference as Feldera's documentation states it.
#include "slt_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>

namespace freshet::slt {
namespace {

struct DialectRule {
  Outcome outcome;
  const char* pattern;  //!< searched in the reason (runtime, compile) or the SQL (wrong)
  bool in_sql;
  const char* name;
};

// Each rule is a difference where Freshet does as Feldera does.
const DialectRule kDialectRules[] = {
    {Outcome::kRuntimeError, "division by zero", false,
     "division by zero: an error in Feldera (the step fails), NULL in SQLite"},
    {Outcome::kRuntimeError, "overflow", false, "integer overflow: an error in Feldera, SQLite switches to REAL"},
    {Outcome::kNotCompiled, "has two columns named", false,
     "two output columns of one name: a view may not have them in Feldera (an error unless its compiler runs "
     "--lenient, as Feldera's own sqllogictest runner does), a query may in SQLite"},
    {Outcome::kNotCompiled, "must appear in GROUP BY or be used in an aggregate", false,
     "a column neither grouped nor aggregated: an error in Feldera (as in standard SQL and PostgreSQL), SQLite takes "
     "it from some row of the group"},
    {Outcome::kWrong, R"(\bAVG\s*\()", true,
     "AVG of integers: an integer in Feldera (truncated), a REAL in SQLite (probable: the query takes an AVG)"},
};

const char* kind_name(CauseKind kind) {
  switch (kind) {
    case CauseKind::kDialect:
      return "dialect difference";
    case CauseKind::kMissing:
      return "missing feature";
    case CauseKind::kDefect:
      return "defect";
    case CauseKind::kSlow:
      return "too slow";
  }
  return "";
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kCorrect:
      return "correct";
    case Outcome::kWrong:
      return "wrong result";
    case Outcome::kNotCompiled:
      return "not compiled";
    case Outcome::kRuntimeError:
      return "step error";
    case Outcome::kTimedOut:
      return "timed out";
    case Outcome::kCrashed:
      return "crashed";
    case Outcome::kNotRun:
      return "not run";
    case Outcome::kStatementFailed:
      return "statement failed";
  }
  return "";
}

std::string short_sql(const std::string& sql, size_t limit) {
  std::string text;
  for (char c : sql) text += (c == '\n' || c == '|') ? ' ' : c;
  return text.size() > limit ? text.substr(0, limit) + " ..." : text;
}

std::string percent(int64_t part, int64_t whole) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", whole ? 100.0 * double(part) / double(whole) : 100.0);
  return buffer;
}

}  // namespace

std::string normalise_message(const std::string& message) {
  static const std::regex kPosition(R"(^line \d+, column \d+: )");
  std::string text = std::regex_replace(message, kPosition, "");
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      out += 'N';
      while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
    } else {
      out += text[i];
    }
  }
  return out.size() > 140 ? out.substr(0, 140) + "..." : out;
}

Cause classify(const QueryResult& query) {
  for (const DialectRule& rule : kDialectRules) {
    if (rule.outcome != query.outcome) continue;
    if (std::regex_search(rule.in_sql ? query.sql : query.reason, std::regex(rule.pattern, std::regex::icase))) {
      return Cause{CauseKind::kDialect, rule.name};
    }
  }
  switch (query.outcome) {
    case Outcome::kNotCompiled:
      return Cause{CauseKind::kMissing, normalise_message(query.reason)};
    case Outcome::kTimedOut:
    case Outcome::kNotRun:
      return Cause{CauseKind::kSlow, normalise_message(query.reason)};
    case Outcome::kWrong:
      return Cause{CauseKind::kDefect, "wrong result"};
    case Outcome::kRuntimeError:
      // The pipeline's memory budget (RunOptions::memory_budget): a runaway, as a timeout is.
      if (query.reason.find("the step would pass the pipeline's memory budget") != std::string::npos) {
        return Cause{CauseKind::kSlow, normalise_message(query.reason)};
      }
      return Cause{CauseKind::kDefect, normalise_message(query.reason)};
    default:
      return Cause{CauseKind::kDefect, normalise_message(query.reason)};
  }
}

void Totals::add(const FileResult& file) {
  skipped += file.skipped_queries;
  for (const QueryResult& query : file.queries) {
    ++queries;
    compiled += query.compiled;
    switch (query.outcome) {
      case Outcome::kCorrect:
        ++correct;
        break;
      case Outcome::kWrong:
        ++wrong;
        break;
      case Outcome::kNotCompiled:
        ++not_compiled;
        break;
      case Outcome::kRuntimeError:
        ++runtime_errors;
        break;
      case Outcome::kTimedOut:
        ++timed_out;
        break;
      case Outcome::kCrashed:
        ++crashed;
        break;
      case Outcome::kNotRun:
      case Outcome::kStatementFailed:
        ++not_run;
        break;
    }
    if (query.outcome != Outcome::kCorrect && classify(query).kind == CauseKind::kDialect) ++dialect;
  }
}

std::string summary_line(const std::string& name, const Totals& t) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer,
                "%-34s queries %6lld  compiled %6lld (%s)  correct %6lld  wrong %4lld  not compiled %5lld  "
                "step errors %4lld  timed out %3lld  crashed %lld  not run %lld",
                name.c_str(), (long long)t.queries, (long long)t.compiled, percent(t.compiled, t.queries).c_str(),
                (long long)t.correct, (long long)t.wrong, (long long)t.not_compiled, (long long)t.runtime_errors,
                (long long)t.timed_out, (long long)t.crashed, (long long)t.not_run);
  return buffer;
}

std::string markdown_report(const std::vector<FileResult>& files, const std::string& title) {
  std::string out = "# " + title + "\n\n";
  out +=
      "| file | queries | compiled | correct | wrong | not compiled | step error | timed out | crashed | not run | "
      "skipped | pipelines | largest (views, mean step ms) | slowest step (ms) | seconds |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  Totals all;
  char buffer[512];
  for (const FileResult& file : files) {
    Totals t;
    t.add(file);
    all.add(file);
    std::snprintf(buffer, sizeof buffer,
                  "| %s | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld, %.2f | "
                  "%.1f | %.1f |\n",
                  file.path.c_str(), (long long)t.queries, (long long)t.compiled, (long long)t.correct,
                  (long long)t.wrong, (long long)t.not_compiled, (long long)t.runtime_errors, (long long)t.timed_out,
                  (long long)t.crashed, (long long)t.not_run, (long long)t.skipped, (long long)file.pipelines,
                  (long long)file.largest_pipeline_views, file.largest_pipeline_mean_step_ms, file.slowest_step_ms,
                  file.seconds);
    out += buffer;
  }
  std::snprintf(buffer, sizeof buffer,
                "| **total** | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | %lld | | | | |\n\n",
                (long long)all.queries, (long long)all.compiled, (long long)all.correct, (long long)all.wrong,
                (long long)all.not_compiled, (long long)all.runtime_errors, (long long)all.timed_out,
                (long long)all.crashed, (long long)all.not_run, (long long)all.skipped);
  out += buffer;
  out += "Compiled: " + percent(all.compiled, all.queries) +
         " of the queries; correct: " + percent(all.correct, all.queries) + " of the queries, " +
         percent(all.correct, all.compiled) +
         " of those compiled; failures explained by a dialect "
         "difference: " +
         std::to_string(all.dialect) + ".\n\n";
  // Causes, most frequent first, each with an example.
  struct Group {
    CauseKind kind;
    Outcome outcome;
    int64_t count = 0;
    std::string example;
  };
  std::map<std::pair<std::string, int>, Group> groups;
  for (const FileResult& file : files) {
    for (const QueryResult& query : file.queries) {
      if (query.outcome == Outcome::kCorrect) continue;
      Cause cause = classify(query);
      Group& group = groups[{cause.text, int(query.outcome)}];
      if (group.count++ == 0) {
        group.kind = cause.kind, group.outcome = query.outcome;
        group.example = file.path + ":" + std::to_string(query.line) + " `" + short_sql(query.sql, 160) + "`" +
                        (query.outcome == Outcome::kWrong ? " — " + short_sql(query.reason, 200) : "");
      }
    }
  }
  std::vector<std::pair<std::pair<std::string, int>, Group>> sorted(groups.begin(), groups.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  out += "## Failures by cause\n\n| count | outcome | kind | cause | first example |\n|---|---|---|---|---|\n";
  for (const auto& [key, group] : sorted) {
    out += "| " + std::to_string(group.count) + " | " + outcome_name(group.outcome) + " | " + kind_name(group.kind) +
           " | " + short_sql(key.first, 200) + " | " + group.example + " |\n";
  }
  bool any_statement = false;
  for (const FileResult& file : files) {
    for (const StatementProblem& problem : file.statement_problems) {
      if (!any_statement) out += "\n## Statements not run as written\n\n| where | statement | why |\n|---|---|---|\n";
      any_statement = true;
      out += "| " + file.path + ":" + std::to_string(problem.line) + " | `" + short_sql(problem.sql, 100) + "` | " +
             short_sql(problem.reason, 200) + " |\n";
    }
  }
  return out;
}

}  // namespace freshet::slt
