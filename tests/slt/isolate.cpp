// fork + pipe + poll with a deadline + SIGKILL. The child leaves with
// _exit so it runs no destructors of the parent's objects twice.
#include "isolate.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace freshet::slt {

void write_line(int fd, const std::string& line) {
  std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += size_t(n);
  }
}

ChildOutcome run_in_child(const std::function<void(int fd)>& work, double timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  ChildOutcome outcome;
  int fds[2];
  if (::pipe(fds) != 0) {
    outcome.status = ChildOutcome::Status::kCrashed;
    outcome.detail = "pipe failed";
    return outcome;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    work(fds[1]);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  auto deadline = start + std::chrono::duration<double>(timeout_seconds);
  bool timed_out = false;
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd poll_fd{fds[0], POLLIN, 0};
    int ready = ::poll(&poll_fd, 1, int(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline is checked at the top
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of file: the child is done (or died)
    outcome.output.append(buffer, size_t(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (timed_out) {
    outcome.status = ChildOutcome::Status::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    outcome.status = ChildOutcome::Status::kCrashed;
    outcome.detail = std::string("signal ") + ::strsignal(WTERMSIG(status));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    outcome.status = ChildOutcome::Status::kCrashed;
    outcome.detail = "exit code " + std::to_string(WEXITSTATUS(status));
  }
  return outcome;
}

}  // namespace freshet::slt
