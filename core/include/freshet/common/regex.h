// A linear-time regular expression engine for SQL's RLIKE and REGEXP_REPLACE:
// Feldera matches with Rust's regex crate, so this accepts that syntax
// (classes, [^...], ranges, [[:alpha:]], \d \w \s (Unicode) and their
// negations, \b \B \A \z ^ $, groups, (?:...), (?P<name>...), (?<name>...),
// alternation, * + ? {m} {m,} {m,n} and their lazy forms, flags i m s U in
// (?flags) and (?flags:...)), and refuses what Rust refuses (look-around,
// backreferences) or what is not implemented here (\p{...} classes, class set
// operations, nested classes, verbose mode) with a message naming it.
//
// ## Design
// The pattern compiles to a program of a Thompson NFA; matching runs it as a
// Pike VM: all threads advance together over the text, one code point at a
// time, and a thread that reaches an instruction already visited at this
// position is dropped. Each position costs at most the program's size, so a
// match costs O(|text| x |program|) whatever the pattern (`(a*)*b` included),
// with leftmost-first (Perl/Rust) priorities and capture groups.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/common/status.h"

namespace freshet {

namespace regex_detail {
struct Program;
}

class Regex {
 public:
  //! Compiles `pattern`; on error the message says why, and *error_offset
  //! (when given) receives the pattern's byte offset where it went wrong.
  static Result<std::shared_ptr<const Regex>> compile(std::string_view pattern, size_t* error_offset = nullptr);

  //! Whether the pattern matches anywhere in `text`. `steps` (when given)
  //! is increased by the VM's work: thread steps, bounded by
  //! (|text| + 1) x 2 x program_size().
  bool is_match(std::string_view text, uint64_t* steps = nullptr) const;
  //! The leftmost-first match starting at or after byte `start`: slots[2g],
  //! slots[2g+1] are group g's byte offsets (npos when the group did not take
  //! part). False when there is none.
  bool find(std::string_view text, size_t start, std::vector<size_t>& slots, uint64_t* steps = nullptr) const;
  //! Appends `text` with every non-overlapping match replaced by
  //! `replacement`, in which $n, ${n}, $name and ${name} stand for a group's
  //! text and $$ for '$' (Rust's Regex::replace_all).
  void replace_all(std::string_view text, std::string_view replacement, std::string& out) const;

  //! Capture groups including group 0 (the whole match).
  size_t group_count() const;
  //! The number of the group called `name`, or -1.
  int group_index(std::string_view name) const;
  size_t program_size() const;

  explicit Regex(std::unique_ptr<regex_detail::Program> program);
  ~Regex();

 private:
  bool run(std::string_view text, size_t start, bool stop_at_first, std::vector<size_t>* slots, uint64_t* steps) const;

  std::unique_ptr<regex_detail::Program> program_;
};

}  // namespace freshet
