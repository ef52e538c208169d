// The record reader: records are separated by blank lines; a record is
// optional condition lines (skipif/onlyif), a header line, SQL lines, and for
// a query `----` followed by the expected values.
#include "slt_file.h"

#include <cstdlib>
#include <sstream>

namespace freshet::slt {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> words(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::vector<std::string> out;
  for (std::string word; in >> word;) {
    if (word[0] == '#') break;  // the rest is a comment ("skipif mysql # not compatible")
    out.push_back(word);
  }
  return out;
}

//! Reads "N values hashing to H" into the record; false when the line is not one.
bool read_hash_line(std::string_view line, Record& record) {
  std::vector<std::string> parts = words(line);
  if (parts.size() != 5 || parts[1] != "values" || parts[2] != "hashing" || parts[3] != "to") return false;
  record.hashed = true;
  record.hash_values = std::strtoll(parts[0].c_str(), nullptr, 10);
  record.hash = parts[4];
  return true;
}

}  // namespace

SltFile parse_slt(std::string_view text) {
  SltFile file;
  std::vector<std::string_view> lines = split_lines(text);
  size_t i = 0;
  while (i < lines.size()) {
    if (lines[i].empty() || lines[i][0] == '#') {
      ++i;
      continue;
    }
    bool skip = false;
    std::vector<std::string> header = words(lines[i]);
    while (!header.empty() && (header[0] == "skipif" || header[0] == "onlyif") && i + 1 < lines.size()) {
      if (header.size() > 1) {
        bool named = header[1] == kEngineName;
        if (header[0] == "skipif" ? named : !named) skip = true;
      }
      header = words(lines[++i]);
    }
    Record record;
    record.line = int(i + 1);
    size_t body = ++i;
    while (i < lines.size() && !lines[i].empty()) ++i;  // the record ends at a blank line
    std::vector<std::string_view> rest(lines.begin() + body, lines.begin() + i);
    if (header.empty()) continue;
    if (header[0] == "halt") {
      if (skip) continue;
      break;
    }
    if (header[0] == "hash-threshold") {
      record.kind = Record::Kind::kHashThreshold;
      record.threshold = header.size() > 1 ? std::strtoll(header[1].c_str(), nullptr, 10) : 0;
      if (!skip) file.records.push_back(std::move(record));
      continue;
    }
    bool query = header[0] == "query";
    if (!query && header[0] != "statement") continue;  // an unknown record kind: ignored
    if (skip) {
      ++(query ? file.skipped_queries : file.skipped_statements);
      continue;
    }
    size_t separator = 0;
    while (separator < rest.size() && rest[separator] != "----") ++separator;
    for (size_t k = 0; k < separator; ++k) {
      if (k > 0) record.sql += '\n';
      record.sql += rest[k];
    }
    if (query) {
      record.kind = Record::Kind::kQuery;
      record.types = header.size() > 1 ? header[1] : "";
      record.sort = header.size() > 2 ? header[2] : "nosort";
      record.label = header.size() > 3 ? header[3] : "";
      bool hashed = separator + 2 == rest.size() && read_hash_line(rest[separator + 1], record);
      for (size_t k = separator + 1; !hashed && k < rest.size(); ++k) record.values.emplace_back(rest[k]);
    } else {
      record.kind =
          header.size() > 1 && header[1] == "error" ? Record::Kind::kStatementError : Record::Kind::kStatementOk;
    }
    file.records.push_back(std::move(record));
  }
  return file;
}

}  // namespace freshet::slt
