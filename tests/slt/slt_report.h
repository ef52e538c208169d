//! The census of a run: per file and in total, queries, compiled, correct,
//! wrong and the other outcomes; every failure's cause (its first error,
//! normalised) grouped with counts, and whether the cause is a dialect
//! difference Feldera shares with Freshet or a missing feature or a bug.
#pragma once

#include <string>
#include <vector>

#include "slt_runner.h"

namespace freshet::slt {

//! What a failure's cause is, for the lead.
enum class CauseKind : uint8_t {
  kDialect,  //!< SQLite and Feldera differ, and Freshet does as Feldera
  kMissing,  //!< a feature Freshet lacks (compile errors, by default)
  kDefect,   //!< a wrong result, a crash: a bug until explained
  kSlow,     //!< a step too slow (or the file's budget ran out)
};

struct Cause {
  CauseKind kind;
  std::string text;  //!< the normalised message, or the dialect difference's name
};

//! The cause of a query that did not come out correct.
Cause classify(const QueryResult& query);

//! The message with its position and numbers taken out, so equal causes group.
std::string normalise_message(const std::string& message);

struct Totals {
  int64_t queries = 0, compiled = 0, correct = 0, wrong = 0, not_compiled = 0, runtime_errors = 0, timed_out = 0,
          crashed = 0, not_run = 0, skipped = 0;
  int64_t dialect = 0;  //!< failures whose cause is a dialect difference
  void add(const FileResult& file);
};

//! The report as markdown.
std::string markdown_report(const std::vector<FileResult>& files, const std::string& title);

//! One line per file and a total, for the console.
std::string summary_line(const std::string& name, const Totals& totals);

}  // namespace freshet::slt
