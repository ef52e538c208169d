#include "freshet/operators/map.h"

#include <algorithm>

#include "freshet/types/slot_projection.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {
namespace {

class MapOperator : public Operator {
 public:
  MapOperator(const StreamSlot* input, StreamSlot* output, RowFilterMapper mapper, ErrorLog* errors,
              std::string description, const std::optional<ColumnProjection>& projection)
      : input_(input),
        output_(output),
        errors_(errors),
        mapper_(std::move(mapper)),
        description_(std::move(description)),
        key_builder_(*output->key_schema),
        value_builder_(*output->value_schema) {
    // A map re-keys whatever its input holds: over a bulk load, hundreds of
    // thousands of entries in one step (batch_builder.h).
    mapped_.sort_in_runs();
    if (projection) {
      key_projection_ = SlotProjection::of(*input->key_schema, projection->key_columns, *output->key_schema);
      if (!projection->whole_value) {
        value_projection_ = SlotProjection::of(*input->key_schema, projection->value_columns, *output->value_schema);
      }
      projected_ = key_projection_ && (projection->whole_value || value_projection_);
      drop_null_keys_ = projection->drop_null_keys;
    }
  }
  const char* name() const override { return "map"; }
  std::string describe() const override { return description_; }

  Status evaluate() override {
    // A projection's rows are about its input's: sized once for a big step.
    const Batch& input = *input_->batch;
    if (input.size() > kReserveFrom) mapped_.reserve(input.size(), input.key_bytes() + input.value_bytes());
    // In chunks of keys, each a call: V8 runs a wasm function in its
    // baseline code until it has run for a while, and the optimized code it
    // then compiles serves later calls only, so a bulk load's map in one
    // call ran in baseline code throughout. (Two call sites: wasm-opt
    // inlines a function called from one place whatever its size.)
    const size_t keys = input.key_count();
    map_keys(input, 0, std::min(keys, kChunkKeys));
    for (size_t from = kChunkKeys; from < keys; from += kChunkKeys) {
      map_keys(input, from, std::min(keys, from + kChunkKeys));
    }
    errors_->set_entry_weight(1);
    output_->batch = mapped_.finish();
    return Status::OK();
  }

 private:
  static constexpr size_t kReserveFrom = 64;  // smaller steps reuse the builder's kept buffers
  static constexpr size_t kChunkKeys = 4096;

  //! Maps the entries of keys [from, to) of `input` into mapped_.
  __attribute__((noinline)) void map_keys(const Batch& input, size_t from, size_t to) {
    if (projected_) return project_keys(input, from, to);
    for (size_t k = from; k < to; ++k) {
      const RowReader key(*input_->key_schema, input.key(k));
      for (size_t v = input.values_begin(k); v < input.values_end(k); ++v) {
        const Weight weight = input.weight(v);
        errors_->set_entry_weight(weight);
        bool keep = mapper_(key, RowReader(*input_->value_schema, input.value(v)), key_builder_, value_builder_);
        RowRef mapped_key = key_builder_.finish();
        if (!keep) {
          value_builder_.finish();  // start the next entry clean
          continue;
        }
        mapped_.add(mapped_key, value_builder_.finish(), weight);
      }
    }
  }

  //! map_keys() by the projections: rows of input keys' columns, with no
  //! mapper call (no errors to report: a column's copy cannot fail).
  void project_keys(const Batch& input, size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      const RowRef row = input.key(k);
      bool any_null = false;
      const RowRef key = key_projection_->project(row, any_null);
      if (any_null && drop_null_keys_) continue;
      bool value_null = false;  // a NULL value is kept
      const RowRef value = value_projection_ ? value_projection_->project(row, value_null) : row;
      for (size_t v = input.values_begin(k); v < input.values_end(k); ++v) mapped_.add(key, value, input.weight(v));
    }
  }

  const StreamSlot* input_;
  StreamSlot* output_;
  ErrorLog* errors_;  // told each entry's weight (error_log.h)
  RowFilterMapper mapper_;
  std::string description_;  // what the map computes, for explain
  RowBuilder key_builder_, value_builder_;
  BatchBuilder mapped_;
  // With a ColumnProjection of fixed-width columns: the rows by slot copies.
  std::optional<SlotProjection> key_projection_, value_projection_;
  bool projected_ = false, drop_null_keys_ = false;
};

}  // namespace

Stream map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowMapper mapper, std::string description) {
  return filter_map(input, std::move(key_schema), std::move(value_schema),
                    [mapper = std::move(mapper)](const RowReader& key, const RowReader& value, RowBuilder& out_key,
                                                 RowBuilder& out_value) {
                      mapper(key, value, out_key, out_value);
                      return true;
                    },
                    std::move(description));
}

Stream filter_map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowFilterMapper mapper,
                  std::string description, std::optional<ColumnProjection> projection) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  circuit.add_operator(std::make_unique<MapOperator>(&circuit.slot(input), &circuit.slot(output), std::move(mapper),
                                                     &circuit.error_log(), std::move(description), projection),
                       {input}, output);
  return output;
}

}  // namespace freshet
