#include "freshet/common/unicode.h"

#include <gtest/gtest.h>

#include <string>

namespace freshet {
namespace {

std::string upper(const std::string& text) {
  std::string out;
  unicode::append_upper(text, out);
  return out;
}

std::string lower(const std::string& text) {
  std::string out;
  unicode::append_lower(text, out);
  return out;
}

// Expected values are Rust's str::to_uppercase / to_lowercase (Unicode 15).
TEST(UnicodeTest, FullCaseMappingAsRust) {
  EXPECT_EQ(upper("abc xyz"), "ABC XYZ");
  EXPECT_EQ(upper("straße"), "STRASSE");
  EXPECT_EQ(upper("ﬃ"), "FFI");
  EXPECT_EQ(upper("ŉ"), "ʼN");
  EXPECT_EQ(upper("ǆ ǅ"), "Ǆ Ǆ");
  EXPECT_EQ(upper("ἀι"), "ἈΙ");
  EXPECT_EQ(upper("ᾳ"), "ΑΙ");
  EXPECT_EQ(upper("привет"), "ПРИВЕТ");
  EXPECT_EQ(upper("ꮎ"), "Ꮎ");  // Cherokee small letters map to the capitals
  EXPECT_EQ(upper("漢字 123 😀"), "漢字 123 😀");
  EXPECT_EQ(lower("İ"), "i̇");
  EXPECT_EQ(lower("ÀÉÎ"), "àéî");
  EXPECT_EQ(lower("ПРИВЕТ"), "привет");
  EXPECT_EQ(lower("Ǆ"), "ǆ");
  EXPECT_EQ(lower("𐐀"), "𐐨");  // Deseret, outside the BMP
}

TEST(UnicodeTest, FinalSigmaAsRust) {
  EXPECT_EQ(lower("ΟΔΟΣ"), "οδος");
  EXPECT_EQ(lower("Σ"), "σ");
  EXPECT_EQ(lower("ΑΣ ΣΑ"), "ας σα");
  EXPECT_EQ(lower("ΑΣ."), "ας.");
  EXPECT_EQ(lower("Α'Σ"), "α'ς");  // the apostrophe is case-ignorable
}

TEST(UnicodeTest, PropertiesAndUtf8) {
  EXPECT_TRUE(unicode::is_alphanumeric(U'é'));
  EXPECT_TRUE(unicode::is_alphanumeric(U'٣'));
  EXPECT_TRUE(unicode::is_alphanumeric(U'Ⅻ'));  // Nl
  EXPECT_FALSE(unicode::is_alphanumeric(U'-'));
  EXPECT_TRUE(unicode::is_digit(U'٣'));
  EXPECT_FALSE(unicode::is_digit(U'Ⅻ'));
  EXPECT_TRUE(unicode::is_word(U'_'));
  EXPECT_TRUE(unicode::is_space(0x3000));
  std::string text;
  for (char32_t code : {U'a', U'é', U'€', U'😀'}) unicode::append_utf8(text, code);
  EXPECT_EQ(text, "aé€😀");
  size_t offset = 0;
  EXPECT_EQ(unicode::decode_utf8(text, &offset), U'a');
  EXPECT_EQ(unicode::decode_utf8(text, &offset), U'é');
  EXPECT_EQ(unicode::decode_utf8(text, &offset), U'€');
  EXPECT_EQ(unicode::decode_utf8(text, &offset), U'😀');
  EXPECT_EQ(offset, text.size());
  std::string bad = "\xC3";
  offset = 0;
  EXPECT_EQ(unicode::decode_utf8(bad, &offset), 0xFFFDu);
  EXPECT_EQ(offset, 1u);
}

}  // namespace
}  // namespace freshet
