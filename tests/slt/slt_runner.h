//! Runs one sqllogictest file against Freshet: its tables and inserts go
//! into one Pipeline, each query that compiles on its own becomes a
//! materialized view of that pipeline, inserts are ingested and stepped one
//! by one, and each view is checked against its record where the record
//! stands in the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace freshet::slt {

struct RunOptions {
  //! Keep every `sample_stride`-th query of a file (1: all of them).
  int64_t sample_stride = 1;
  //! At most this many views in one pipeline (a file's queries are run in
  //! pipelines of this many views each).
  int64_t views_per_pipeline = 1000;
  //! Seconds a pipeline of one view may take before it is killed.
  double query_timeout = 10;
  //! Seconds a whole file may take; queries not run by then are reported so.
  double file_budget = 600;
  //! Memory budget of each pipeline (Pipeline::set_memory_budget; 0: none):
  //! a view whose step grows past it (a cross product of seven tables) fails
  //! as a runtime error with OUT_OF_MEMORY, instead of taking the machine's
  //! memory until the timeout or the OOM killer ends it.
  size_t memory_budget = size_t{256} << 20;
  bool verbose = false;
};

enum class Outcome : uint8_t {
  kCorrect,
  kWrong,           //!< compiled and ran; the result differs from the record's
  kNotCompiled,     //!< the query alone does not compile: `reason` is the first error
  kRuntimeError,    //!< a step failed (division by zero, overflow, ...)
  kTimedOut,        //!< its pipeline did not finish within the query timeout
  kCrashed,         //!< its pipeline crashed the process
  kNotRun,          //!< the file's time budget ran out first
  kStatementFailed  //!< a statement it depends on failed (e.g. its table's CREATE)
};

struct QueryResult {
  int line = 0;
  std::string sql;
  bool compiled = false;  //!< the query compiled on its own
  Outcome outcome = Outcome::kCorrect;
  std::string reason;  //!< the error message or how the result differs
};

struct StatementProblem {
  int line = 0;
  std::string sql;
  std::string reason;
};

struct FileResult {
  std::string path;
  std::vector<QueryResult> queries;
  int64_t skipped_queries = 0;  //!< by skipif/onlyif, or left out of a sample
  int64_t statements = 0;
  std::vector<StatementProblem> statement_problems;  //!< failed, or ignored with a reason
  int64_t pipelines = 0;                             //!< pipelines built to run the views (more after failures)
  double seconds = 0;
  double slowest_step_ms = 0;  //!< the slowest step of a pipeline that finished
  //! The pipeline of most views that finished, and its mean step.
  int64_t largest_pipeline_views = 0;
  double largest_pipeline_mean_step_ms = 0;
};

//! Runs the file at `path`.
FileResult run_file(const std::string& path, const RunOptions& options);

}  // namespace freshet::slt
