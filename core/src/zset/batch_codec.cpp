#include "freshet/zset/batch_codec.h"

#include "freshet/types/sort_key.h"
#include "freshet/zset/batch_builder.h"

namespace freshet {

RowCheck rows_of(SchemaPtr schema) {
  return [schema = std::move(schema)](RowRef row) { return row_fits_schema(*schema, row); };
}

RowCheck sorted_rows_of(SchemaPtr schema) {
  return [schema = std::move(schema)](RowRef entry) { return sorted_row_fits(*schema, entry); };
}

RowCheck any_row() {
  return [](RowRef) { return true; };
}

void write_batch(ByteWriter& out, const Batch& batch) {
  out.varint(batch.key_count());
  out.varint(batch.size());
  for (size_t k = 0; k < batch.key_count(); ++k) {
    out.bytes(batch.key(k).bytes());
    out.varint(batch.values_end(k) - batch.values_begin(k));
    for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) {
      out.bytes(batch.value(v).bytes());
      out.signed_varint(batch.weight(v));
    }
  }
}

BatchPtr read_batch(ByteReader& in, const RowCheck& key_check, const RowCheck& value_check) {
  // A key takes at least 2 bytes (length, value count); an entry 2 (length, weight).
  size_t key_count = in.count(2);
  size_t entry_count = in.count(2);
  if (!in.ok()) return nullptr;
  if (entry_count < key_count) {
    in.fail("a batch of " + std::to_string(key_count) + " keys cannot have " + std::to_string(entry_count) + " entries");
    return nullptr;
  }
  SortedBatchBuilder builder;
  RowRef previous_key;
  size_t entries = 0;
  for (size_t k = 0; k < key_count && in.ok(); ++k) {
    RowRef key = RowRef(in.bytes());
    if (k > 0 && !(compare_rows(previous_key, key) < 0)) in.fail("batch keys out of order at key " + std::to_string(k));
    if (in.ok() && !key_check(key)) in.fail("key " + std::to_string(k) + " does not fit its schema");
    size_t values = in.count(2);
    if (in.ok() && values == 0) in.fail("key " + std::to_string(k) + " has no values");
    RowRef previous_value;
    for (size_t v = 0; v < values && in.ok(); ++v) {
      RowRef value = RowRef(in.bytes());
      Weight weight = in.signed_varint();
      if (v > 0 && !(compare_rows(previous_value, value) < 0)) {
        in.fail("values of key " + std::to_string(k) + " out of order");
      } else if (weight == 0) {
        in.fail("a zero weight at key " + std::to_string(k));
      } else if (!value_check(value)) {
        in.fail("a value of key " + std::to_string(k) + " does not fit its schema");
      }
      if (!in.ok()) break;
      builder.push(key, value, weight);
      previous_value = value;
      ++entries;
    }
    previous_key = key;
  }
  if (in.ok() && entries != entry_count) {
    in.fail("a batch promised " + std::to_string(entry_count) + " entries and holds " + std::to_string(entries));
  }
  if (!in.ok()) return nullptr;
  return builder.finish();
}

void write_trace(ByteWriter& out, const Trace& trace) {
  out.varint(trace.batches().size());
  for (const BatchPtr& batch : trace.batches()) write_batch(out, *batch);
}

void read_trace(ByteReader& in, const RowCheck& key_check, const RowCheck& value_check, Trace* trace) {
  size_t count = in.count(2);
  std::vector<BatchPtr> batches;
  for (size_t i = 0; i < count && in.ok(); ++i) {
    BatchPtr batch = read_batch(in, key_check, value_check);
    if (batch && !batch->empty()) batches.push_back(std::move(batch));
  }
  if (in.ok()) trace->restore(std::move(batches));
}

}  // namespace freshet
