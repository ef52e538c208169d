// Case mapping and folding over the generated tables (unicode_tables.inc,
// built by core/tools/generate_unicode_tables.mjs from the UCD), and the
// UTF-8 codec the string functions share.
#include <algorithm>

#include "freshet/common/unicode.h"

namespace freshet::unicode_tables {
struct CodeMapping {
  char32_t code;
  char32_t mapped;
};
struct SpecialMapping {
  char32_t code;
  uint32_t start;  //!< index into kSpecialPool
  uint32_t length;
};
struct CodeRange {
  char32_t first;
  char32_t last;
};
}  // namespace freshet::unicode_tables

#include "unicode_tables.inc"

namespace freshet::unicode {

using namespace unicode_tables;

namespace {

template <typename Entry, size_t N>
const Entry* find_entry(const Entry (&table)[N], char32_t code) {
  const Entry* end = table + N;
  const Entry* it = std::lower_bound(table, end, code, [](const Entry& e, char32_t c) { return e.code < c; });
  return it != end && it->code == code ? it : nullptr;
}

template <size_t N>
bool in_ranges(const CodeRange (&table)[N], char32_t code) {
  const CodeRange* end = table + N;
  const CodeRange* it = std::lower_bound(table, end, code, [](const CodeRange& r, char32_t c) { return r.last < c; });
  return it != end && it->first <= code;
}

template <size_t S, size_t N>
void append_mapped(char32_t code, const SpecialMapping (&special)[S], const CodeMapping (&simple)[N],
                   std::string& out) {
  if (const SpecialMapping* entry = find_entry(special, code)) {
    for (uint32_t i = 0; i < entry->length; ++i) append_utf8(out, kSpecialPool[entry->start + i]);
    return;
  }
  const CodeMapping* entry = find_entry(simple, code);
  append_utf8(out, entry ? entry->mapped : code);
}

// Whether, reading `text` from byte `i` in direction `step` (+1 forwards, -1
// backwards), a cased letter comes after any case-ignorable ones (Unicode's
// Final_Sigma context, as Rust's str::to_lowercase tests it).
bool cased_after_ignorable(std::string_view text, size_t i, int step) {
  while (step > 0 ? i < text.size() : i > 0) {
    size_t start = i;
    if (step < 0) {
      do --start;
      while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80);
    }
    size_t next = start;
    char32_t code = decode_utf8(text, &next);
    if (!in_ranges(kCaseIgnorable, code)) return in_ranges(kCased, code);
    i = step > 0 ? next : start;
  }
  return false;
}

}  // namespace

char32_t decode_utf8(std::string_view text, size_t* offset) {
  size_t i = *offset;
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  size_t length = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
  if (length == 0 || i + length > text.size()) {
    *offset = i + 1;
    return length == 1 ? lead : 0xFFFD;
  }
  char32_t code = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      *offset = i + 1;
      return 0xFFFD;
    }
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  *offset = i + length;
  return code;
}

void append_utf8(std::string& out, char32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

void append_upper(char32_t code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code >= 'a' && code <= 'z' ? code - 32 : code);
    return;
  }
  append_mapped(code, kSpecialUpper, kSimpleUpper, out);
}

void append_lower(char32_t code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code >= 'A' && code <= 'Z' ? code + 32 : code);
    return;
  }
  append_mapped(code, kSpecialLower, kSimpleLower, out);
}

void append_upper(std::string_view text, std::string& out) {
  out.reserve(out.size() + text.size());
  for (size_t i = 0; i < text.size();) append_upper(decode_utf8(text, &i), out);
}

void append_lower(std::string_view text, std::string& out) {
  out.reserve(out.size() + text.size());
  for (size_t i = 0; i < text.size();) {
    size_t start = i;
    char32_t code = decode_utf8(text, &i);
    if (code == 0x3A3 && cased_after_ignorable(text, start, -1) && !cased_after_ignorable(text, i, 1)) {
      append_utf8(out, 0x3C2);  // final sigma
    } else {
      append_lower(code, out);
    }
  }
}

bool is_alphanumeric(char32_t code) {
  if (code < 0x80) return (code >= '0' && code <= '9') || ((code | 0x20) >= 'a' && (code | 0x20) <= 'z');
  return in_ranges(kAlphanumeric, code);
}
bool is_digit(char32_t code) { return in_ranges(kDigit, code); }
bool is_word(char32_t code) { return in_ranges(kWord, code); }
bool is_space(char32_t code) { return in_ranges(kSpace, code); }

void add_case_variants(char32_t first, char32_t last, std::vector<std::pair<char32_t, char32_t>>& ranges) {
  // Simple folding maps each code point to its class's representative:
  // collect the representatives the range touches, then every member of theirs.
  std::vector<char32_t> representatives;
  for (const CodeMapping& entry : kFold) {
    if ((entry.code >= first && entry.code <= last) || (entry.mapped >= first && entry.mapped <= last)) {
      representatives.push_back(entry.mapped);
    }
  }
  if (representatives.empty()) return;
  std::sort(representatives.begin(), representatives.end());
  for (char32_t code : representatives) ranges.emplace_back(code, code);
  for (const CodeMapping& entry : kFold) {
    if (std::binary_search(representatives.begin(), representatives.end(), entry.mapped)) {
      ranges.emplace_back(entry.code, entry.code);
    }
  }
}

}  // namespace freshet::unicode
