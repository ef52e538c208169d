//! Running part of a file in a child process (fork), so that a step that
//! never ends or a crash costs that part only: the child writes lines of
//! text to a pipe, the parent reads them until the child exits or a deadline
//! passes (then it kills the child). POSIX only: the runner is native only.
#pragma once

#include <functional>
#include <string>

namespace freshet::slt {

struct ChildOutcome {
  enum class Status : uint8_t { kExited, kCrashed, kTimedOut };
  Status status = Status::kExited;
  std::string output;  //!< everything the child wrote, even when it crashed or timed out
  std::string detail;  //!< the signal or exit code when it crashed
  double seconds = 0;
};

//! Runs `work` in a child; `work` writes its results with write_line(fd, ...).
ChildOutcome run_in_child(const std::function<void(int fd)>& work, double timeout_seconds);

//! Writes `line` and a newline to `fd` (a child's pipe), all of it.
void write_line(int fd, const std::string& line);

}  // namespace freshet::slt
