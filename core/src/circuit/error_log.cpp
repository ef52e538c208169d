#include "freshet/circuit/error_log.h"

#include <utility>

namespace freshet {

void ErrorLog::add(ErrorRecord record) {
  if (capacity_ == 0) {
    ++dropped_;
    return;
  }
  if (records_.size() >= capacity_) {
    records_.pop_front();
    ++dropped_;
  }
  records_.push_back(std::move(record));
}

std::vector<ErrorRecord> ErrorLog::take(uint64_t* dropped) {
  std::vector<ErrorRecord> taken(std::make_move_iterator(records_.begin()), std::make_move_iterator(records_.end()));
  records_.clear();
  *dropped = std::exchange(dropped_, 0);
  return taken;
}

}  // namespace freshet
