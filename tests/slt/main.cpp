// freshet_slt: runs sqllogictest files against Freshet (README.md).
//
//   freshet_slt [options] <corpus folder or .test files>...
//     --sample               every 25th query of each file (the test suite's run)
//     --stride N             every Nth query of each file
//     --report FILE          writes the markdown report
//     --views-per-pipeline N at most N views in one pipeline (default 1000)
//     --query-timeout S      seconds one view's pipeline may take (default 10)
//     --file-budget S        seconds a file may take (default 600)
//     --memory-budget MIB    each pipeline's memory budget (default 256; 0: none)
//     --min-compile-rate P   fail when fewer than P% of the queries compile
//     --verbose              progress on stderr
//
// Exit status: 0 when every query that compiled is correct or fails for a
// known dialect difference (timeouts are reported, not failed) and the
// compile rate is at least the minimum; 1 otherwise; 2 for bad usage. A
// corpus folder that does not exist is reported and skipped (status 0).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "slt_report.h"
#include "slt_runner.h"

namespace fs = std::filesystem;
using namespace freshet::slt;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: freshet_slt [--sample] [--stride N] [--report FILE] [--views-per-pipeline N] "
               "[--query-timeout S] [--file-budget S] [--memory-budget MIB] [--min-compile-rate P] [--verbose] <folder or files>...\n");
  return 2;
}

//! Whether a failure makes the run fail: a wrong result, a crash or a step
//! error that no dialect difference explains.
bool is_failure(const QueryResult& query) {
  switch (query.outcome) {
    case Outcome::kWrong:
    case Outcome::kCrashed:
    case Outcome::kRuntimeError:
      // A step past the memory budget is, like a timeout, reported, not failed.
      return classify(query).kind != CauseKind::kDialect && classify(query).kind != CauseKind::kSlow;
    default:
      return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  RunOptions options;
  std::string report_path;
  double min_compile_rate = 0;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* value = nullptr;
    if (arg == "--sample") {
      options.sample_stride = 25;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg.rfind("--", 0) == 0 && !(value = next())) {
      return usage();
    } else if (arg == "--stride") {
      options.sample_stride = std::max(1LL, std::atoll(value));
    } else if (arg == "--report") {
      report_path = value;
    } else if (arg == "--views-per-pipeline") {
      options.views_per_pipeline = std::max(1LL, std::atoll(value));
    } else if (arg == "--query-timeout") {
      options.query_timeout = std::atof(value);
    } else if (arg == "--file-budget") {
      options.file_budget = std::atof(value);
    } else if (arg == "--memory-budget") {
      options.memory_budget = static_cast<size_t>(std::max(0LL, std::atoll(value))) << 20;
    } else if (arg == "--min-compile-rate") {
      min_compile_rate = std::atof(value);
    } else if (arg.rfind("--", 0) == 0) {
      return usage();
    } else {
      inputs.push_back(arg);
    }
  }
  if (inputs.empty()) return usage();
  std::vector<std::pair<std::string, std::string>> paths;  // path, name in the report
  for (const std::string& input : inputs) {
    if (fs::is_directory(input)) {
      for (const auto& entry : fs::recursive_directory_iterator(input)) {
        if (entry.path().extension() == ".test") {
          paths.emplace_back(entry.path().string(), fs::relative(entry.path(), input).string());
        }
      }
    } else if (fs::exists(input)) {
      paths.emplace_back(input, fs::path(input).filename().string());
    } else {
      std::printf(
          "freshet_slt: SKIPPED: no sqllogictest corpus at '%s' (it is ../shared/slt beside the "
          "project's folder)\n",
          input.c_str());
    }
  }
  std::sort(paths.begin(), paths.end());
  if (paths.empty()) return 0;
  std::vector<FileResult> files;
  Totals totals;
  int64_t failures = 0;
  for (const auto& [path, name] : paths) {
    if (options.verbose) std::fprintf(stderr, "%s\n", path.c_str());
    files.push_back(run_file(path, options));
    files.back().path = name;
    Totals file_totals;
    file_totals.add(files.back());
    totals.add(files.back());
    std::printf("%s  %.1f s\n", summary_line(name, file_totals).c_str(), files.back().seconds);
    std::fflush(stdout);
    for (const QueryResult& query : files.back().queries) {
      if (!is_failure(query)) continue;
      if (++failures <= 20)
        std::printf("  FAILED %s:%d: %s\n    %s\n", name.c_str(), query.line, query.reason.c_str(), query.sql.c_str());
    }
  }
  std::printf("%s\n", summary_line("total", totals).c_str());
  if (!report_path.empty()) {
    std::ofstream out(report_path);
    out << markdown_report(files, "sqllogictest census");
    std::printf("report written to %s\n", report_path.c_str());
  }
  double rate = totals.queries ? 100.0 * double(totals.compiled) / double(totals.queries) : 100.0;
  int status = 0;
  if (failures > 0) {
    std::printf(
        "FAILED: %lld queries that compiled are wrong, crashed or hit a step error no dialect difference explains\n",
        (long long)failures);
    status = 1;
  }
  if (rate < min_compile_rate) {
    std::printf("FAILED: %.2f%% of the queries compile, below the minimum %.2f%%\n", rate, min_compile_rate);
    status = 1;
  }
  return status;
}
