// The SQL lexer: token kinds, normalised text, positions, comments, and the
// errors for unterminated or stray input.
#include "freshet/sql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace freshet::sql {
namespace {

std::vector<Token> lex(std::string_view text) {
  Result<std::vector<Token>> tokens = tokenize(text);
  EXPECT_TRUE(tokens.ok()) << tokens.status().to_string();
  return tokens.ok() ? std::move(tokens).value() : std::vector<Token>{};
}

std::string lex_error(std::string_view text) {
  Result<std::vector<Token>> tokens = tokenize(text);
  EXPECT_FALSE(tokens.ok());
  if (tokens.ok()) return "";
  EXPECT_EQ(tokens.status().code(), ErrorCode::kSqlError);
  return tokens.status().message();
}

std::vector<TokenKind> kinds(const std::vector<Token>& tokens) {
  std::vector<TokenKind> out;
  for (const Token& token : tokens) out.push_back(token.kind);
  return out;
}

TEST(LexerTest, EmptyInputIsOneEndToken) {
  std::vector<Token> tokens = lex("  \n -- only a comment\n /* and another */ ");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kEndOfInput);
  EXPECT_EQ(tokens[0].position.line, 3u);
  EXPECT_EQ(tokens[0].position.column, 20u);
}

TEST(LexerTest, IdentifiersAreLowerCasedUnlessQuoted) {
  std::vector<Token> tokens = lex("Orders \"MixedCase\" \"say \"\"hi\"\"\" _x1$");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].text, "orders");
  EXPECT_FALSE(tokens[0].quoted);
  EXPECT_EQ(tokens[0].spelling, "Orders");
  EXPECT_EQ(tokens[1].text, "MixedCase");
  EXPECT_TRUE(tokens[1].quoted);
  EXPECT_EQ(tokens[2].text, "say \"hi\"");
  EXPECT_EQ(tokens[3].text, "_x1$");
}

TEST(LexerTest, Numbers) {
  std::vector<Token> tokens = lex("42 12.50 .5 3. 1e3 2.5E-2 7e+1");
  std::vector<TokenKind> expected = {TokenKind::kInteger, TokenKind::kDecimal,   TokenKind::kDecimal,
                                     TokenKind::kDecimal, TokenKind::kFloat,     TokenKind::kFloat,
                                     TokenKind::kFloat,   TokenKind::kEndOfInput};
  EXPECT_EQ(kinds(tokens), expected);
  EXPECT_EQ(tokens[0].text, "42");
  EXPECT_EQ(tokens[1].text, "12.50");
  EXPECT_EQ(tokens[2].text, ".5");
  EXPECT_EQ(tokens[5].text, "2.5E-2");
}

TEST(LexerTest, StringsUnescapeDoubledQuotes) {
  std::vector<Token> tokens = lex("'it''s' '' 'two\nlines'");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kString);
  EXPECT_EQ(tokens[0].text, "it's");
  EXPECT_EQ(tokens[0].spelling, "'it''s'");
  EXPECT_EQ(tokens[1].text, "");
  EXPECT_EQ(tokens[2].text, "two\nlines");
  EXPECT_EQ(tokens[3].position.line, 2u);
  EXPECT_EQ(tokens[3].position.column, 7u);
}

TEST(LexerTest, Operators) {
  std::vector<Token> tokens = lex("+ - * / % = <> != < <= > >= || ( ) , . ;");
  std::vector<TokenKind> expected = {
      TokenKind::kPlus,    TokenKind::kMinus,     TokenKind::kStar,       TokenKind::kSlash,
      TokenKind::kPercent, TokenKind::kEqual,     TokenKind::kNotEqual,   TokenKind::kNotEqual,
      TokenKind::kLess,    TokenKind::kLessEqual, TokenKind::kGreater,    TokenKind::kGreaterEqual,
      TokenKind::kConcat,  TokenKind::kLeftParen, TokenKind::kRightParen, TokenKind::kComma,
      TokenKind::kDot,     TokenKind::kSemicolon, TokenKind::kEndOfInput};
  EXPECT_EQ(kinds(tokens), expected);
  // No space needed between operators and operands.
  EXPECT_EQ(kinds(lex("a<=-1")),
            (std::vector<TokenKind>{TokenKind::kIdentifier, TokenKind::kLessEqual, TokenKind::kMinus,
                                    TokenKind::kInteger, TokenKind::kEndOfInput}));
  EXPECT_EQ(kinds(lex("a::int")), (std::vector<TokenKind>{TokenKind::kIdentifier, TokenKind::kDoubleColon,
                                                          TokenKind::kIdentifier, TokenKind::kEndOfInput}));
}

TEST(LexerTest, CommentsAndPositions) {
  std::vector<Token> tokens = lex("SELECT a -- comment ; 'x\n  , /* multi\nline */ b\n");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].position.line, 1u);
  EXPECT_EQ(tokens[0].position.column, 1u);
  EXPECT_EQ(tokens[1].position.column, 8u);
  EXPECT_EQ(tokens[2].kind, TokenKind::kComma);
  EXPECT_EQ(tokens[2].position.line, 2u);
  EXPECT_EQ(tokens[2].position.column, 3u);
  EXPECT_EQ(tokens[3].text, "b");
  EXPECT_EQ(tokens[3].position.line, 3u);
  EXPECT_EQ(tokens[3].position.column, 9u);
  EXPECT_EQ(tokens[4].position.line, 4u);
}

TEST(LexerTest, ColumnsCountCharactersNotBytes) {
  std::vector<Token> tokens = lex("'h\xC3\xA9llo' x");  // 'héllo' x
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].text, "h\xC3\xA9llo");
  EXPECT_EQ(tokens[1].position.column, 9u);
}

TEST(LexerTest, Errors) {
  EXPECT_EQ(lex_error("SELECT 'abc"), "line 1, column 8: unterminated string literal");
  EXPECT_EQ(lex_error("a\n  \"abc"), "line 2, column 3: unterminated quoted identifier");
  EXPECT_EQ(lex_error("a /* never\nclosed"), "line 1, column 3: unterminated comment");
  EXPECT_EQ(lex_error("a # b"), "line 1, column 3: unexpected character '#'");
  EXPECT_EQ(
      lex_error("a | b"),
      "line 1, column 3: the bitwise operator '|' is not supported (the BIT_AND, BIT_OR and BIT_XOR aggregates are)");
  EXPECT_EQ(
      lex_error("a ^ b"),
      "line 1, column 3: the bitwise operator '^' is not supported (the BIT_AND, BIT_OR and BIT_XOR aggregates are)");
  EXPECT_EQ(lex_error("a : b"), "line 1, column 3: unexpected character ':'");
  EXPECT_EQ(lex_error("a ! b"), "line 1, column 3: unexpected character '!'");
  EXPECT_EQ(lex_error("x\n\x01"), "line 2, column 1: unexpected byte 0x01");
  EXPECT_EQ(lex_error("\"\""), "line 1, column 1: empty quoted identifier");
  EXPECT_EQ(lex_error("SELECT 12abc"), "line 1, column 8: malformed number '12abc'");
  EXPECT_EQ(lex_error("SELECT 1e"), "line 1, column 8: malformed number '1e'");
  EXPECT_EQ(lex_error("SELECT 1.2.3"), "line 1, column 8: malformed number '1.2.3'");
}

TEST(LexerTest, ReservedWords) {
  EXPECT_TRUE(is_reserved_word("select"));
  EXPECT_TRUE(is_reserved_word("between"));
  EXPECT_TRUE(is_reserved_word("with"));
  EXPECT_FALSE(is_reserved_word("year"));
  EXPECT_FALSE(is_reserved_word("date"));
  EXPECT_FALSE(is_reserved_word("SELECT"));  // callers pass lower-case text
}

TEST(LexerTest, DescribeToken) {
  std::vector<Token> tokens = lex("FROM 'it''s'");
  EXPECT_EQ(describe_token(tokens[0]), "'FROM'");
  EXPECT_EQ(describe_token(tokens[1]), "'it''s'");
  EXPECT_EQ(describe_token(tokens[2]), "end of input");
  std::string long_name(60, 'x');
  EXPECT_EQ(describe_token(lex(long_name)[0]), "'" + std::string(40, 'x') + "...'");
  EXPECT_EQ(describe_token(lex("'" + long_name + "'")[0]), "'" + std::string(39, 'x') + "...'");
  // Shortening never splits a UTF-8 character (\xC3\xA9 is one).
  std::string accented = "'" + std::string(38, 'x') + "\xC3\xA9" + long_name + "'";
  EXPECT_EQ(describe_token(lex(accented)[0]), "'" + std::string(38, 'x') + "...'");
}

}  // namespace
}  // namespace freshet::sql
