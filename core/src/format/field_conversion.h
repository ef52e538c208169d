// Converting one input value (JSON or CSV) into one column of a row being
// built, with the same rules for every input format. Each converter either
// sets the column or returns an error whose message is the reason only
// ("expected an integer, found \"abc\""): the caller prefixes the record and
// the column. Nothing is allocated on success.
//
// Error codes: a value of the wrong kind is kParseError; a value of the right
// kind that does not fit the column (out of range, too long, no such date) is
// kTypeError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/common/status.h"
#include "freshet/types/row.h"

namespace freshet::format::internal {

//! How an offending value appears in an error message: JSON tokens as they
//! were written (`"abc"`, `1.5`), CSV fields quoted (quoted = true).
struct ShownValue {
  std::string_view text;
  bool quoted = false;
};

//! ASCII case-insensitive equality (column names, true/false, NaN).
bool equals_ignoring_case(std::string_view a, std::string_view b);

//! The value for a message, quoted when asked, cut to about 40 bytes.
std::string show(ShownValue value);

//! "expected an integer", "expected a number", ... for the column's type.
const char* expected_kind(const SqlType& type);
//! kParseError: "<expected_kind>, found <value>".
Status wrong_kind(const SqlType& type, ShownValue value);

//! Integer column from an int64, checking the column's range; `text` is the
//! number as written, for the message ("300 is out of range for TINYINT").
Status set_integer(RowBuilder& row, size_t column, int64_t value, std::string_view text);
//! REAL/DOUBLE column from a double (finite values beyond REAL's range fail).
Status set_floating(RowBuilder& row, size_t column, double value, std::string_view text);
//! DECIMAL column from a number's text (exponents allowed), exactly.
Status set_decimal_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown);
//! VARCHAR column, checking VARCHAR(n)'s length in code points (`text` is UTF-8).
Status set_varchar(RowBuilder& row, size_t column, std::string_view text, ShownValue shown);

//! Any column from text: a CSV field or a JSON string. Booleans are
//! true/false in any case; numbers as JSON writes them (a leading '+' allowed;
//! REAL/DOUBLE also NaN, Infinity, -Infinity); DATE 'YYYY-MM-DD'; TIMESTAMP
//! 'YYYY-MM-DD HH:MM:SS[.ffffff]'; TIME 'HH:MM:SS[.ffffff]'; an interval as
//! CAST(... AS VARCHAR) writes it ('+1 02:00:00'). The text is not NULL: the caller handles NULL.
Status set_from_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown);

//! Whether `text` is a number as JSON writes it, optionally with a leading
//! '+' or '-' and leading zeros: digits, an optional fraction, an optional
//! exponent. `integral` says it has neither fraction nor exponent.
bool is_number_text(std::string_view text, bool* integral);

}  // namespace freshet::format::internal
