// WorkMeter: a bound on the work of one run of a circuit, for a circuit that
// runs on behalf of one request (an ad-hoc query) and must not take the
// whole isolate's memory or time with it.
//
// ## Design
// Work is counted where operators make their output: every entry added to a
// BatchBuilder (its rows and their bytes) and every pair a join matches (a
// row of no bytes: a join fused with an aggregate builds no entry for it)
// while a meter is active on the thread (ScopedWorkMeter). Past the limit
// the builders keep nothing more (memory stays bounded), the joins stop
// walking (time stays bounded), and
// the caller, which sees exceeded(), throws the incomplete result away and
// answers LIMIT_EXCEEDED. A pipeline's steps run with a meter only under a
// memory budget (step_memory.h): otherwise the cost is one null check per entry.
#pragma once

#include <cstdint>

namespace freshet {

class WorkMeter {
 public:
  WorkMeter(uint64_t max_rows, uint64_t max_bytes, uint64_t row_copies = 1, uint64_t entry_overhead = 0)
      : max_rows_(max_rows), max_bytes_(max_bytes), row_copies_(row_copies), entry_overhead_(entry_overhead) {}

  //! Counts one entry of `bytes`; false once a limit is passed (and from then on).
  bool charge(uint64_t bytes) {
    ++rows_;
    bytes_ += bytes;
    return !exceeded();
  }
  //! Counts one entry a builder keeps, of `bytes` of rows: for a query's
  //! meter, whose bound is on the rows' bytes, those; for a step's, what the
  //! heap really holds for it (step_memory.h): `row_copies` copies of the
  //! rows and `entry_overhead` bytes of bookkeeping.
  bool charge_entry(uint64_t bytes) { return charge(bytes * row_copies_ + entry_overhead_); }
  //! Counts bytes of state that grew without a row being made: a trace's
  //! merges in progress (trace.cpp). False once a limit is passed.
  bool charge_bytes(uint64_t bytes) {
    bytes_ += bytes;
    return !exceeded();
  }
  bool exceeded() const { return rows_ > max_rows_ || bytes_ > max_bytes_; }
  //! Back to an earlier count: what was charged since is dropped (a failed operator's output).
  void rewind(uint64_t rows, uint64_t bytes) {
    rows_ = rows;
    bytes_ = bytes;
  }
  uint64_t rows() const { return rows_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t max_rows() const { return max_rows_; }
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  uint64_t max_rows_, max_bytes_, row_copies_, entry_overhead_;
  uint64_t rows_ = 0, bytes_ = 0;
};

namespace detail {
// One engine runs on one thread; thread_local keeps native tests that run
// pipelines on several threads apart. Inline: BatchBuilder::add reads it per entry.
inline thread_local WorkMeter* active_work_meter = nullptr;
}  // namespace detail

//! The meter active on this thread, or null (a pipeline's own steps).
inline WorkMeter* active_work_meter() { return detail::active_work_meter; }

//! Makes `meter` the active one for its lifetime (and restores the previous one).
class ScopedWorkMeter {
 public:
  explicit ScopedWorkMeter(WorkMeter* meter) : previous_(detail::active_work_meter) { detail::active_work_meter = meter; }
  ~ScopedWorkMeter() { detail::active_work_meter = previous_; }
  ScopedWorkMeter(const ScopedWorkMeter&) = delete;
  ScopedWorkMeter& operator=(const ScopedWorkMeter&) = delete;

 private:
  WorkMeter* previous_;
};

}  // namespace freshet
