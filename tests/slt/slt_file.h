//! Reading a sqllogictest file into records (the format of SQLite's
//! sqllogictest; ../shared/slt/README.md): statements, queries with their
//! expected results, skipif/onlyif conditions, halt and hash-threshold.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace freshet::slt {

//! The engine name that skipif/onlyif conditions are matched against.
inline constexpr std::string_view kEngineName = "freshet";

struct Record {
  enum class Kind : uint8_t { kStatementOk, kStatementError, kQuery, kHalt, kHashThreshold };
  Kind kind = Kind::kStatementOk;
  int line = 0;     //!< line of the record's first line (after its conditions)
  std::string sql;  //!< the statement or query, lines joined with '\n'
  // Queries only:
  std::string types;                //!< one letter a column: I, R or T
  std::string sort;                 //!< nosort, rowsort or valuesort
  std::string label;                //!< optional label (results of equal labels are equal)
  bool hashed = false;              //!< expected result given as "N values hashing to H"
  int64_t hash_values = 0;          //!< N
  std::string hash;                 //!< H
  std::vector<std::string> values;  //!< expected values, one per line (when not hashed)
  int64_t threshold = 0;            //!< kHashThreshold: N
};

struct SltFile {
  std::vector<Record> records;  //!< the records that run for engine `freshet`, in order
  int64_t skipped_queries = 0;  //!< queries a skipif/onlyif condition left out
  int64_t skipped_statements = 0;
};

//! Parses the text of a file. Records skipped by their conditions are
//! counted, not kept; everything after `halt` is dropped.
SltFile parse_slt(std::string_view text);

}  // namespace freshet::slt
