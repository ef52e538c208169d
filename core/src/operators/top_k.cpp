#include "freshet/operators/top_k.h"

#include <algorithm>
#include <string>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

constexpr uint64_t kMaxPositions = uint64_t{1} << 62;  // more positions than any partition's total weight

class TopKOperator : public Operator {
 public:
  TopKOperator(const StreamSlot* input, StreamSlot* output, std::vector<SortColumn> order_by, uint64_t k,
               uint64_t offset)
      : input_(input),
        output_(output),
        order_by_(std::move(order_by)),
        skipped_(static_cast<Weight>(std::min<uint64_t>(offset, kMaxPositions))),
        positions_(
            static_cast<Weight>(std::min<uint64_t>(std::min<uint64_t>(k, kMaxPositions) + skipped_, kMaxPositions))) {}
  const char* name() const override { return "top_k"; }
  std::string describe() const override {
    std::string text = "limit " + std::to_string(positions_ - skipped_);
    return skipped_ > 0 ? text + " offset " + std::to_string(skipped_) : text;
  }

  Status evaluate() override {
    ++stats_.steps;
    if (input_->batch->empty() || positions_ <= skipped_) {
      output_->batch = Batch::empty_batch();
      return Status::OK();
    }
    BatchPtr delta = to_sorted_rows(*input_->batch);
    // `changes` copies the rows it is given, so the old lists survive the
    // insert (which may merge away the batches they were read from).
    BatchBuilder changes;
    for (size_t p = 0; p < delta->key_count(); ++p) add_top_k(delta->key(p), -1, changes);
    sorted_rows_.insert(delta);
    for (size_t p = 0; p < delta->key_count(); ++p) add_top_k(delta->key(p), +1, changes);
    stats_.partitions_touched += delta->key_count();
    output_->batch = changes.finish();
    return Status::OK();
  }

  size_t state_bytes() const override { return sorted_rows_.memory_bytes(); }
  size_t state_rows() const override { return sorted_rows_.entry_count(); }
  void save_state(ByteWriter& out) const override { write_trace(out, sorted_rows_); }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(input_->key_schema), sorted_rows_of(input_->value_schema), &sorted_rows_);
  }
  const TopKStats& stats() const { return stats_; }

 private:
  //! The input delta re-encoded as (partition, sorted row) entries.
  BatchPtr to_sorted_rows(const Batch& in) {
    BatchBuilder builder;
    for (BatchCursor c(in); c.valid(); c.next()) {
      encode_sorted_row(RowReader(*input_->value_schema, c.value()), order_by_, &scratch_);
      builder.add(c.key(), RowRef(scratch_), c.weight());
    }
    return builder.finish();
  }

  //! Adds the partition's positions [offset, offset + k), times `sign`, to `out`.
  void add_top_k(RowRef partition, Weight sign, BatchBuilder& out) {
    Weight positions_left = positions_;
    Weight skip_left = skipped_;
    for (Trace::KeyCursor c = sorted_rows_.seek(partition); c.valid() && positions_left > 0; c.next()) {
      ++stats_.entries_visited;
      if (c.weight() <= 0) continue;
      Weight taken = std::min(c.weight(), positions_left);
      positions_left -= taken;
      Weight skipped = std::min(taken, skip_left);
      skip_left -= skipped;
      if (taken > skipped) out.add_row(sorted_row_payload(c.value()), sign * (taken - skipped));
    }
  }

  const StreamSlot* input_;
  StreamSlot* output_;
  const std::vector<SortColumn> order_by_;
  const Weight skipped_;    // the offset: leading positions walked but not output
  const Weight positions_;  // offset + k, clamped to what a Weight holds (a huge k means "every row")
  Trace sorted_rows_;  // partition -> encode_sorted_row(row): the integral of the input
  std::string scratch_;
  TopKStats stats_;
};

}  // namespace

Stream top_k(Stream input, std::vector<SortColumn> order_by, uint64_t k, uint64_t offset, const TopKStats** stats) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.value_schema_ptr(), empty_schema());
  TopKOperator* op = circuit.add_operator(
      std::make_unique<TopKOperator>(&circuit.slot(input), &circuit.slot(output), std::move(order_by), k, offset), {input}, output);
  if (stats) *stats = &op->stats();
  return output;
}

Stream top_k(Stream input, std::vector<SortColumn> order_by, uint64_t k, const TopKStats** stats) {
  return top_k(input, std::move(order_by), k, 0, stats);
}

Stream top_k(Stream input, std::vector<SortColumn> order_by, uint64_t k) {
  return top_k(input, std::move(order_by), k, 0, nullptr);
}

}  // namespace freshet
