#include "freshet/operators/lateness_filter.h"

#include <limits>

#include "freshet/format/json_output.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {

void Watermark::start_step() { cutoff_ = watermark(); }

std::optional<int64_t> Watermark::watermark() const {
  if (!max_seen_) return std::nullopt;
  int64_t result;
  if (__builtin_sub_overflow(*max_seen_, lateness_, &result)) return std::numeric_limits<int64_t>::min();
  return result;
}

bool Watermark::late(const RowReader& row) const {
  return cutoff_ && !row.is_null(column_) && row.get_int(column_) < *cutoff_;
}

void Watermark::observe(const RowReader& row) {
  if (row.is_null(column_)) return;
  int64_t time = row.get_int(column_);
  if (!max_seen_ || time > *max_seen_) max_seen_ = time;
}

void Watermark::drop_late(const RowReader& row, int64_t weight) {
  count_late(static_cast<uint64_t>(weight < 0 ? -weight : weight));
  if (!circuit_) return;
  const std::string column = row.schema().column(column_).name;
  std::string metadata = "{\"kind\":\"late_record\",\"step\":" + std::to_string(circuit_->step_count()) +
                         ",\"column\":";
  format::append_json_string(column, &metadata);
  if (cutoff_) metadata += ",\"watermark\":" + std::to_string(*cutoff_);
  metadata += ",\"weight\":" + std::to_string(weight) + ",\"row\":";
  format::append_json_row(row, &metadata);
  metadata += '}';
  circuit_->error_log().add({table_, "late record dropped: its '" + column + "' is below the watermark of LATENESS",
                             std::move(metadata)});
}

void Watermark::save(ByteWriter& out) const {
  out.boolean(max_seen_.has_value());
  if (max_seen_) out.signed_varint(*max_seen_);
  out.varint(late_records_);
}

void Watermark::restore(ByteReader& in) {
  max_seen_.reset();
  if (in.boolean()) max_seen_ = in.signed_varint();
  late_records_ = in.varint();
  cutoff_.reset();
}

namespace {

//! Passes the updates that are not late; stateful only in its watermark.
class LatenessFilterOperator : public Operator {
 public:
  LatenessFilterOperator(const StreamSlot* input, StreamSlot* output, size_t column, int64_t lateness)
      : input_(input), output_(output), watermark_(column, lateness) {}
  const char* name() const override { return "lateness filter"; }
  const Watermark& watermark() const { return watermark_; }
  Watermark& watermark() { return watermark_; }

  Status evaluate() override {
    watermark_.start_step();
    const Batch& batch = *input_->batch;
    // Nothing late (the usual case): the batch goes through as it is.
    bool any_late = false;
    for (BatchCursor c(batch); c.valid(); c.next()) {
      RowReader row(*input_->key_schema, c.key());
      if (watermark_.late(row)) {
        any_late = true;
        watermark_.drop_late(row, c.weight());
      } else {
        watermark_.observe(row);
      }
    }
    if (!any_late) {
      output_->batch = input_->batch;
      return Status::OK();
    }
    for (BatchCursor c(batch); c.valid(); c.next()) {
      if (!watermark_.late(RowReader(*input_->key_schema, c.key()))) kept_.add(c.key(), c.value(), c.weight());
    }
    output_->batch = kept_.finish();
    return Status::OK();
  }
  void save_state(ByteWriter& out) const override { watermark_.save(out); }
  void restore_state(ByteReader& in) override { watermark_.restore(in); }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  Watermark watermark_;
  BatchBuilder kept_;
};

}  // namespace

Stream lateness_filter(Stream input, size_t column, int64_t lateness, const Watermark** watermark, std::string table) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  auto* op = circuit.add_operator(
      std::make_unique<LatenessFilterOperator>(&circuit.slot(input), &circuit.slot(output), column, lateness), {input}, output);
  if (!table.empty()) op->watermark().set_error_log(&circuit, std::move(table));
  if (watermark) *watermark = &op->watermark();
  return output;
}

}  // namespace freshet
