#include "freshet/operators/temporal_filter.h"

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

// 9999-12-31 23:59:59.999999, the last TIMESTAMP: no search for a change looks later.
constexpr int64_t kLastTime = 253402300799999999;

const SchemaPtr& key_schema() {
  static const SchemaPtr schema = make_schema({{"key", SqlType::bigint(false)}});
  return schema;
}

// The part of closed range `a` below closed range `b`, and the part above it.
TemporalWindow part_below(TemporalWindow a, TemporalWindow b) {
  if (b.low == INT64_MIN) return {1, 0};
  return {a.low, std::min(a.high, b.low - 1)};
}
TemporalWindow part_above(TemporalWindow a, TemporalWindow b) {
  if (b.high == INT64_MAX) return {1, 0};
  return {std::max(a.low, b.high + 1), a.high};
}

class TemporalFilterOperator : public Operator {
 public:
  TemporalFilterOperator(const StreamSlot* input, StreamSlot* output, ClockOperator& clock, TemporalBounds bounds,
                         TemporalFilterCounters* counters)
      : input_(input), output_(output), clock_(clock), bounds_(std::move(bounds)), counters_(counters) {}
  const char* name() const override { return "temporal filter"; }

  Status evaluate() override {
    TemporalWindow window{1, 0};  // no time yet: nothing passes
    if (clock_.started()) {
      Result<TemporalWindow> now = bounds_.window(clock_.now());
      if (!now.ok()) return now.status();
      window = *now;
    }
    BatchBuilder changes;
    // Rows of the integral the window's move crosses: entered, then left.
    if (!window.empty()) {
      if (window_.empty()) {
        read_range(window, 1, changes);
      } else {
        read_range(part_below(window, window_), 1, changes);
        read_range(part_above(window, window_), 1, changes);
      }
    }
    if (!window_.empty() && !(counters_ && counters_->fault_keep_leaving_rows)) {
      if (window.empty()) {
        read_range(window_, -1, changes);
      } else {
        dead_entries_ += read_range(part_below(window_, window), -1, changes);
        read_range(part_above(window_, window), -1, changes);
      }
    }
    // The input's rows, filtered at the new window and added to the integral.
    BatchBuilder keyed;
    RowBuilder key(*key_schema());
    const Schema& row_schema = *input_->key_schema;
    for (BatchCursor c(*input_->batch); c.valid(); c.next()) {
      std::optional<int64_t> row_key = bounds_.key(RowReader(row_schema, c.key()));
      if (!row_key) continue;  // NULL never passes, so it need not be kept
      if (*row_key >= window.low && *row_key <= window.high) changes.add_row(c.key(), c.weight());
      // Below a low end that only rises, a row never passes again: not kept.
      if (bounds_.monotone && !window.empty() && *row_key < window.low) continue;
      key.set_int(0, *row_key);
      keyed.add(key.finish(), c.key(), c.weight());
    }
    if (!keyed.empty()) integral_.insert(keyed.finish());
    window_ = window;
    // Rows that left below the low end (or that the window jumped over,
    // which no count sees: hence also once the trace doubled) are dropped.
    const size_t entries = integral_.entry_count();
    if (bounds_.monotone && !window_.empty() && entries > 64 &&
        (dead_entries_ * 2 > entries || entries > 2 * entries_after_drop_)) {
      drop_passed_rows();
    }
    next_change_.reset();
    output_->batch = changes.finish();
    return Status::OK();
  }

  //! The earliest time after the clock's at which a row enters or leaves.
  std::optional<int64_t> next_change() {
    if (!bounds_.monotone || !clock_.started() || integral_.empty()) return std::nullopt;
    if (!next_change_) next_change_ = find_next_change();
    return *next_change_;
  }

  size_t state_bytes() const override { return integral_.memory_bytes(); }
  size_t state_rows() const override { return integral_.entry_count(); }
  void save_state(ByteWriter& out) const override {
    write_trace(out, integral_);
    out.i64(window_.low);
    out.i64(window_.high);
  }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(key_schema()), rows_of(input_->key_schema), &integral_);
    window_.low = in.i64();
    window_.high = in.i64();
    next_change_.reset();
    entries_after_drop_ = integral_.entry_count();
  }

 private:
  static std::string encode(int64_t value) {
    RowBuilder key(*key_schema());
    key.set_int(0, value);
    return key.finish().to_bytes();
  }

  // Rows below the window's low end never pass again when it only rises:
  // the trace is rebuilt without them once they are half of it or it has
  // doubled since the last rebuild (O(1) amortised per row), so the state
  // holds the window and what is due to enter, not the history.
  void drop_passed_rows() {
    BatchPtr all = integral_.consolidated();
    const std::string low = encode(window_.low);
    size_t begin = all->lower_bound(RowRef(low));
    SortedBatchBuilder kept;
    for (size_t k = begin; k < all->key_count(); ++k) {
      for (size_t v = all->values_begin(k); v < all->values_end(k); ++v)
        kept.push(all->key(k), all->value(v), all->weight(v));
    }
    integral_.clear();
    BatchPtr rest = kept.finish();
    if (!rest->empty()) integral_.insert(rest);
    dead_entries_ = 0;
    entries_after_drop_ = integral_.entry_count();
    if (counters_) ++counters_->passed_rows_dropped;
  }

  // Adds the rows of the integral with keys in `range`, times `sign`; returns how many entries it read.
  size_t read_range(TemporalWindow range, Weight sign, BatchBuilder& out) {
    if (range.empty()) return 0;
    size_t read = 0;
    const std::string low = encode(range.low);
    const std::string above = range.high == INT64_MAX ? std::string() : encode(range.high + 1);
    for (const BatchPtr& batch : integral_.batches()) {
      size_t begin = batch->lower_bound(RowRef(low));
      size_t end = above.empty() ? batch->key_count() : batch->lower_bound(RowRef(above), begin);
      for (size_t k = begin; k < end; ++k) {
        for (size_t v = batch->values_begin(k); v < batch->values_end(k); ++v) {
          out.add_row(batch->value(v), sign * batch->weight(v));
          ++read;
        }
      }
    }
    if (counters_) counters_->entries_visited += read;
    return read;
  }

  // The lowest key >= `from` whose rows' weights do not all cancel out.
  std::optional<int64_t> first_live_key(int64_t from) const {
    for (;;) {
      const std::string encoded = encode(from);
      std::optional<int64_t> lowest;
      for (const BatchPtr& batch : integral_.batches()) {
        size_t k = batch->lower_bound(RowRef(encoded));
        if (k == batch->key_count()) continue;
        int64_t key = RowReader(*key_schema(), batch->key(k)).get_int(0);
        if (!lowest || key < *lowest) lowest = key;
      }
      if (!lowest) return std::nullopt;
      if (integral_.seek(RowRef(encode(*lowest))).valid()) return lowest;
      if (*lowest == INT64_MAX) return std::nullopt;
      from = *lowest + 1;
    }
  }

  // The first time in (now, kLastTime] at which `crossed` holds (it is
  // monotone: false, then true), if any. `guess` is the answer when the
  // bound is the clock plus a constant (two evaluations); a binary search
  // over time finds the others (a month interval, a CAST to DATE).
  template <typename Crossed>
  std::optional<int64_t> first_time(Crossed crossed, int64_t guess) const {
    int64_t before = clock_.now(), after = kLastTime;
    if (before >= after) return std::nullopt;
    if (guess > before && guess <= after) {
      Result<bool> at_guess = crossed(guess);
      Result<bool> just_before = guess - 1 == before ? Result<bool>(false) : crossed(guess - 1);
      if (at_guess.ok() && just_before.ok() && *at_guess && !*just_before) return guess;
    }
    Result<bool> at_end = crossed(after);
    if (!at_end.ok() || !*at_end) return std::nullopt;
    while (after - before > 1) {
      int64_t middle = before + (after - before) / 2;
      Result<bool> at_middle = crossed(middle);
      if (!at_middle.ok()) return std::nullopt;
      (*at_middle ? after : before) = middle;
    }
    return after;
  }

  std::optional<int64_t> find_next_change() const {
    std::optional<int64_t> earliest;
    auto consider = [&](std::optional<int64_t> time) {
      if (time && (!earliest || *time < *earliest)) earliest = time;
    };
    const TemporalWindow window = window_;
    const int64_t now = clock_.now();
    // Saturating: the guesses only need to be right for bounds near the keys.
    auto minus = [](int64_t a, int64_t b) {
      __int128 d = static_cast<__int128>(a) - b;
      return d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN : static_cast<int64_t>(d);
    };
    // The lowest row in the window leaves when the low bound passes it.
    if (std::optional<int64_t> lowest = first_live_key(window.low); lowest && window.low != INT64_MIN) {
      consider(first_time(
          [&](int64_t t) -> Result<bool> {
            Result<TemporalWindow> w = bounds_.window(t);
            if (!w.ok()) return w.status();
            return w->low > *lowest;
          },
          minus(*lowest, minus(window.low, now - 1))));
    }
    // The lowest row above the window (and not below it: its low end only
    // rises) enters when the high bound reaches it.
    if (window.high != INT64_MAX) {
      if (std::optional<int64_t> next = first_live_key(std::max(window.high + 1, window.low))) {
        consider(first_time(
            [&](int64_t t) -> Result<bool> {
              Result<TemporalWindow> w = bounds_.window(t);
              if (!w.ok()) return w.status();
              return w->high >= *next;
            },
            minus(*next, minus(window.high, now))));
      }
    }
    return earliest;
  }

  const StreamSlot* input_;
  StreamSlot* output_;
  ClockOperator& clock_;
  TemporalBounds bounds_;
  TemporalFilterCounters* counters_;
  // State: the integral of the input keyed by each row's key, and the
  // window the output was last filtered at.
  Trace integral_;
  TemporalWindow window_{1, 0};
  size_t dead_entries_ = 0;        // entries that left below the low end since the last drop_passed_rows
  size_t entries_after_drop_ = 0;  // the trace's entries after it
  std::optional<std::optional<int64_t>> next_change_;  // cached until the next step
};

}  // namespace

Stream temporal_filter(Stream input, ClockOperator& clock, TemporalBounds bounds, TemporalFilterCounters* counters) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.key_schema_ptr(), empty_schema());
  auto op = std::make_unique<TemporalFilterOperator>(&circuit.slot(input), &circuit.slot(output), clock,
                                                     std::move(bounds), counters);
  TemporalFilterOperator* raw = circuit.add_operator(std::move(op), {input, clock.stream()}, output);
  clock.add_schedule([raw] { return raw->next_change(); });
  return output;
}

}  // namespace freshet
