// String functions over non-NULL arguments (CONCAT_WS also sees NULLs), as
// Feldera's Rust runtime computes them: positions and counts are in code
// points, REPLACE and TRIM follow Rust's str::replace and trim_matches,
// INITCAP uses Rust's char::is_alphanumeric, RLIKE and REGEXP_REPLACE run
// the linear-time engine of freshet/common/regex.h.
#include <algorithm>

#include "evaluate_internal.h"
#include "freshet/common/md5.h"
#include "freshet/common/regex.h"
#include "freshet/common/unicode.h"

namespace freshet::sql::internal {
namespace {

// REPEAT's result is capped so a large count fails the step instead of exhausting memory.
constexpr size_t kMaxRepeatBytes = size_t{1} << 26;

bool starts_code_point(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) != 0x80; }

// Byte offset after the first `count` code points (text.size() when there are fewer).
size_t prefix_bytes(std::string_view text, int64_t count) {
  size_t i = 0;
  while (i < text.size() && count > 0) {
    unicode::decode_utf8(text, &i);
    --count;
  }
  return i;
}

// Byte offset where the last `count` code points start (0 when there are fewer).
size_t suffix_start(std::string_view text, int64_t count) {
  size_t i = text.size();
  while (i > 0 && count > 0) {
    --i;
    if (starts_code_point(text[i])) --count;
  }
  return i;
}

Datum concat_all(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  std::string* out = evaluator.scratch();
  for (size_t i = 0; i < expr.children.size(); ++i) out->append(arguments[i].string);
  return Datum::of_string(*out);
}

Datum concat_ws(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  if (arguments[0].null) return Datum::null_value();
  std::string* out = evaluator.scratch();
  bool first = true;
  for (size_t i = 1; i < expr.children.size(); ++i) {
    if (arguments[i].null) continue;
    if (!first) out->append(arguments[0].string);
    out->append(arguments[i].string);
    first = false;
  }
  return Datum::of_string(*out);
}

// TRIM: strip code points that occur in `characters` from the chosen ends.
Datum trim(const Expr& expr, std::string_view characters, std::string_view text) {
  auto removable = [&](char32_t code) {
    for (size_t i = 0; i < characters.size();) {
      if (unicode::decode_utf8(characters, &i) == code) return true;
    }
    return false;
  };
  size_t begin = 0, end = text.size();
  if (expr.function != ScalarFunction::kTrimTrailing) {
    while (begin < end) {
      size_t next = begin;
      if (!removable(unicode::decode_utf8(text, &next))) break;
      begin = next;
    }
  }
  if (expr.function != ScalarFunction::kTrimLeading) {
    while (end > begin) {
      size_t start = end - 1;
      while (start > begin && !starts_code_point(text[start])) --start;
      size_t next = start;
      if (!removable(unicode::decode_utf8(text, &next))) break;
      end = start;
    }
  }
  return Datum::of_string(text.substr(begin, end - begin));
}

Datum position(std::string_view needle, std::string_view haystack) {
  size_t at = haystack.find(needle);
  if (at == std::string_view::npos) return Datum::of_int(0);
  int64_t index = 1;
  for (size_t i = 0; i < at; ++i) index += starts_code_point(haystack[i]) ? 1 : 0;
  return Datum::of_int(index);
}

// Rust's str::replace: an empty needle matches before every code point and at the end.
Datum replace(Evaluator& evaluator, std::string_view text, std::string_view needle, std::string_view replacement) {
  std::string* out = evaluator.scratch();
  if (needle.empty()) {
    for (size_t i = 0; i < text.size();) {
      out->append(replacement);
      size_t start = i;
      unicode::decode_utf8(text, &i);
      out->append(text.substr(start, i - start));
    }
    out->append(replacement);
    return Datum::of_string(*out);
  }
  size_t copied = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, copied)) {
    out->append(text.substr(copied, at - copied)).append(replacement);
    copied = at + needle.size();
  }
  out->append(text.substr(copied));
  return Datum::of_string(*out);
}

Datum repeat(Evaluator& evaluator, const Expr& expr, std::string_view text, int64_t count) {
  if (count <= 0 || text.empty()) return Datum::of_string(text.substr(0, 0));
  if (static_cast<uint64_t>(count) > kMaxRepeatBytes / text.size()) {
    return evaluator.fail(ErrorCode::kInvalidArgument, "REPEAT result longer than " + std::to_string(kMaxRepeatBytes) +
                                                           " bytes", expr);
  }
  std::string* out = evaluator.scratch();
  out->reserve(text.size() * static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) out->append(text);
  return Datum::of_string(*out);
}

Datum reverse(Evaluator& evaluator, std::string_view text) {
  std::string* out = evaluator.scratch();
  size_t end = text.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && !starts_code_point(text[start])) --start;
    out->append(text.substr(start, end - start));
    end = start;
  }
  return Datum::of_string(*out);
}

Datum initcap(Evaluator& evaluator, std::string_view text) {
  std::string* out = evaluator.scratch();
  bool capitalize = true;
  for (size_t i = 0; i < text.size();) {
    size_t start = i;
    char32_t code = unicode::decode_utf8(text, &i);
    if (!unicode::is_alphanumeric(code)) {
      out->append(text.substr(start, i - start));
      capitalize = true;
    } else if (capitalize) {
      unicode::append_upper(code, *out);
      capitalize = false;
    } else {
      unicode::append_lower(code, *out);
    }
  }
  return Datum::of_string(*out);
}

// SPLIT_PART: parts as Feldera's SPLIT (an empty delimiter gives one part, an empty string none).
Datum split_part(std::string_view text, std::string_view delimiter, int64_t n) {
  std::string_view empty = text.substr(0, 0);
  if (text.empty()) return Datum::of_string(empty);
  std::vector<std::string_view> parts;
  if (delimiter.empty()) {
    parts.push_back(text);
  } else {
    size_t start = 0;
    for (size_t at = text.find(delimiter); at != std::string_view::npos; at = text.find(delimiter, start)) {
      parts.push_back(text.substr(start, at - start));
      start = at + delimiter.size();
    }
    parts.push_back(text.substr(start));
  }
  int64_t count = static_cast<int64_t>(parts.size());
  if (n < 0) n = count + n + 1;
  if (n <= 0 || n > count) return Datum::of_string(empty);
  return Datum::of_string(parts[static_cast<size_t>(n - 1)]);
}

// The regex of a constant pattern (compiled by the binder), else the last
// pattern seen here, compiled again only when the pattern changes.
const Regex* pattern_regex(Evaluator& evaluator, const Expr& expr, std::string_view pattern) {
  if (expr.regex) return expr.regex.get();
  thread_local std::string cached_pattern;
  thread_local std::shared_ptr<const Regex> cached;
  if (!cached || cached_pattern != pattern) {
    Result<std::shared_ptr<const Regex>> compiled = Regex::compile(pattern);
    if (!compiled.ok()) {
      evaluator.fail(ErrorCode::kInvalidArgument,
                     compiled.status().message() + " in pattern '" + std::string(pattern) + "' of " + expr.to_string());
      return nullptr;
    }
    cached = std::move(*compiled);
    cached_pattern.assign(pattern);
  }
  return cached.get();
}

Datum regex_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  const Regex* regex = pattern_regex(evaluator, expr, arguments[1].string);
  if (!regex) return Datum::null_value();
  if (expr.function == ScalarFunction::kRlike) return Datum::of_bool(regex->is_match(arguments[0].string));
  std::string* out = evaluator.scratch();
  std::string_view replacement = expr.children.size() > 2 ? arguments[2].string : std::string_view();
  regex->replace_all(arguments[0].string, replacement, *out);
  return Datum::of_string(*out);
}

}  // namespace

Datum call_string_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  const Datum* a = arguments;
  switch (expr.function) {
    case ScalarFunction::kConcatAll:
      return concat_all(evaluator, expr, a);
    case ScalarFunction::kConcatWs:
      return concat_ws(evaluator, expr, a);
    case ScalarFunction::kTrimBoth:
    case ScalarFunction::kTrimLeading:
    case ScalarFunction::kTrimTrailing:
      return trim(expr, a[0].string, a[1].string);
    case ScalarFunction::kPosition:
      return position(a[0].string, a[1].string);
    case ScalarFunction::kReplace:
      return replace(evaluator, a[0].string, a[1].string, a[2].string);
    case ScalarFunction::kLeft:
      return Datum::of_string(a[0].string.substr(0, prefix_bytes(a[0].string, a[1].integer)));
    case ScalarFunction::kRight: {
      if (a[1].integer <= 0) return Datum::of_string(a[0].string.substr(0, 0));
      return Datum::of_string(a[0].string.substr(suffix_start(a[0].string, a[1].integer)));
    }
    case ScalarFunction::kRepeat:
      return repeat(evaluator, expr, a[0].string, a[1].integer);
    case ScalarFunction::kReverse:
      return reverse(evaluator, a[0].string);
    case ScalarFunction::kInitcap:
      return initcap(evaluator, a[0].string);
    case ScalarFunction::kSplitPart:
      return split_part(a[0].string, a[1].string, a[2].integer);
    case ScalarFunction::kMd5: {
      std::string* out = evaluator.scratch();
      *out = md5_hex(a[0].string);
      return Datum::of_string(*out);
    }
    case ScalarFunction::kRlike:
    case ScalarFunction::kRegexpReplace:
      return regex_function(evaluator, expr, a);
    default:
      break;
  }
  return evaluator.fail(ErrorCode::kInternal, "not a string function: " + evaluator.describe(expr));
}

}  // namespace freshet::sql::internal
