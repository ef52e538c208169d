// Unicode for SQL strings: UTF-8 decoding and encoding, Rust's full case
// mapping (str::to_uppercase / to_lowercase, which Feldera's UPPER and LOWER
// call), simple case folding for case-insensitive regular expressions, and
// the character properties of Rust's char::is_alphanumeric and of the regex
// classes \d, \w and \s. The tables are generated at build time from the
// Unicode Character Database (core/tools/generate_unicode_tables.mjs).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace freshet::unicode {

//! The code point that starts at text[*offset]; advances *offset past it.
//! A malformed sequence decodes as U+FFFD and advances one byte.
char32_t decode_utf8(std::string_view text, size_t* offset);
//! Appends the UTF-8 encoding of `code`.
void append_utf8(std::string& out, char32_t code);

//! Appends `text` in upper case, as Rust's str::to_uppercase ('ß' -> "SS").
void append_upper(std::string_view text, std::string& out);
//! Appends `text` in lower case, as Rust's str::to_lowercase (with its
//! final-sigma rule: 'Σ' at the end of a word becomes 'ς').
void append_lower(std::string_view text, std::string& out);
//! Appends the full upper / lower case mapping of one code point.
void append_upper(char32_t code, std::string& out);
void append_lower(char32_t code, std::string& out);

//! Rust's char::is_alphanumeric: Alphabetic or a number (Nd, Nl, No).
bool is_alphanumeric(char32_t code);
//! The regex classes (Unicode, as Rust's regex crate): \d is Nd, \w is
//! Alphabetic, marks, Nd, Pc and Join_Control, \s is White_Space.
bool is_digit(char32_t code);
bool is_word(char32_t code);
bool is_space(char32_t code);

//! Adds to `ranges` every code point that simple case folding makes
//! equivalent to a code point of [first, last] (as single-point ranges).
void add_case_variants(char32_t first, char32_t last, std::vector<std::pair<char32_t, char32_t>>& ranges);

}  // namespace freshet::unicode
