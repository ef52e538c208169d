#include "freshet/operators/top_k.h"

#include <algorithm>
#include <optional>
#include <string>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"
#include "partition_cache.h"
#include "top_k_positions.h"

namespace freshet {
namespace {

using top_k_detail::FirstPositions;

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
    recomputed_.clear();
    for (size_t p = 0; p < delta->key_count(); ++p) {
      RowRef partition = delta->key(p);
      const FirstPositions* old = cache_.find(partition);
      std::optional<FirstPositions> read;
      if (!old) old = &read.emplace(first_positions(partition));
      // The delta's values are sorted: its first is the smallest.
      if (old->full() && compare_rows(delta->value(delta->values_begin(p)), old->last()) > 0) {
        ++stats_.partitions_unchanged;
        if (read) keep(partition, std::move(*read));
        continue;
      }
      FirstPositions now(positions_, skipped_);
      if (old->merged(*delta, delta->values_begin(p), delta->values_end(p), &now)) {
        ++stats_.partitions_merged;
        FirstPositions::add_difference(*old, now, changes);
        keep(partition, std::move(now));
        continue;
      }
      old->add_to(-1, changes);
      recomputed_.push_back(p);
    }
    sorted_rows_.insert(delta);
    for (size_t p : recomputed_) {
      FirstPositions now = first_positions(delta->key(p));
      now.add_to(+1, changes);
      keep(delta->key(p), std::move(now));
    }
    stats_.partitions_touched += delta->key_count();
    output_->batch = changes.finish();
    return Status::OK();
  }

  size_t state_bytes() const override { return sorted_rows_.memory_bytes() + cache_.bytes(); }
  size_t state_rows() const override { return sorted_rows_.entry_count(); }
  void save_state(ByteWriter& out) const override { write_trace(out, sorted_rows_); }
  void restore_state(ByteReader& in) override {
    cache_.clear();
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

  //! A partition's first positions as a walk of the trace reads them.
  FirstPositions first_positions(RowRef partition) {
    FirstPositions read(positions_, skipped_);
    for (Trace::KeyCursor c = sorted_rows_.seek(partition); c.valid(); c.next()) {
      ++stats_.entries_visited;
      if (!read.add(c.value(), c.weight())) break;
    }
    return read;
  }

  void keep(RowRef partition, FirstPositions positions) {
    const size_t bytes = positions.heap_bytes();
    cache_.put(partition, std::move(positions), bytes);
  }

  const StreamSlot* input_;
  StreamSlot* output_;
  const std::vector<SortColumn> order_by_;
  const Weight skipped_;    // the offset: leading positions walked but not output
  const Weight positions_;  // offset + k, clamped to what a Weight holds (a huge k means "every row")
  Trace sorted_rows_;  // partition -> encode_sorted_row(row): the integral of the input
  // Partitions' first positions between steps: a megabyte holds a few
  // thousand lists of ten rows, and a global top-k needs one.
  rank_limit_detail::PartitionCache<FirstPositions> cache_{size_t{1} << 20};
  std::vector<size_t> recomputed_;  // partitions of a step's delta whose first positions may move
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
