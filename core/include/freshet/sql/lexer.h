// The SQL lexer: program text to tokens, each with its 1-based line and column
// (columns count characters, not bytes: UTF-8 continuation bytes do not
// advance them). Comments (`-- ...` to the end of the line, `/* ... */`) and
// white space are skipped. Keywords are not a token kind: a keyword is an
// unquoted identifier whose normalised text matches (see is_reserved_word()).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"

namespace freshet::sql {

enum class TokenKind : uint8_t {
  kEndOfInput,  //!< always the last token
  kIdentifier,  //!< text lower-cased, or verbatim when `quoted`
  kInteger,     //!< text: the digits, "42"
  kDecimal,     //!< text: digits with a point, "12.50", ".5", "3."
  kFloat,       //!< text: with an exponent, "1e3", "2.5E-2"
  kString,      //!< text: the unescaped contents of '...'
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kEqual,
  kNotEqual,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kConcat,  //!< ||
  kLeftParen,
  kRightParen,
  kComma,
  kDot,
  kSemicolon,
  kDoubleColon,  //!< :: (x::type, a cast)
  // New kinds go last: the values are part of a program's hash
  // (program_hash_of), which a checkpoint records to tell a program changed.
};

struct Token {
  TokenKind kind = TokenKind::kEndOfInput;
  SourcePosition position;
  //! Normalised text: identifiers lower-cased unless quoted, strings unescaped.
  std::string text;
  //! The token exactly as written, for error messages ("FROM", "'it''s'").
  std::string_view spelling;
  bool quoted = false;  //!< a "double quoted" identifier: never a keyword
};

//! Splits `text` into tokens ending with one kEndOfInput token. Fails with
//! kSqlError "line L, column C: ..." on an unterminated string, quoted
//! identifier or block comment, a malformed number, or a stray character.
//! The tokens' `spelling` views point into `text`.
Result<std::vector<Token>> tokenize(std::string_view text);

//! True for the words that cannot be unquoted identifiers or aliases
//! (SELECT, FROM, AS, ...). `word` must be lower-case.
bool is_reserved_word(std::string_view word);
//! Every reserved word, lower-case and sorted (the SQL reference lists them).
std::vector<std::string_view> reserved_words();

//! How an error message shows a token: "'FROM'", "'it''s'" or "end of input";
//! long spellings are shortened.
std::string describe_token(const Token& token);

//! "line L, column C: <message>" as a kSqlError.
Status sql_error_at(SourcePosition position, std::string_view message);

}  // namespace freshet::sql
