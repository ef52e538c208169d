// The compiled form of a Regex (regex.h): a Thompson NFA program that
// regex_compile.cpp builds and regex_match.cpp runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace freshet::regex_detail {

enum class Op : uint8_t {
  kClass,   //!< one code point within classes[arg]
  kAny,     //!< any code point (with (?s), or outside it any but '\n' as kClass)
  kSplit,   //!< continue at `arg` first, then at `alternative`
  kJump,    //!< continue at `arg`
  kSave,    //!< record the position in slot `arg`
  kAssert,  //!< an empty-width condition: `arg` is an Assertion
  kMatch,
};

enum Assertion : uint32_t { kTextStart, kTextEnd, kLineStart, kLineEnd, kWordBoundary, kNotWordBoundary };

struct Instruction {
  Op op;
  uint32_t arg = 0;
  uint32_t alternative = 0;
};

//! Sorted, disjoint, non-adjacent code point ranges.
using CodeRanges = std::vector<std::pair<char32_t, char32_t>>;

struct Program {
  std::vector<Instruction> instructions;
  std::vector<CodeRanges> classes;
  std::vector<std::string> group_names;  //!< per group; "" when unnamed (group 0 too)
  bool anchored = false;                 //!< matches can only start at the search's start
};

// regex_classes.cpp
//! Whether `code` is in `ranges` (binary search).
bool class_contains(const CodeRanges& ranges, char32_t code);
//! Sorted, merged ranges (overlapping and adjacent ones joined).
CodeRanges normalize(CodeRanges ranges);
//! The code points (0..0x10FFFF) not in normalized `ranges`.
CodeRanges complement(const CodeRanges& ranges);
//! \d \w \s (Unicode, as Rust's regex) and, for D W S, their complements.
CodeRanges perl_class_ranges(char letter);
//! The ASCII class [[:name:]] Rust accepts (alnum, alpha, ...); false for an unknown name.
bool posix_class_ranges(std::string_view name, CodeRanges* out);

}  // namespace freshet::regex_detail
