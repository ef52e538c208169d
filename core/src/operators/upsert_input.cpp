#include "freshet/operators/upsert_input.h"

#include <algorithm>

#include "freshet/common/hash.h"
#include "freshet/common/prefix_sort.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"

namespace freshet {
namespace {

SchemaPtr key_schema_of(const Schema& schema, const std::vector<size_t>& key_columns) {
  std::vector<Column> columns;
  for (size_t c : key_columns) columns.push_back(schema.column(c));
  return make_schema(std::move(columns));
}

// 8 bytes of `key` from `skip` on, big-endian (zeros past its end).
uint64_t key_prefix(RowRef key, size_t skip) { return big_endian_prefix(key.data + skip, key.size - skip); }

// Whether rows [from, to) of `width` bytes back to back at `rows` each come
// after the row before them (row 0 has none).
__attribute__((noinline)) bool fixed_rows_increase_in(const uint8_t* rows, uint32_t width, size_t from, size_t to) {
  for (size_t i = std::max<size_t>(from, 1); i < to; ++i) {
    if (compare_rows(RowRef(rows + (i - 1) * width, width), RowRef(rows + i * width, width)) >= 0) return false;
  }
  return true;
}

// Whether `count` rows of `width` bytes back to back strictly increase; in
// chunks, each a call (UpsertInputOperator::scan_operations says why).
bool fixed_rows_increase(const uint8_t* rows, uint32_t width, size_t count) {
  constexpr size_t kChunk = 4096;
  if (!fixed_rows_increase_in(rows, width, 0, std::min(count, kChunk))) return false;
  for (size_t from = kChunk; from < count; from += kChunk) {
    if (!fixed_rows_increase_in(rows, width, from, std::min(count, from + kChunk))) return false;
  }
  return true;
}

}  // namespace

UpsertInputOperator::UpsertInputOperator(Stream output, StreamSlot* slot, std::vector<size_t> key_columns)
    : output_(output),
      slot_(slot),
      key_columns_(std::move(key_columns)),
      key_schema_(key_schema_of(*slot->key_schema, key_columns_)),
      key_builder_(*key_schema_),
      key_projection_(SlotProjection::of(*slot->key_schema, key_columns_, *key_schema_)) {}

RowRef UpsertInputOperator::key_ref(RowRef row) {
  if (key_projection_) {
    bool any_null = false;  // a key's NULL is the table's to refuse, not this copy's
    return key_projection_->project(row, any_null);
  }
  RowReader reader(*slot_->key_schema, row);
  for (size_t i = 0; i < key_columns_.size(); ++i) key_builder_.copy_field(i, reader, key_columns_[i]);
  return key_builder_.finish();
}

void UpsertInputOperator::reserve_pending(size_t more, size_t row_bytes) {
  if (row_bytes == 0) row_bytes = more * slot_->key_schema->fixed_bytes();
  pending_.reserve(more, more * key_schema_->fixed_bytes(), row_bytes);
}

void UpsertInputOperator::adopt_pending_rows(ByteBuffer&& rows, size_t more) {
  pending_.adopt_rows(std::move(rows));
  pending_.reserve(more, more * key_schema_->fixed_bytes(), 0);
}

void UpsertInputOperator::truncate_pending(size_t count) {
  pending_.truncate(count);
  // A refused bulk ingest's buffers (adopted rows, perhaps) are not kept.
  if (count == 0 && pending_.memory_bytes() > (size_t{1} << 20)) pending_.release();
}

void UpsertInputOperator::push_upsert(RowRef row) { pending_.push_upsert(key_ref(row), row); }

void UpsertInputOperator::push_upsert(std::string&& row) { push_upsert(RowRef(row)); }

std::optional<std::pair<size_t, size_t>> UpsertInputOperator::repeated_upsert(size_t since) {
  // Keys in increasing order (growing ids) cannot repeat: one comparison
  // each instead of a hash.
  RowRef previous;
  bool increasing = true;
  for (size_t i = since; i < pending_.size() && increasing; ++i) {
    if (!pending_.is_upsert(i)) continue;
    increasing = !previous.data || compare_rows(previous, pending_.key(i)) < 0;
    previous = pending_.key(i);
  }
  if (increasing) return std::nullopt;
  // Open addressing over positions in pending_: no allocation per key, and
  // each key's bytes hashed once.
  size_t capacity = 16;
  while (capacity < 2 * (pending_.size() - since)) capacity *= 2;
  seen_.assign(capacity, 0);
  for (size_t i = since; i < pending_.size(); ++i) {
    if (!pending_.is_upsert(i)) continue;
    const RowRef key = pending_.key(i);
    size_t slot = hash_row(key) & (capacity - 1);
    for (; seen_[slot] != 0; slot = (slot + 1) & (capacity - 1)) {
      if (pending_.key(seen_[slot] - 1) == key) return std::make_pair(i - since, seen_[slot] - 1 - since);
    }
    seen_[slot] = static_cast<uint32_t>(i + 1);
  }
  if (seen_.capacity() > 4096) seen_ = {};  // a bulk load's table is not kept
  return std::nullopt;
}

void UpsertInputOperator::push_delete_key(RowRef key) { pending_.push_delete(key); }

void UpsertInputOperator::push_delete_row(RowRef row) { pending_.push_delete(key_ref(row)); }

std::optional<RowRef> UpsertInputOperator::find(RowRef key) const {
  for (Trace::KeyCursor c = by_key_.seek(key); c.valid(); c.next()) {
    if (c.weight() > 0) return c.value();
  }
  return std::nullopt;
}

std::optional<RowRef> UpsertInputOperator::find(RowRef key, std::vector<size_t>& finger) const {
  for (Trace::KeyCursor c = by_key_.seek(key, finger); c.valid(); c.next()) {
    if (c.weight() > 0) return c.value();
  }
  return std::nullopt;
}

std::optional<std::string> UpsertInputOperator::lookup(RowRef key) const {
  std::optional<RowRef> row = find(key);
  if (!row) return std::nullopt;
  return row->to_bytes();
}

void UpsertInputOperator::drop_late_operations() {
  watermark_->start_step();
  const Schema& schema = *slot_->key_schema;
  pending_.retain([&](size_t i) {
    const bool upsert = pending_.is_upsert(i);
    // The key's row before the step decides for all its operations: a late
    // one stays, and every operation on it is late (an operation admitted
    // earlier in the step would have left a row that is not late).
    bool late = upsert && watermark_->late(RowReader(schema, pending_.row(i)));
    if (!late) {
      std::optional<RowRef> old = find(pending_.key(i));
      late = old && watermark_->late(RowReader(schema, *old));
    }
    if (late) {
      // a delete by key alone lists the row it would have deleted
      std::optional<RowRef> shown = upsert ? std::optional<RowRef>(pending_.row(i)) : find(pending_.key(i));
      if (shown) {
        watermark_->drop_late(RowReader(schema, *shown), upsert ? 1 : -1);
      } else {
        watermark_->count_late(1);
      }
      return false;
    }
    if (upsert) watermark_->observe(RowReader(schema, pending_.row(i)));
    return true;
  });
}

Status UpsertInputOperator::evaluate() {
  if (watermark_) drop_late_operations();
  if (pending_.empty()) {
    slot_->batch = Batch::empty_batch();
    return Status::OK();
  }
  // The final state of every key this step touches: operations sorted by
  // key, stably, so the last one of each key is its final state. (A sort of
  // indices, not a map: no allocation per key, which matters most in wasm.)
  // Keys that come strictly increasing (growing ids, a bulk load) are
  // walked as they are, with no array of slots: fresh memory a big step
  // would touch once.
  const bool bulk = pending_.size() > 4096;
  OperationScan scan;
  // Two call sites: wasm-opt inlines a function called from one place.
  constexpr size_t kScanChunk = 4096;
  scan_operations(0, std::min(pending_.size(), kScanChunk), scan);
  for (size_t from = kScanChunk; from < pending_.size(); from += kScanChunk) {
    scan_operations(from, std::min(pending_.size(), from + kScanChunk), scan);
  }
  keys_in_order_ = scan.keys_increase;
  if (!keys_in_order_) sort_operations();

  // The index's delta first: a key and its new row per operation, mostly
  // (an upsert of an existing key adds its old row, and grows the arrays
  // once). Keys come strictly increasing and a key's rows differ, so it
  // takes entries as they are, with nothing to sum.
  // The table's changes are the index delta's rows. They come in key order,
  // which is the rows' byte order too while each row's bytes start as its
  // key's do (the key columns first, no NULL flag set before them).
  bool rows_in_order = true;
  if (keys_in_order_ && scan.fixed_and_contiguous && by_key_.empty()) {
    // A bulk load into an empty table: every key new, the delta is the keys
    // and the rows as they lie: the buffers they were ingested into, when
    // they fill them (no copy: in wasm, a copy of a bulk load's rows is
    // fresh memory, paid for in page faults and never given back), else
    // copies.
    const RowRef key = pending_.key(0), row = pending_.row(0);
    const size_t count = pending_.size();
    rows_in_order = fixed_rows_increase(row.data, row.size, count);
    if (pending_.fill_buffers(key.size, row.size)) {
      ByteBuffer keys, rows;
      pending_.take_bytes(keys, rows);
      keys.shrink_to_fit();  // in place: a reserve's slack
      rows.shrink_to_fit();
      index_delta_.adopt_fixed_entries(std::move(keys), key.size, std::move(rows), row.size, count);
    } else {
      index_delta_.reserve(count, scan.key_bytes, scan.row_bytes);
      index_delta_.append_fixed_entries(key.data, key.size, row.data, row.size, count);
    }
  } else {
    index_delta_.reserve(pending_.size(), scan.key_bytes, scan.row_bytes);
    RowRef last_row, last_key;
    for_each_change([&](RowRef key, RowRef row, Weight weight) {
      if (key.data != last_key.data) index_delta_.append_key(key);
      index_delta_.append_value(row, weight);
      last_key = key;
      rows_in_order = rows_in_order && (!last_row.data || compare_rows(last_row, row) < 0);
      last_row = row;
    });
  }
  BatchPtr index = index_delta_.finish();
  // The operations are in the index delta (copied, or their buffers taken):
  // a bulk load's memory is given back before the changes are built from
  // the index delta (its peak was the operations, the index delta and the
  // changes at once: fresh memory, paid for in page faults, which in wasm
  // is never given back).
  pending_.clear();
  if (bulk) {
    pending_.release();
    std::vector<SortSlot>().swap(order_);
    std::vector<SortSlot>().swap(order_scratch_);
  }
  BatchPtr changes;
  if (rows_in_order && bulk) {
    // A big step's changes share the index delta's rows: no second copy
    // of them alive with the steps after (fresh memory, as above).
    SortedBatchBuilder rows;
    rows.share_values_as_keys(index);
    changes = rows.finish();
  } else if (rows_in_order) {
    // In one copy: a loop of a row at a time over a bulk load's 200k rows
    // ran in V8's baseline code throughout (one call).
    SortedBatchBuilder rows;
    rows.reserve(index->size(), index->value_bytes(), 0);
    rows.append_values_as_keys(*index);
    changes = rows.finish();
  } else {
    for (size_t v = 0; v < index->size(); ++v) delta_.add_row(index->value(v), index->weight(v));
    changes = delta_.finish();
  }
  by_key_.insert(std::move(index));
  slot_->batch = std::move(changes);
  return Status::OK();
}

__attribute__((noinline)) void UpsertInputOperator::scan_operations(size_t from, size_t to, OperationScan& scan) const {
  const RowRef first_key = pending_.key(0);
  const RowRef first_row = pending_.is_upsert(0) ? pending_.row(0) : RowRef();
  for (size_t op = from; op < to; ++op) {
    const RowRef key = pending_.key(op);
    if (op > 0 && scan.keys_increase) scan.keys_increase = compare_rows(pending_.key(op - 1), key) < 0;
    scan.key_bytes += key.size;
    if (!pending_.is_upsert(op)) {
      scan.fixed_and_contiguous = false;
      continue;
    }
    const RowRef row = pending_.row(op);
    scan.row_bytes += row.size;
    scan.fixed_and_contiguous = scan.fixed_and_contiguous && first_row.data && key.size == first_key.size &&
                                key.data == first_key.data + op * first_key.size && row.size == first_row.size &&
                                row.data == first_row.data + op * first_row.size;
  }
}

void UpsertInputOperator::sort_operations() {
  // Each slot carries 8 bytes of its key, big-endian, from the first byte
  // where keys differ (null flags and an id's high bytes are mostly shared):
  // they decide most comparisons without reaching the strings; ties in the
  // whole key fall back to the operations' order.
  const RowRef first = pending_.key(0);
  size_t skip = first.size;
  for (size_t op = 0; op < pending_.size(); ++op) {
    const RowRef key = pending_.key(op);
    size_t n = std::min<size_t>(skip, key.size), i = 0;
    while (i < n && key.data[i] == first.data[i]) ++i;
    skip = i;
  }
  order_.resize(pending_.size());
  for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = {key_prefix(pending_.key(i), skip), i};
  auto before = [this](const SortSlot& a, const SortSlot& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    int c = compare_rows(pending_.key(a.index), pending_.key(b.index));
    return c != 0 ? c < 0 : a.index < b.index;
  };
  if (!std::is_sorted(order_.begin(), order_.end(), before)) {
    sort_by_prefix(order_, order_scratch_, [](const SortSlot& s) { return s.prefix; }, before);
  }
}

template <typename Change>
void UpsertInputOperator::for_each_change(Change&& change) {
  finger_.clear();
  const size_t count = pending_.size();
  auto operation = [&](size_t i) -> size_t { return keys_in_order_ ? i : order_[i].index; };
  for (size_t i = 0; i < count; ++i) {
    const size_t op = operation(i);
    const RowRef key = pending_.key(op);
    if (i + 1 < count && pending_.key(operation(i + 1)) == key) continue;  // a later operation wins
    std::optional<RowRef> old = find(key, finger_);
    std::optional<RowRef> row;
    if (pending_.is_upsert(op)) row = pending_.row(op);
    if (old.has_value() == row.has_value() && (!old || *old == *row)) continue;
    // The key's old and new rows, in row order.
    if (old && row && compare_rows(*row, *old) < 0) {
      change(key, *row, 1);
      change(key, *old, -1);
    } else {
      if (old) change(key, *old, -1);
      if (row) change(key, *row, 1);
    }
  }
}

void UpsertInputOperator::save_state(ByteWriter& out) const {
  write_trace(out, by_key_);
  out.varint(pending_.size());
  for (size_t op = 0; op < pending_.size(); ++op) {
    out.bytes(pending_.key(op).bytes());
    out.boolean(pending_.is_upsert(op));
    if (pending_.is_upsert(op)) out.bytes(pending_.row(op).bytes());
  }
  if (watermark_) watermark_->save(out);  // last: restore_state tells it is there by what remains
}

void UpsertInputOperator::restore_state(ByteReader& in) {
  read_trace(in, rows_of(key_schema_), rows_of(slot_->key_schema), &by_key_);
  size_t count = in.count(2);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    const RowRef key = RowRef(in.bytes());
    std::optional<RowRef> row;
    if (in.boolean()) row = RowRef(in.bytes());
    if (!in.ok()) break;
    if (!row_fits_schema(*key_schema_, key) || (row && !row_fits_schema(*slot_->key_schema, *row))) {
      in.fail("buffered operation " + std::to_string(i) + " does not fit the table's schema");
      break;
    }
    if (row) {
      pending_.push_upsert(key, *row);
    } else {
      pending_.push_delete(key);
    }
  }
  // The watermark's bytes end the state, present exactly when the writer's
  // table had a LATENESS (the layout never said it). A program change may
  // add one: it starts from the largest time among the table's rows; or
  // remove it: its bytes are read and dropped.
  if (in.remaining() > 0) {
    Watermark dropped(0, 0);
    (watermark_ ? *watermark_ : dropped).restore(in);
  } else if (watermark_ && in.ok()) {
    BatchPtr by_key = by_key_.consolidated();
    for (size_t k = 0; k < by_key->key_count(); ++k) {
      for (size_t v = by_key->values_begin(k); v < by_key->values_end(k); ++v) {
        if (by_key->weight(v) > 0) watermark_->observe(RowReader(*slot_->key_schema, by_key->value(v)));
      }
    }
  }
}

UpsertInputOperator* add_upsert_input(Circuit& circuit, SchemaPtr schema, std::vector<size_t> key_columns) {
  Stream output = circuit.add_stream(std::move(schema), empty_schema());
  return circuit.add_operator(
      std::make_unique<UpsertInputOperator>(output, &circuit.slot(output), std::move(key_columns)), {}, output);
}

}  // namespace freshet

namespace freshet {

BatchPtr UpsertInputOperator::output_integral() const {
  BatchPtr by_key = by_key_.consolidated();
  BatchBuilder rows;
  for (size_t k = 0; k < by_key->key_count(); ++k) {
    for (size_t v = by_key->values_begin(k); v < by_key->values_end(k); ++v) rows.add_row(by_key->value(v), by_key->weight(v));
  }
  return rows.finish();
}

}  // namespace freshet
