#include "freshet/circuit/step_memory.h"

#include <cstdio>
#include <limits>
#include <string>

namespace freshet {

StepMemory::StepMemory(size_t budget, size_t held_bytes)
    : budget_(budget),
      held_(held_bytes),
      meter_(std::numeric_limits<uint64_t>::max(), budget > held_bytes ? budget - held_bytes : 0, kRowCopies,
             kEntryOverhead) {
  if (budget_ > 0) active_.emplace(&meter_);
}

Status StepMemory::check() const {
  if (budget_ == 0 || !meter_.exceeded()) return Status::OK();
  // The builders stop at the limit, so what the step would have built in all is not known: say where it stood.
  return Status(ErrorCode::kOutOfMemory, "the step would pass the pipeline's memory budget of " + format_bytes(budget_) +
                                             " (the state holds " + format_bytes(held_) + "; the step had built " +
                                             format_bytes(meter_.bytes()) + " when it was stopped)");
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 3) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + " bytes";
  char text[32];
  // One decimal, dropped when it is 0 ("64 MiB", not "64.0 MiB").
  std::snprintf(text, sizeof text, "%.1f", value);
  std::string out(text);
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out + " " + units[unit];
}

}  // namespace freshet
