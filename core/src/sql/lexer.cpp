#include "freshet/sql/lexer.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "freshet/common/out_of_line.h"

namespace freshet::sql {
namespace {

// Sorted, so that is_reserved_word() can binary-search.
constexpr std::array<std::string_view, 54> kReservedWords = {
    "all",      "and",   "as",     "asc",       "between", "by",    "case",  "cast",    "create", "cross",  "desc",
    "distinct", "else",  "end",    "except",    "exists",  "false", "fetch", "from",    "full",   "group",  "having",
    "in",       "index", "inner",  "intersect", "is",      "join",  "left",  "like",    "limit",  "minus",  "natural",
    "not",      "null",  "offset", "on",        "or",      "order", "outer", "primary", "right",  "select", "table",
    "then",     "true",  "union",  "using",     "values",  "view",  "when",  "where",   "window", "with",
};
static_assert(std::is_sorted(kReservedWords.begin(), kReservedWords.end()));

bool is_identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_identifier_part(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9') || c == '$'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

//! Walks the text keeping the line and column of the next character.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> tokens;
    while (true) {
      FRESHET_RETURN_IF_ERROR(skip_space_and_comments());
      Token token;
      token.position = position_;
      size_t start = offset_;
      if (offset_ >= text_.size()) {
        tokens.push_back(std::move(token));
        return tokens;
      }
      // Out of line (freshet/common/out_of_line.h says why): inlined, its
      // every branch made this loop's body, which V8 charges per token.
      FRESHET_RETURN_IF_ERROR(call_out_of_line<&Lexer::next_token>(this, token));
      token.spelling = text_.substr(start, offset_ - start);
      tokens.push_back(std::move(token));
    }
  }

 private:
  char peek(size_t ahead = 0) const { return offset_ + ahead < text_.size() ? text_[offset_ + ahead] : '\0'; }
  bool at_end() const { return offset_ >= text_.size(); }

  void advance() {
    char c = text_[offset_++];
    if (c == '\n') {
      ++position_.line;
      position_.column = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++position_.column;  // a UTF-8 continuation byte belongs to the previous character
    }
  }

  Status skip_space_and_comments() {
    while (!at_end()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        while (!at_end() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        SourcePosition start = position_;
        advance();
        advance();
        while (!(peek() == '*' && peek(1) == '/')) {
          if (at_end()) return sql_error_at(start, "unterminated comment");
          advance();
        }
        advance();
        advance();
      } else {
        break;
      }
    }
    return Status::OK();
  }

  Status next_token(Token& token) {
    char c = peek();
    if (is_identifier_start(c)) {
      token.kind = TokenKind::kIdentifier;
      while (is_identifier_part(peek())) {
        token.text.push_back(to_lower(peek()));
        advance();
      }
      return Status::OK();
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(token);
    if (c == '\'') return quoted(token, '\'', TokenKind::kString, "unterminated string literal");
    if (c == '"') {
      token.quoted = true;
      FRESHET_RETURN_IF_ERROR(quoted(token, '"', TokenKind::kIdentifier, "unterminated quoted identifier"));
      if (token.text.empty()) return sql_error_at(token.position, "empty quoted identifier");
      return Status::OK();
    }
    return punctuation(token);
  }

  //! Digits, an optional fraction and an optional exponent; a letter right
  //! after the number ("12abc", "1e") makes it malformed.
  Status number(Token& token) {
    size_t start = offset_;
    token.kind = TokenKind::kInteger;
    while (is_digit(peek())) advance();
    if (peek() == '.') {
      token.kind = TokenKind::kDecimal;
      advance();
      while (is_digit(peek())) advance();
    }
    if (peek() == 'e' || peek() == 'E') {
      size_t digits = (peek(1) == '+' || peek(1) == '-') ? 2 : 1;
      if (is_digit(peek(digits))) {
        token.kind = TokenKind::kFloat;
        for (size_t i = 0; i < digits; ++i) advance();
        while (is_digit(peek())) advance();
      }
    }
    if (is_identifier_part(peek()) || peek() == '.') {
      while (is_identifier_part(peek()) || peek() == '.') advance();
      std::string spelling(text_.substr(start, offset_ - start));
      return sql_error_at(token.position, "malformed number '" + spelling.substr(0, 40) + "'");
    }
    token.text = std::string(text_.substr(start, offset_ - start));
    return Status::OK();
  }

  //! '...' or "...": a doubled quote stands for one quote character.
  Status quoted(Token& token, char quote, TokenKind kind, std::string_view unterminated) {
    token.kind = kind;
    advance();
    while (true) {
      if (at_end()) return sql_error_at(token.position, unterminated);
      char c = peek();
      advance();
      if (c == quote) {
        if (peek() != quote) return Status::OK();
        advance();
      }
      token.text.push_back(c);
    }
  }

  Status punctuation(Token& token) {
    char c = peek();
    char next = peek(1);
    size_t length = 1;
    switch (c) {
      case '+':
        token.kind = TokenKind::kPlus;
        break;
      case '-':
        token.kind = TokenKind::kMinus;
        break;
      case '*':
        token.kind = TokenKind::kStar;
        break;
      case '/':
        token.kind = TokenKind::kSlash;
        break;
      case '%':
        token.kind = TokenKind::kPercent;
        break;
      case '=':
        token.kind = TokenKind::kEqual;
        break;
      case '(':
        token.kind = TokenKind::kLeftParen;
        break;
      case ')':
        token.kind = TokenKind::kRightParen;
        break;
      case ',':
        token.kind = TokenKind::kComma;
        break;
      case '.':
        token.kind = TokenKind::kDot;
        break;
      case ';':
        token.kind = TokenKind::kSemicolon;
        break;
      case '<':
        token.kind = next == '=' ? TokenKind::kLessEqual : next == '>' ? TokenKind::kNotEqual : TokenKind::kLess;
        length = token.kind == TokenKind::kLess ? 1 : 2;
        break;
      case '>':
        token.kind = next == '=' ? TokenKind::kGreaterEqual : TokenKind::kGreater;
        length = next == '=' ? 2 : 1;
        break;
      case '!':
        if (next != '=') return unexpected_character();
        token.kind = TokenKind::kNotEqual;
        length = 2;
        break;
      case '|':
        if (next != '|') return bitwise_operator();
        token.kind = TokenKind::kConcat;
        length = 2;
        break;
      case '&':
      case '^':
        return bitwise_operator();
      case ':':
        if (next != ':') return unexpected_character();
        token.kind = TokenKind::kDoubleColon;
        length = 2;
        break;
      case '[':
        return sql_error_at(position_, "arrays (ARRAY[...] values, x[i] subscripts) are not supported");
      default:
        return unexpected_character();
    }
    for (size_t i = 0; i < length; ++i) advance();
    return Status::OK();
  }

  Status bitwise_operator() const {
    return sql_error_at(position_, std::string("the bitwise operator '") + peek() +
                                       "' is not supported (the BIT_AND, BIT_OR and BIT_XOR aggregates are)");
  }

  Status unexpected_character() const {
    unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x21 && c < 0x7F)
      return sql_error_at(position_, std::string("unexpected character '") + static_cast<char>(c) + "'");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(c));
    return sql_error_at(position_, std::string("unexpected byte ") + hex);
  }

  std::string_view text_;
  size_t offset_ = 0;
  SourcePosition position_;
};

}  // namespace

Result<std::vector<Token>> tokenize(std::string_view text) { return Lexer(text).run(); }

bool is_reserved_word(std::string_view word) {
  return std::binary_search(kReservedWords.begin(), kReservedWords.end(), word);
}

std::vector<std::string_view> reserved_words() { return {kReservedWords.begin(), kReservedWords.end()}; }

std::string describe_token(const Token& token) {
  if (token.kind == TokenKind::kEndOfInput) return "end of input";
  constexpr size_t kMaxShown = 40;
  std::string_view shown = token.spelling;
  bool shortened = shown.size() > kMaxShown;
  if (shortened) {
    size_t cut = kMaxShown;
    // Never split a UTF-8 character: back up over continuation bytes.
    while (cut > 1 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
    shown = shown.substr(0, cut);
  }
  std::string out(shown);
  if (shortened) out += "...";
  // A string literal shows its own opening quote.
  if (token.kind == TokenKind::kString) return shortened ? out + "'" : out;
  return "'" + out + "'";
}

Status sql_error_at(SourcePosition position, std::string_view message) {
  return Status(ErrorCode::kSqlError, "line " + std::to_string(position.line) + ", column " +
                                          std::to_string(position.column) + ": " + std::string(message));
}

}  // namespace freshet::sql
