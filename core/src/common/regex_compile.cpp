// Regex::compile: a recursive-descent parser of Rust regex syntax into a
// small syntax tree, then code generation of the Thompson NFA program.
#include <algorithm>
#include <cctype>

#include "freshet/common/regex.h"
#include "freshet/common/unicode.h"
#include "regex_program.h"

namespace freshet {
namespace regex_detail {
namespace {

// Programs larger than this are refused (counted repetitions multiply).
constexpr size_t kMaxInstructions = 100000;
// Group nesting; the parser and code generator recurse on it.
constexpr int kMaxNesting = 200;

struct Node;
using NodePtr = std::unique_ptr<Node>;

struct Node {
  enum Kind { kEmpty, kClass, kAny, kAssert, kGroup, kConcat, kAlternate, kRepeat } kind;
  uint32_t value = 0;         // kClass: class index; kAssert: Assertion; kGroup: capture number or kNoCapture
  uint32_t min = 0, max = 0;  // kRepeat; max kUnbounded for none
  bool greedy = true;
  std::vector<NodePtr> children;
  explicit Node(Kind k) : kind(k) {}
};
constexpr uint32_t kNoCapture = UINT32_MAX;
constexpr uint32_t kUnbounded = UINT32_MAX;

struct Flags {
  bool case_insensitive = false, multi_line = false, dot_all = false, swap_greed = false;
};

class Parser {
 public:
  Parser(std::string_view pattern, Program& program) : pattern_(pattern), program_(program) {}

  Result<NodePtr> parse() {
    Result<NodePtr> node = alternation(Flags{}, 0);
    if (!node.ok()) return node;
    if (position_ < pattern_.size()) return error("unopened group: ')' without '('");
    return node;
  }

  size_t error_offset() const { return error_offset_; }

 private:
  Status error(const std::string& why) { return error_at(position_, why); }
  Status error_at(size_t offset, const std::string& why) {
    error_offset_ = offset;
    return Status(ErrorCode::kInvalidArgument,
                  "invalid regular expression: " + why + " at offset " + std::to_string(offset));
  }
  bool at_end() const { return position_ >= pattern_.size(); }
  char peek(size_t ahead = 0) const { return position_ + ahead < pattern_.size() ? pattern_[position_ + ahead] : '\0'; }
  char32_t next_code_point() { return unicode::decode_utf8(pattern_, &position_); }

  // The class for `ranges` (case variants added under (?i)), as a node.
  NodePtr class_node(CodeRanges ranges, const Flags& flags, bool negated) {
    if (flags.case_insensitive) {
      CodeRanges variants;
      for (const auto& range : ranges) unicode::add_case_variants(range.first, range.second, variants);
      ranges.insert(ranges.end(), variants.begin(), variants.end());
    }
    ranges = normalize(std::move(ranges));
    if (negated) ranges = complement(ranges);
    auto node = std::make_unique<Node>(Node::kClass);
    node->value = static_cast<uint32_t>(program_.classes.size());
    program_.classes.push_back(std::move(ranges));
    return node;
  }

  Result<NodePtr> alternation(Flags flags, int depth) {
    if (depth > kMaxNesting) return error("groups nested more than " + std::to_string(kMaxNesting) + " deep");
    std::vector<NodePtr> branches;
    while (true) {
      Result<NodePtr> branch = concatenation(flags, depth);
      if (!branch.ok()) return branch;
      branches.push_back(std::move(*branch));
      if (peek() != '|' || at_end()) break;
      ++position_;
    }
    if (branches.size() == 1) return std::move(branches[0]);
    auto node = std::make_unique<Node>(Node::kAlternate);
    node->children = std::move(branches);
    return node;
  }

  // Items up to '|', ')' or the end; (?flags) changes `flags` for the rest of the group.
  Result<NodePtr> concatenation(Flags& flags, int depth) {
    auto node = std::make_unique<Node>(Node::kConcat);
    while (!at_end() && peek() != '|' && peek() != ')') {
      size_t start = position_;
      Result<NodePtr> atom = this->atom(flags, depth);
      if (!atom.ok()) return atom;
      if (!*atom) continue;  // a flag group
      Result<NodePtr> repeated = repetitions(std::move(*atom), flags, start);
      if (!repeated.ok()) return repeated;
      node->children.push_back(std::move(*repeated));
    }
    return NodePtr(std::move(node));
  }

  Result<NodePtr> repetitions(NodePtr atom, const Flags& flags, size_t atom_start) {
    while (!at_end()) {
      uint32_t min = 0, max = kUnbounded;
      char c = peek();
      if (c == '*') {
        ++position_;
      } else if (c == '+') {
        min = 1, ++position_;
      } else if (c == '?') {
        max = 1, ++position_;
      } else if (c == '{') {
        FRESHET_RETURN_IF_ERROR(counted_repetition(&min, &max));
      } else {
        break;
      }
      if (atom->kind == Node::kAssert || atom->kind == Node::kEmpty) {
        return error_at(atom_start, "repetition of an empty-width assertion");
      }
      bool greedy = true;
      if (peek() == '?' && !at_end()) greedy = false, ++position_;
      auto repeat = std::make_unique<Node>(Node::kRepeat);
      repeat->min = min, repeat->max = max, repeat->greedy = greedy != flags.swap_greed;
      repeat->children.push_back(std::move(atom));
      atom = std::move(repeat);
    }
    return atom;
  }

  Status number(uint32_t* out) {
    size_t start = position_;
    uint64_t value = 0;
    while (peek() >= '0' && peek() <= '9' && !at_end()) {
      value = value * 10 + static_cast<uint64_t>(peek() - '0');
      if (value > 1000) return error_at(start, "repetition count above 1000");
      ++position_;
    }
    if (position_ == start) return error("repetition quantifier expects a valid decimal");
    *out = static_cast<uint32_t>(value);
    return Status::OK();
  }

  Status counted_repetition(uint32_t* min, uint32_t* max) {
    size_t start = position_++;
    FRESHET_RETURN_IF_ERROR(number(min));
    *max = *min;
    if (peek() == ',') {
      ++position_;
      *max = kUnbounded;
      if (peek() != '}') FRESHET_RETURN_IF_ERROR(number(max));
    }
    if (peek() != '}' || at_end()) return error_at(start, "unclosed counted repetition");
    ++position_;
    if (*max < *min) return error_at(start, "invalid repetition range (min > max)");
    return Status::OK();
  }

  // One atom; null for a flag group such as (?i).
  Result<NodePtr> atom(Flags& flags, int depth) {
    size_t start = position_;
    char c = peek();
    switch (c) {
      case '(':
        return group(flags, depth);
      case '[':
        return bracket_class(flags);
      case '*':
      case '+':
      case '?':
      case '{':
        return error("repetition operator missing expression");
      case '.': {
        ++position_;
        if (flags.dot_all) return std::make_unique<Node>(Node::kAny);
        return class_node({{'\n', '\n'}}, Flags{}, true);
      }
      case '^':
      case '$': {
        ++position_;
        auto node = std::make_unique<Node>(Node::kAssert);
        node->value =
            c == '^' ? (flags.multi_line ? kLineStart : kTextStart) : (flags.multi_line ? kLineEnd : kTextEnd);
        return NodePtr(std::move(node));
      }
      case '\\':
        return escape(flags);
      default:
        break;
    }
    char32_t code = next_code_point();
    (void)start;
    return class_node({{code, code}}, flags, false);
  }

  Result<NodePtr> group(Flags& flags, int depth) {
    size_t start = position_++;
    uint32_t capture = kNoCapture;
    Flags inner = flags;
    if (peek() == '?') {
      ++position_;
      if (peek() == '=' || peek() == '!' || (peek() == '<' && (peek(1) == '=' || peek(1) == '!'))) {
        return error_at(start, "look-around is not supported");
      }
      if (peek() == 'P' || peek() == '<') {
        if (peek() == 'P') ++position_;
        if (peek() != '<') return error("expected '<' after (?P");
        size_t name_start = ++position_;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')) ++position_;
        if (peek() != '>' || position_ == name_start) return error_at(name_start, "invalid capture group name");
        std::string name(pattern_.substr(name_start, position_ - name_start));
        if (std::find(program_.group_names.begin(), program_.group_names.end(), name) != program_.group_names.end()) {
          return error_at(name_start, "duplicate capture group name '" + name + "'");
        }
        ++position_;
        capture = static_cast<uint32_t>(program_.group_names.size());
        program_.group_names.push_back(std::move(name));
      } else {
        // Flags: (?flags) for the rest of the enclosing group, (?flags:re) for re.
        bool negate = false;
        while (!at_end() && peek() != ')' && peek() != ':') {
          char flag = peek();
          bool value = !negate;
          if (flag == '-') {
            negate = true;
          } else if (flag == 'i') {
            inner.case_insensitive = value;
          } else if (flag == 'm') {
            inner.multi_line = value;
          } else if (flag == 's') {
            inner.dot_all = value;
          } else if (flag == 'U') {
            inner.swap_greed = value;
          } else if (flag == 'x') {
            return error("verbose mode (?x) is not supported");
          } else {
            return error(std::string("unrecognized flag '") + flag + "'");
          }
          ++position_;
        }
        if (at_end()) return error_at(start, "unclosed group");
        if (peek() == ')') {
          ++position_;
          flags = inner;
          return NodePtr();
        }
        ++position_;  // ':'
      }
    } else {
      capture = static_cast<uint32_t>(program_.group_names.size());
      program_.group_names.emplace_back();
    }
    Result<NodePtr> body = alternation(inner, depth + 1);
    if (!body.ok()) return body;
    if (peek() != ')' || at_end()) return error_at(start, "unclosed group");
    ++position_;
    auto node = std::make_unique<Node>(Node::kGroup);
    node->value = capture;
    node->children.push_back(std::move(*body));
    return NodePtr(std::move(node));
  }

  // A code point escape: \n \t \xHH \x{H...} \u... or escaped punctuation. kInvalid otherwise.
  static constexpr char32_t kInvalid = 0xFFFFFFFF;
  Result<char32_t> literal_escape(char letter) {
    switch (letter) {
      case 'n':
        return char32_t{'\n'};
      case 't':
        return char32_t{'\t'};
      case 'r':
        return char32_t{'\r'};
      case 'f':
        return char32_t{'\f'};
      case 'v':
        return char32_t{'\v'};
      case 'a':
        return char32_t{7};
      case 'x':
      case 'u':
      case 'U':
        return hex_escape(letter == 'x' ? 2 : letter == 'u' ? 4 : 8);
      default:
        break;
    }
    unsigned char byte = static_cast<unsigned char>(letter);
    if (byte < 0x80 && !std::isalnum(byte) && byte != ' ' && byte != '<' && byte != '>') return char32_t{byte};
    return kInvalid;
  }

  Result<char32_t> hex_escape(int digits) {
    size_t start = position_;
    bool braced = peek() == '{';
    if (braced) ++position_, digits = 8;
    uint32_t value = 0;
    int count = 0;
    while (count < digits && std::isxdigit(static_cast<unsigned char>(peek())) && !at_end()) {
      char h = static_cast<char>(std::tolower(static_cast<unsigned char>(peek())));
      value = value * 16 + static_cast<uint32_t>(h <= '9' ? h - '0' : h - 'a' + 10);
      ++count, ++position_;
    }
    if (braced ? (peek() != '}' || count == 0) : count != digits) return error_at(start, "invalid hexadecimal escape");
    if (braced) ++position_;
    if (value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
      return error_at(start, "invalid Unicode scalar value");
    return char32_t{value};
  }

  Result<NodePtr> escape(const Flags& flags) {
    size_t start = position_++;
    if (at_end()) return error_at(start, "incomplete escape sequence");
    char letter = pattern_[position_++];
    switch (letter) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
        return class_node(perl_class_ranges(letter), Flags{}, false);
      case 'b':
      case 'B':
      case 'A':
      case 'z': {
        auto node = std::make_unique<Node>(Node::kAssert);
        node->value = letter == 'b'   ? kWordBoundary
                      : letter == 'B' ? kNotWordBoundary
                      : letter == 'A' ? kTextStart
                                      : kTextEnd;
        return NodePtr(std::move(node));
      }
      case 'p':
      case 'P':
        return error_at(start, "Unicode classes (\\p, \\P) are not supported");
      default:
        break;
    }
    if (letter >= '0' && letter <= '9') return error_at(start, "backreferences are not supported");
    Result<char32_t> code = literal_escape(letter);
    if (!code.ok()) return code.status();
    if (*code == kInvalid) return error_at(start, std::string("unrecognized escape sequence \\") + letter);
    return class_node({{*code, *code}}, flags, false);
  }

  // [[:alpha:]] and the other ASCII classes Rust accepts.
  Status posix_class(CodeRanges& ranges) {
    size_t start = position_;
    size_t end = pattern_.find(":]", position_ + 2);
    if (end == std::string_view::npos) return error_at(start, "unclosed POSIX class");
    std::string_view name = pattern_.substr(position_ + 2, end - position_ - 2);
    bool negated = !name.empty() && name[0] == '^';
    if (negated) name.remove_prefix(1);
    position_ = end + 2;
    CodeRanges add;
    if (!posix_class_ranges(name, &add)) return error_at(start, "unknown POSIX class '" + std::string(name) + "'");
    if (negated) add = complement(add);
    ranges.insert(ranges.end(), add.begin(), add.end());
    return Status::OK();
  }

  // One member of a bracket class: a code point (returned) or a whole class (added to `ranges`, kInvalid returned).
  Result<char32_t> class_member(CodeRanges& ranges) {
    if (peek() == '[' && peek(1) == ':') {
      FRESHET_RETURN_IF_ERROR(posix_class(ranges));
      return kInvalid;
    }
    if (peek() == '[') return error("nested character classes are not supported");
    if ((peek() == '&' && peek(1) == '&') || (peek() == '-' && peek(1) == '-') || (peek() == '~' && peek(1) == '~')) {
      return error("character class set operations (&&, --, ~~) are not supported");
    }
    if (peek() != '\\') return next_code_point();
    size_t start = position_++;
    if (at_end()) return error_at(start, "incomplete escape sequence");
    char letter = pattern_[position_++];
    if (std::string_view("dDwWsS").find(letter) != std::string_view::npos) {
      CodeRanges add = perl_class_ranges(letter);
      ranges.insert(ranges.end(), add.begin(), add.end());
      return kInvalid;
    }
    if (letter == 'p' || letter == 'P') return error_at(start, "Unicode classes (\\p, \\P) are not supported");
    Result<char32_t> code = literal_escape(letter);
    if (!code.ok()) return code.status();
    if (*code == kInvalid) return error_at(start, std::string("unrecognized escape sequence \\") + letter);
    return code;
  }

  Result<NodePtr> bracket_class(const Flags& flags) {
    size_t start = position_++;
    bool negated = peek() == '^';
    if (negated) ++position_;
    CodeRanges ranges;
    bool first = true;
    while (true) {
      if (at_end()) return error_at(start, "unclosed character class");
      if (peek() == ']' && !first) break;
      first = false;
      Result<char32_t> low = class_member(ranges);
      if (!low.ok()) return low.status();
      if (*low == kInvalid) continue;
      if (peek() == '-' && peek(1) != ']' && position_ + 1 < pattern_.size()) {
        size_t dash = position_++;
        Result<char32_t> high = class_member(ranges);
        if (!high.ok()) return high.status();
        if (*high == kInvalid || *high < *low) return error_at(dash, "invalid character class range");
        ranges.emplace_back(*low, *high);
      } else {
        ranges.emplace_back(*low, *low);
      }
    }
    ++position_;
    return class_node(std::move(ranges), flags, negated);
  }

  std::string_view pattern_;
  size_t position_ = 0;
  size_t error_offset_ = 0;
  Program& program_;
};

// Code generation: each node appends its instructions to the program.
class Generator {
 public:
  explicit Generator(Program& program) : program_(program) {}

  Status emit(const Node& node) {
    if (program_.instructions.size() > kMaxInstructions) {
      return Status(ErrorCode::kInvalidArgument,
                    "invalid regular expression: the compiled pattern is too large (over " +
                        std::to_string(kMaxInstructions) + " instructions)");
    }
    switch (node.kind) {
      case Node::kEmpty:
        return Status::OK();
      case Node::kClass:
        add(Op::kClass, node.value);
        return Status::OK();
      case Node::kAny:
        add(Op::kAny);
        return Status::OK();
      case Node::kAssert:
        add(Op::kAssert, node.value);
        return Status::OK();
      case Node::kGroup: {
        if (node.value != kNoCapture) add(Op::kSave, 2 * node.value);
        FRESHET_RETURN_IF_ERROR(emit(*node.children[0]));
        if (node.value != kNoCapture) add(Op::kSave, 2 * node.value + 1);
        return Status::OK();
      }
      case Node::kConcat:
        for (const NodePtr& child : node.children) FRESHET_RETURN_IF_ERROR(emit(*child));
        return Status::OK();
      case Node::kAlternate:
        return alternate(node);
      case Node::kRepeat:
        return repeat(node);
    }
    return Status::OK();
  }

 private:
  uint32_t add(Op op, uint32_t arg = 0, uint32_t alternative = 0) {
    program_.instructions.push_back({op, arg, alternative});
    return static_cast<uint32_t>(program_.instructions.size() - 1);
  }
  uint32_t here() const { return static_cast<uint32_t>(program_.instructions.size()); }

  Status alternate(const Node& node) {
    std::vector<uint32_t> jumps;
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (i + 1 == node.children.size()) {
        FRESHET_RETURN_IF_ERROR(emit(*node.children[i]));
        break;
      }
      uint32_t split = add(Op::kSplit);
      program_.instructions[split].arg = here();
      FRESHET_RETURN_IF_ERROR(emit(*node.children[i]));
      jumps.push_back(add(Op::kJump));
      program_.instructions[split].alternative = here();
    }
    for (uint32_t jump : jumps) program_.instructions[jump].arg = here();
    return Status::OK();
  }

  // A split preferring the loop body (greedy) or the exit (lazy); `body` and `exit` set by the caller.
  uint32_t split(bool greedy) {
    (void)greedy;
    return add(Op::kSplit);
  }
  void set_split(uint32_t at, bool greedy, uint32_t body, uint32_t exit) {
    program_.instructions[at].arg = greedy ? body : exit;
    program_.instructions[at].alternative = greedy ? exit : body;
  }

  Status repeat(const Node& node) {
    const Node& child = *node.children[0];
    for (uint32_t i = 0; i < node.min; ++i) FRESHET_RETURN_IF_ERROR(emit(child));
    if (node.max == kUnbounded) {
      // L: split(body, exit); body; jump L
      uint32_t loop = split(node.greedy);
      FRESHET_RETURN_IF_ERROR(emit(child));
      add(Op::kJump, loop);
      set_split(loop, node.greedy, loop + 1, here());
      return Status::OK();
    }
    // max - min optional copies, each entered only after the previous one: x{2,4} = xx(x(x)?)?
    std::vector<uint32_t> splits;
    for (uint32_t i = node.min; i < node.max; ++i) {
      splits.push_back(split(node.greedy));
      FRESHET_RETURN_IF_ERROR(emit(child));
    }
    for (uint32_t at : splits) set_split(at, node.greedy, at + 1, here());
    return Status::OK();
  }

  Program& program_;
};

bool starts_anchored(const Node& node) {
  if (node.kind == Node::kAssert) return node.value == kTextStart;
  if ((node.kind == Node::kConcat || node.kind == Node::kGroup) && !node.children.empty()) {
    return starts_anchored(*node.children[0]);
  }
  return false;
}

}  // namespace

}  // namespace regex_detail

using namespace regex_detail;

Result<std::shared_ptr<const Regex>> Regex::compile(std::string_view pattern, size_t* error_offset) {
  auto program = std::make_unique<Program>();
  program->group_names.emplace_back();  // group 0, the whole match
  Parser parser(pattern, *program);
  Result<NodePtr> tree = parser.parse();
  if (!tree.ok()) {
    if (error_offset) *error_offset = parser.error_offset();
    return tree.status();
  }
  program->anchored = starts_anchored(**tree);
  Generator generator(*program);
  program->instructions.push_back({Op::kSave, 0, 0});
  Status emitted = generator.emit(**tree);
  if (!emitted.ok()) {
    if (error_offset) *error_offset = 0;
    return emitted;
  }
  program->instructions.push_back({Op::kSave, 1, 0});
  program->instructions.push_back({Op::kMatch, 0, 0});
  return std::shared_ptr<const Regex>(std::make_shared<Regex>(std::move(program)));
}

}  // namespace freshet
