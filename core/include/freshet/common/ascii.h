// ASCII case mapping for SQL keywords, function names and property values,
// which are ASCII by definition (UPPER/LOWER of data use unicode.h).
#pragma once

#include <string>
#include <string_view>

namespace freshet {

//! `text` with a-z mapped to A-Z; every other byte unchanged.
inline std::string ascii_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

//! `text` with A-Z mapped to a-z; every other byte unchanged.
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace freshet
