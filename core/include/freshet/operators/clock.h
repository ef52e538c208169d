// Clock: the circuit's time, an input the host advances at each step.
//
// NOW() in SQL is the time at which the current step was triggered, constant
// within a step. The host (Pipeline::set_clock, the JS Pipeline's clock)
// sets it before a step; the clock never goes backwards: a time behind the
// current one is held at the current one, so a host clock that lags a
// checkpoint's does not undo it.
//
// Its stream is a Z-set of one row, the step's time (one TIMESTAMP NOT NULL
// column): when the time moves, the step's delta retracts the old row and
// inserts the new one, so operators that read NOW() outside a temporal
// filter (a join with this stream) redo their rows at each tick.
//
//   step     | 0    | 1    | 2    | 3
//   set_time | 10   | 10   | 25   | 20 (held at 25)
//   now()    | 10   | 10   | 25   | 25
//   output   | +10  |      | -10 +25 |
//
// Temporal filters register their next change (next_change()), so the host
// can step when a row is due to enter or leave a view without input.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "freshet/circuit/circuit.h"

namespace freshet {

class ClockOperator : public Operator {
 public:
  explicit ClockOperator(StreamSlot* output, Stream stream) : output_(output), stream_(stream) {}
  const char* name() const override { return "clock"; }

  //! Sets the time (microseconds since 1970-01-01 UTC) of the following
  //! steps; a time behind the current one is held at the current one.
  void set_time(int64_t micros);
  //! Whether a time was ever set (before that NOW() has no value: temporal
  //! filters pass nothing and the clock stream is empty).
  bool started() const { return started_; }
  //! The time of the current step (valid when started()).
  int64_t now() const { return now_; }
  //! The stream of the step's time (one row).
  Stream stream() const { return stream_; }

  //! A temporal filter's next change: the earliest time after now() at
  //! which a row enters or leaves it, if any is pending.
  using NextChange = std::function<std::optional<int64_t>()>;
  void add_schedule(NextChange next_change) { schedules_.push_back(std::move(next_change)); }
  //! Some view reads NOW() outside a temporal filter: it changes at every tick.
  void set_continuous() { continuous_ = true; }
  bool continuous() const { return continuous_; }
  //! The earliest time after now() at which some view changes with no input:
  //! now() + 1 for a continuous clock, else the earliest temporal filter
  //! change; none when nothing is pending or the clock has not started.
  std::optional<int64_t> next_change() const;

  Status evaluate() override;
  void save_state(ByteWriter& out) const override;
  void restore_state(ByteReader& in) override;

 private:
  StreamSlot* output_;
  Stream stream_;
  std::vector<NextChange> schedules_;
  bool continuous_ = false;
  bool started_ = false;
  int64_t now_ = 0;
  // State: the time the stream's integral holds (the row last emitted).
  bool emitted_ = false;
  int64_t emitted_time_ = 0;
};

//! Adds a clock to `circuit` (a source: evaluate it before its readers).
ClockOperator* add_clock(Circuit& circuit);

}  // namespace freshet
