#include "freshet/operators/clock.h"

#include "freshet/zset/batch_builder.h"

namespace freshet {
namespace {

const SchemaPtr& clock_schema() {
  static const SchemaPtr schema = make_schema({{"now", SqlType::timestamp(false)}});
  return schema;
}

}  // namespace

void ClockOperator::set_time(int64_t micros) {
  if (started_ && micros < now_) return;  // never backwards
  now_ = micros;
  started_ = true;
}

std::optional<int64_t> ClockOperator::next_change() const {
  if (!started_) return std::nullopt;
  if (continuous_) return now_ + 1;
  std::optional<int64_t> earliest;
  for (const NextChange& schedule : schedules_) {
    std::optional<int64_t> next = schedule();
    if (next && (!earliest || *next < *earliest)) earliest = next;
  }
  return earliest;
}

Status ClockOperator::evaluate() {
  if (!started_ || (emitted_ && emitted_time_ == now_)) {
    output_->batch = Batch::empty_batch();
    return Status::OK();
  }
  BatchBuilder changes;
  RowBuilder row(*clock_schema());
  if (emitted_) {
    row.set_int(0, emitted_time_);
    changes.add_row(row.finish(), -1);
  }
  row.set_int(0, now_);
  changes.add_row(row.finish(), 1);
  output_->batch = changes.finish();
  emitted_ = true;
  emitted_time_ = now_;
  return Status::OK();
}

void ClockOperator::save_state(ByteWriter& out) const {
  out.boolean(emitted_);
  out.i64(emitted_time_);
}

void ClockOperator::restore_state(ByteReader& in) {
  emitted_ = in.boolean();
  emitted_time_ = in.i64();
  // The restored pipeline goes on from the checkpoint's time, never before it.
  started_ = emitted_;
  now_ = emitted_time_;
}

ClockOperator* add_clock(Circuit& circuit) {
  Stream output = circuit.add_stream(clock_schema(), empty_schema());
  return circuit.add_operator(std::make_unique<ClockOperator>(&circuit.slot(output), output), {}, output);
}

}  // namespace freshet
