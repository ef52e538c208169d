#include "freshet/common/regex.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace freshet {
namespace {

constexpr size_t kNone = std::string::npos;

std::shared_ptr<const Regex> compile(const std::string& pattern) {
  Result<std::shared_ptr<const Regex>> regex = Regex::compile(pattern);
  EXPECT_TRUE(regex.ok()) << pattern << ": " << regex.status().message();
  return regex.ok() ? *regex : nullptr;
}

// The leftmost-first match as "start-end", or "none".
std::string first_match(const std::string& pattern, const std::string& text) {
  std::shared_ptr<const Regex> regex = compile(pattern);
  if (!regex) return "bad pattern";
  std::vector<size_t> slots;
  if (!regex->find(text, 0, slots)) return "none";
  return std::to_string(slots[0]) + "-" + std::to_string(slots[1]);
}

struct MatchCase {
  const char* pattern;
  const char* text;
  const char* expected;  // the match's byte span, as Rust's Regex::find gives it
};

TEST(RegexTest, MatchesAsRustRegexFinds) {
  const MatchCase cases[] = {
      {"abc", "xxabcxx", "2-5"},
      {"a|ab", "ab", "0-1"},  // leftmost-first, not longest
      {"ab|a", "ab", "0-2"},
      {"a*", "baaa", "0-0"},
      {"a+", "baaa", "1-4"},
      {"a+?", "baaa", "1-2"},
      {"a{2,3}", "aaaa", "0-3"},
      {"a{2,3}?", "aaaa", "0-2"},
      {"a{2}", "a", "none"},
      {"a{2,}", "aaaaa", "0-5"},
      {"[a-c]+", "xxbcaz", "2-5"},
      {"[^a-c]+", "abxyc", "2-4"},
      {"[]a]+", "]a]b", "0-3"},
      {"[a-]+", "-a-b", "0-3"},
      {"\\d+", "ab 123 4", "3-6"},
      {"\\d", "x٣", "1-3"},  // Unicode Nd, as Rust
      {"\\w+", "  héllo!", "2-8"},
      {"\\s+", "a \t\nb", "1-4"},
      {"\\D\\W\\S", "a!b", "0-3"},
      {"^abc$", "abc", "0-3"},
      {"^abc$", "abcd", "none"},
      {"(?m)^b$", "a\nb\nc", "2-3"},
      {"^b", "a\nb", "none"},
      {"\\bfoo\\b", "a foo b", "2-5"},
      {"\\bfoo\\b", "afoo", "none"},
      {"\\Bfoo", "afoo", "1-4"},
      {"\\Aa", "aa", "0-1"},
      {"a\\z", "aa", "1-2"},
      {".", "\n", "none"},
      {"(?s).", "\n", "0-1"},
      {".+", "é😀", "0-6"},
      {"(?i)straSSe", "STRASSE", "0-7"},
      {"(?i)[a-c]+", "xABCd", "1-4"},
      {"(?i)k", "\u212A", "0-3"},  // Kelvin sign folds to k
      {"(?i:a)b", "Ab", "0-2"},
      {"(?i:a)b", "AB", "none"},
      {"(?U)a+", "aaa", "0-1"},
      {"(a)(b)?", "ac", "0-1"},
      {"(?:ab)+", "ababa", "0-4"},
      {"[[:digit:]]+", "ab12", "2-4"},
      {"[[:^alpha:]]", "ab1", "2-3"},
      {"\\x41\\x{1F600}", "A😀", "0-5"},
      {"a\\.b", "axb a.b", "4-7"},
      {"\\$\\^", "$^", "0-2"},
      {"", "abc", "0-0"},
      {"a|", "b", "0-0"},
      {"(a*)*b", "aaab", "0-4"},
      {"(a|b)*c", "ababc", "0-5"},
  };
  for (const MatchCase& c : cases) {
    EXPECT_EQ(first_match(c.pattern, c.text), c.expected) << "pattern " << c.pattern << " on " << c.text;
  }
}

TEST(RegexTest, CapturesGroupsAndNames) {
  std::shared_ptr<const Regex> regex = compile("(\\w+)@(?P<host>\\w+)(x)?");
  ASSERT_TRUE(regex);
  EXPECT_EQ(regex->group_count(), 4u);
  EXPECT_EQ(regex->group_index("host"), 2);
  EXPECT_EQ(regex->group_index("nope"), -1);
  std::vector<size_t> slots;
  ASSERT_TRUE(regex->find("mail joe@home", 0, slots));
  EXPECT_EQ(slots, (std::vector<size_t>{5, 13, 5, 8, 9, 13, kNone, kNone}));
}

struct ReplaceCase {
  const char* pattern;
  const char* text;
  const char* replacement;
  const char* expected;  // Rust's Regex::replace_all
};

TEST(RegexTest, ReplacesAllAsRust) {
  const ReplaceCase cases[] = {
      {"b*", "abc", "-", "-a-c-"},  // an empty match right after a match is skipped
      {"a*", "baaac", "-", "-b-c-"},
      {"", "ab", "-", "-a-b-"},
      {"", "é", "-", "-é-"},
      {"o", "foo", "0", "f00"},
      {"(\\w+) (\\w+)", "hello world", "$2 $1", "world hello"},
      {"(?P<first>\\w+) (?P<last>\\w+)", "a b", "${last}_${first}", "b_a"},
      {"(\\w+)", "ab", "$1x", ""},  // $1x names group "1x": none, so empty (as Rust)
      {"(\\w+)", "ab", "${1}x", "abx"},
      {"a", "a", "$$", "$"},
      {"a", "a", "$", "$"},
      {"a", "a", "${", "${"},
      {"(a)|b", "ab", "[$1]", "[a][]"},
      {"x", "abc", "y", "abc"},
  };
  for (const ReplaceCase& c : cases) {
    std::shared_ptr<const Regex> regex = compile(c.pattern);
    ASSERT_TRUE(regex);
    std::string out;
    regex->replace_all(c.text, c.replacement, out);
    EXPECT_EQ(out, c.expected) << "pattern " << c.pattern << " on " << c.text << " with " << c.replacement;
  }
}

TEST(RegexTest, RefusesWhatItDoesNotSupportWithAPosition) {
  struct ErrorCase {
    const char* pattern;
    const char* message;
    size_t offset;
  };
  const ErrorCase cases[] = {
      {"a(?=b)", "look-around is not supported", 1},
      {"(?<!a)b", "look-around is not supported", 0},
      {"(a)\\1", "backreferences are not supported", 3},
      {"\\p{L}", "Unicode classes (\\p, \\P) are not supported", 0},
      {"(ab", "unclosed group", 0},
      {"ab)", "unopened group: ')' without '('", 2},
      {"[ab", "unclosed character class", 0},
      {"[z-a]", "invalid character class range", 2},
      {"*a", "repetition operator missing expression", 0},
      {"a{3,1}", "invalid repetition range (min > max)", 1},
      {"a{2", "unclosed counted repetition", 1},
      {"a{1001}", "repetition count above 1000", 2},
      {"\\q", "unrecognized escape sequence \\q", 0},
      {"(?x)a", "verbose mode (?x) is not supported", 2},
      {"[a&&b]", "character class set operations (&&, --, ~~) are not supported", 2},
      {"[[a]]", "nested character classes are not supported", 1},
      {"(?P<n>a)(?P<n>b)", "duplicate capture group name 'n'", 12},
      {"^*", "repetition of an empty-width assertion", 0},
  };
  for (const ErrorCase& c : cases) {
    size_t offset = 99;
    Result<std::shared_ptr<const Regex>> regex = Regex::compile(c.pattern, &offset);
    ASSERT_FALSE(regex.ok()) << c.pattern;
    EXPECT_EQ(regex.status().message(),
              std::string("invalid regular expression: ") + c.message + " at offset " + std::to_string(c.offset))
        << c.pattern;
    EXPECT_EQ(offset, c.offset) << c.pattern;
  }
  EXPECT_FALSE(Regex::compile("(a{1000}){1000}").ok());  // too large a program
}

// The Pike VM's work is bounded by (|text| + 1) x 2 x program size whatever
// the pattern: a backtracking engine takes exponential time on these.
TEST(RegexTest, PathologicalPatternsStayLinear) {
  const char* patterns[] = {"(a*)*b", "(a|aa)*b", "(a+)+$x", "(.*)*c", "(a?){30}a{30}"};
  for (const char* pattern : patterns) {
    std::shared_ptr<const Regex> regex = compile(pattern);
    ASSERT_TRUE(regex);
    for (size_t length : {10u, 100u, 1000u}) {
      std::string text(length, 'a');
      uint64_t steps = 0;
      bool matched = regex->is_match(text, &steps);
      EXPECT_EQ(matched, std::string(pattern) == "(a?){30}a{30}" && length >= 30) << pattern;
      uint64_t bound = (length + 1) * 2 * regex->program_size();
      EXPECT_LE(steps, bound) << pattern << " on " << length << " a's";
    }
  }
  // And the work grows linearly: 10x the text, at most ~10x the steps.
  std::shared_ptr<const Regex> regex = compile("(a*)*b");
  uint64_t small = 0, large = 0;
  (void)regex->is_match(std::string(1000, 'a'), &small);
  (void)regex->is_match(std::string(10000, 'a'), &large);
  EXPECT_LE(large, small * 11);
}

}  // namespace
}  // namespace freshet

namespace freshet {
namespace {

// Native only: the oracle is libstdc++'s std::regex (the wasm build's
// libc++ one was not checked against this table); the engine's code is the
// same in both builds, and the table tests above run in both.
#if !defined(__EMSCRIPTEN__)
// Random patterns over a small syntax where Rust's regex and ECMAScript
// (std::regex, a backtracking engine used here only as an oracle) agree on
// the leftmost-first match: literals, '.', classes, groups, alternation,
// greedy and lazy repetition. Every compiled pattern must find the same
// span as the oracle on random texts.
std::string random_pattern(std::mt19937_64& random, int depth) {
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<uint64_t>(n)); };
  std::string out;
  int items = 1 + pick(3);
  for (int i = 0; i < items; ++i) {
    int kind = depth > 2 ? pick(4) : pick(6);
    if (kind <= 1) out += "ab"[pick(2)];
    if (kind == 2) out += ".";
    if (kind == 3) out += pick(2) ? "[ab]" : "[^a]";
    if (kind == 4) out += "(" + random_pattern(random, depth + 1) + ")";
    if (kind == 5) out += "(" + random_pattern(random, depth + 1) + "|" + random_pattern(random, depth + 1) + ")";
    // Stars and pluses only on single characters: nested unbounded loops
    // send the backtracking oracle (not the engine under test) exponential.
    static const char* const kQuantifiers[] = {"", "", "?", "{1,2}", "??", "{2}", "*", "+", "*?", "+?"};
    out += kQuantifiers[pick(kind >= 4 ? 6 : 10)];
  }
  return out;
}

TEST(RegexTest, AgreesWithABacktrackingOracleOnRandomPatterns) {
  uint64_t seed = 20261204;
  if (const char* env = std::getenv("FRESHET_SEED")) seed = std::strtoull(env, nullptr, 10);
  std::printf("[ seed     ] FRESHET_SEED=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 random(seed);
  int compared = 0;
  for (int round = 0; round < 400; ++round) {
    std::string pattern = random_pattern(random, 0);
    std::shared_ptr<const Regex> regex = compile(pattern);
    ASSERT_TRUE(regex) << pattern;
    std::regex oracle(pattern, std::regex::ECMAScript);
    for (int t = 0; t < 8; ++t) {
      std::string text;
      for (int length = static_cast<int>(random() % 7); length > 0; --length) text += "abc"[random() % 3];
      std::smatch expected;
      bool oracle_found = std::regex_search(text, expected, oracle);
      std::vector<size_t> slots;
      bool found = regex->find(text, 0, slots);
      ASSERT_EQ(found, oracle_found) << "pattern " << pattern << " on '" << text << "'";
      if (found) {
        EXPECT_EQ(slots[0], static_cast<size_t>(expected.position(0)))
            << "pattern " << pattern << " on '" << text << "'";
        EXPECT_EQ(slots[1] - slots[0], static_cast<size_t>(expected.length(0)))
            << "pattern " << pattern << " on '" << text << "'";
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 400 * 8);
}
#endif

}  // namespace
}  // namespace freshet
