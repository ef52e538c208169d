// The Pike VM that runs a Regex's program (regex_program.h), and
// replace_all over it.
//
// Threads live in two lists (this position's, the next one's), each a
// sparse set of program counters in priority order with one capture array
// per thread. Adding a thread follows jumps, splits, saves and assertions at
// once (an explicit stack, no recursion), and a counter already in the list
// is not added again: that bounds a position's work by the program's size
// and makes empty loops like (a*)* terminate.
#include "freshet/common/regex.h"
#include "freshet/common/unicode.h"
#include "regex_program.h"

namespace freshet {

using namespace regex_detail;

namespace {

constexpr size_t kNone = std::string_view::npos;

struct ThreadList {
  std::vector<uint32_t> dense;   // counters in priority order
  std::vector<uint32_t> sparse;  // counter -> index in dense
  std::vector<size_t> slots;     // counter -> its thread's captures (slot_count each)

  void reset(size_t program_size, size_t slot_count) {
    dense.clear();
    dense.reserve(program_size);
    sparse.assign(program_size, 0);
    slots.assign(program_size * slot_count, kNone);
  }
  bool contains(uint32_t pc) const { return sparse[pc] < dense.size() && dense[sparse[pc]] == pc; }
  void insert(uint32_t pc) {
    sparse[pc] = static_cast<uint32_t>(dense.size());
    dense.push_back(pc);
  }
};

// The code point before byte `at` (none at the start).
bool word_before(std::string_view text, size_t at) {
  if (at == 0) return false;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  return unicode::is_word(unicode::decode_utf8(text, &start));
}
bool word_after(std::string_view text, size_t at) {
  if (at >= text.size()) return false;
  return unicode::is_word(unicode::decode_utf8(text, &at));
}

bool assertion_holds(uint32_t assertion, std::string_view text, size_t at) {
  switch (assertion) {
    case kTextStart:
      return at == 0;
    case kTextEnd:
      return at == text.size();
    case kLineStart:
      return at == 0 || text[at - 1] == '\n';
    case kLineEnd:
      return at == text.size() || text[at] == '\n';
    case kWordBoundary:
      return word_before(text, at) != word_after(text, at);
    case kNotWordBoundary:
      return word_before(text, at) == word_after(text, at);
    default:
      return false;
  }
}

class Vm {
 public:
  Vm(const Program& program, std::string_view text, uint64_t* steps)
      : program_(program), text_(text), slot_count_(2 * program.group_names.size()), steps_(steps) {
    current_.reset(program.instructions.size(), slot_count_);
    next_.reset(program.instructions.size(), slot_count_);
    working_.assign(slot_count_, kNone);
  }

  bool run(size_t start, bool stop_at_first, std::vector<size_t>* result) {
    bool matched = false;
    for (size_t at = start;;) {
      if (!matched && (at == start || !program_.anchored)) {
        std::fill(working_.begin(), working_.end(), kNone);
        add_thread(current_, 0, at);
      }
      if (current_.dense.empty()) break;
      size_t next_at = at;
      char32_t code = at < text_.size() ? unicode::decode_utf8(text_, &next_at) : 0;
      next_.dense.clear();
      for (uint32_t pc : current_.dense) {
        count_step();
        const Instruction& instruction = program_.instructions[pc];
        const size_t* thread_slots = &current_.slots[pc * slot_count_];
        if (instruction.op == Op::kMatch) {
          matched = true;
          if (result) result->assign(thread_slots, thread_slots + slot_count_);
          if (stop_at_first) return true;
          break;  // lower-priority threads lose to this match
        }
        if (at >= text_.size()) continue;
        bool advances = instruction.op == Op::kAny ||
                        (instruction.op == Op::kClass && class_contains(program_.classes[instruction.arg], code));
        if (advances) {
          working_.assign(thread_slots, thread_slots + slot_count_);
          add_thread(next_, pc + 1, next_at);
        }
      }
      std::swap(current_, next_);
      if (at >= text_.size()) break;
      at = next_at;
    }
    return matched;
  }

 private:
  void count_step() {
    if (steps_) ++*steps_;
  }

  // Adds the thread at `pc` (captures in working_) and everything its
  // empty-width instructions lead to, in priority order.
  void add_thread(ThreadList& list, uint32_t pc, size_t at) {
    stack_.clear();
    stack_.push_back({false, pc, 0});
    while (!stack_.empty()) {
      StackEntry frame = stack_.back();
      stack_.pop_back();
      if (frame.restore) {
        working_[frame.pc_or_slot] = frame.value;
        continue;
      }
      for (uint32_t current = frame.pc_or_slot;;) {
        if (list.contains(current)) break;
        list.insert(current);
        count_step();
        const Instruction& instruction = program_.instructions[current];
        if (instruction.op == Op::kJump) {
          current = instruction.arg;
        } else if (instruction.op == Op::kSplit) {
          stack_.push_back({false, instruction.alternative, 0});
          current = instruction.arg;
        } else if (instruction.op == Op::kSave) {
          stack_.push_back({true, instruction.arg, working_[instruction.arg]});
          working_[instruction.arg] = at;
          current = current + 1;
        } else if (instruction.op == Op::kAssert) {
          if (!assertion_holds(instruction.arg, text_, at)) break;
          current = current + 1;
        } else {
          std::copy(working_.begin(), working_.end(), list.slots.begin() + current * slot_count_);
          break;
        }
      }
    }
  }

  // A pending exploration of a counter, or a capture to restore once the branch that set it is done.
  struct StackEntry {
    bool restore;
    uint32_t pc_or_slot;
    size_t value;
  };

  const Program& program_;
  std::string_view text_;
  size_t slot_count_;
  uint64_t* steps_;
  ThreadList current_, next_;
  std::vector<size_t> working_;
  std::vector<StackEntry> stack_;
};

}  // namespace

Regex::Regex(std::unique_ptr<Program> program) : program_(std::move(program)) {}
Regex::~Regex() = default;

size_t Regex::group_count() const { return program_->group_names.size(); }
size_t Regex::program_size() const { return program_->instructions.size(); }

int Regex::group_index(std::string_view name) const {
  for (size_t i = 1; i < program_->group_names.size(); ++i) {
    if (program_->group_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

bool Regex::run(std::string_view text, size_t start, bool stop_at_first, std::vector<size_t>* slots,
                uint64_t* steps) const {
  Vm vm(*program_, text, steps);
  return vm.run(start, stop_at_first, slots);
}

bool Regex::is_match(std::string_view text, uint64_t* steps) const { return run(text, 0, true, nullptr, steps); }

bool Regex::find(std::string_view text, size_t start, std::vector<size_t>& slots, uint64_t* steps) const {
  return run(text, start, false, &slots, steps);
}

namespace {

bool is_name_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Appends `replacement` with $n / ${name} / $$ expanded, as Rust's Captures::expand.
void expand(const Regex& regex, std::string_view text, const std::vector<size_t>& slots, std::string_view replacement,
            std::string& out) {
  for (size_t i = 0; i < replacement.size();) {
    if (replacement[i] != '$' || i + 1 >= replacement.size()) {
      out += replacement[i++];
      continue;
    }
    if (replacement[i + 1] == '$') {
      out += '$';
      i += 2;
      continue;
    }
    std::string_view name;
    size_t end;
    if (replacement[i + 1] == '{') {
      size_t close = replacement.find('}', i + 2);
      if (close == std::string_view::npos || close == i + 2) {
        out += replacement[i++];
        continue;
      }
      name = replacement.substr(i + 2, close - i - 2);
      end = close + 1;
    } else {
      end = i + 1;
      while (end < replacement.size() && is_name_char(replacement[end])) ++end;
      if (end == i + 1) {
        out += replacement[i++];
        continue;
      }
      name = replacement.substr(i + 1, end - i - 1);
    }
    i = end;
    long group = 0;
    bool numeric = name.find_first_not_of("0123456789") == std::string_view::npos;
    if (numeric) {
      for (char digit : name) group = group > 100000 ? group : group * 10 + (digit - '0');  // saturates: no such group
    } else {
      group = regex.group_index(name);
    }
    if (group < 0 || static_cast<size_t>(group) >= regex.group_count()) continue;  // no such group: empty
    size_t begin = slots[2 * group], finish = slots[2 * group + 1];
    if (begin != kNone && finish != kNone) out.append(text.substr(begin, finish - begin));
  }
}

}  // namespace

void Regex::replace_all(std::string_view text, std::string_view replacement, std::string& out) const {
  std::vector<size_t> slots;
  size_t copied = 0, search = 0;
  size_t last_match_end = kNone;
  while (search <= text.size() && find(text, search, slots)) {
    size_t begin = slots[0], end = slots[1];
    if (begin == end && end == last_match_end) {
      // An empty match right after the previous match is skipped (as Rust does).
      if (search >= text.size()) break;
      unicode::decode_utf8(text, &search);
      continue;
    }
    out.append(text.substr(copied, begin - copied));
    expand(*this, text, slots, replacement, out);
    copied = end;
    last_match_end = end;
    if (begin == end) {
      if (end >= text.size()) break;
      search = end;
      unicode::decode_utf8(text, &search);
      out.append(text.substr(copied, search - copied));
      copied = search;
    } else {
      search = end;
    }
  }
  out.append(text.substr(copied));
}

}  // namespace freshet
