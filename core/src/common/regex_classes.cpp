// Character classes of the regex engine (regex_program.h): range-set
// arithmetic, Rust's Unicode \d \w \s, and the ASCII [[:name:]] classes.
#include <algorithm>

#include "freshet/common/unicode.h"
#include "regex_program.h"

namespace freshet::regex_detail {
namespace {

// The ranges of code points for which `test` holds (a scan of all of Unicode).
template <typename Test>
CodeRanges ranges_where(Test test) {
  CodeRanges out;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!test(c)) continue;
    if (!out.empty() && out.back().second + 1 == c) {
      out.back().second = c;
    } else {
      out.emplace_back(c, c);
    }
  }
  return out;
}

}  // namespace

bool class_contains(const CodeRanges& ranges, char32_t code) {
  auto it = std::lower_bound(ranges.begin(), ranges.end(), code,
                             [](const std::pair<char32_t, char32_t>& r, char32_t c) { return r.second < c; });
  return it != ranges.end() && it->first <= code;
}

CodeRanges normalize(CodeRanges ranges) {
  std::sort(ranges.begin(), ranges.end());
  CodeRanges out;
  for (const auto& range : ranges) {
    if (!out.empty() && range.first <= out.back().second + 1) {
      out.back().second = std::max(out.back().second, range.second);
    } else {
      out.push_back(range);
    }
  }
  return out;
}

CodeRanges complement(const CodeRanges& ranges) {
  CodeRanges out;
  char32_t next = 0;
  for (const auto& range : ranges) {
    if (range.first > next) out.emplace_back(next, range.first - 1);
    next = range.second + 1;
  }
  if (next <= 0x10FFFF) out.emplace_back(next, 0x10FFFF);
  return out;
}

CodeRanges perl_class_ranges(char letter) {
  // Computed once each.
  static const CodeRanges digit = ranges_where(unicode::is_digit);
  static const CodeRanges word = ranges_where(unicode::is_word);
  static const CodeRanges space = ranges_where(unicode::is_space);
  char lower = static_cast<char>(letter | 0x20);
  const CodeRanges& ranges = lower == 'd' ? digit : lower == 'w' ? word : space;
  return letter == lower ? ranges : complement(ranges);
}

bool posix_class_ranges(std::string_view name, CodeRanges* out) {
  struct PosixClass {
    const char* name;
    CodeRanges ranges;
  };
  static const PosixClass kClasses[] = {
      {"alnum", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}},
      {"alpha", {{'A', 'Z'}, {'a', 'z'}}},
      {"ascii", {{0, 0x7F}}},
      {"blank", {{'\t', '\t'}, {' ', ' '}}},
      {"cntrl", {{0, 0x1F}, {0x7F, 0x7F}}},
      {"digit", {{'0', '9'}}},
      {"graph", {{'!', '~'}}},
      {"lower", {{'a', 'z'}}},
      {"print", {{' ', '~'}}},
      {"punct", {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}},
      {"space", {{'\t', '\r'}, {' ', ' '}}},
      {"upper", {{'A', 'Z'}}},
      {"word", {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}},
      {"xdigit", {{'0', '9'}, {'A', 'F'}, {'a', 'f'}}},
  };
  for (const PosixClass& entry : kClasses) {
    if (name == entry.name) {
      *out = entry.ranges;
      return true;
    }
  }
  return false;
}

}  // namespace freshet::regex_detail
