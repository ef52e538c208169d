// UpsertInput: the input of a table with a PRIMARY KEY. Users insert whole
// rows and delete by key; the operator turns that into a Z-set delta, so a
// new row for an existing key replaces the old one and a delete of an absent
// key changes nothing. Within one step the operations apply in order.
//
//   step   | 0          | 1              | 2
//   pushed | upsert(1,a)| upsert(1,b)    | delete(1)
//   output | +(1,a)     | -(1,a), +(1,b) | -(1,b)
//
// ## Design
// The table's current rows are kept as a trace indexed by key; a step reads
// only the keys it touches: O(|ops| × log n).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/lateness_filter.h"
#include "freshet/operators/pending_operations.h"
#include "freshet/types/slot_projection.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/trace.h"

namespace freshet {

class UpsertInputOperator : public Operator {
 public:
  UpsertInputOperator(Stream output, StreamSlot* slot, std::vector<size_t> key_columns);
  const char* name() const override { return "upsert input"; }
  Status evaluate() override;
  size_t state_bytes() const override { return by_key_.memory_bytes(); }
  size_t state_rows() const override { return by_key_.entry_count(); }
  //! The table's rows by key, and the operations buffered for the next step.
  void save_state(ByteWriter& out) const override;
  //! The table's current rows (a Z-set), from its state by key.
  BatchPtr output_integral() const override;
  //! For good: late operations are dropped, never rows already held. A
  //! materialized table reads its rows here (materialized_view.h).
  bool holds_output() const override { return true; }
  void restore_state(ByteReader& in) override;

  Stream stream() const { return output_; }
  const Schema& key_schema() const { return *key_schema_; }
  const std::vector<size_t>& key_columns() const { return key_columns_; }

  //! Buffers an insert-or-replace of a whole row.
  void push_upsert(RowRef row);
  void push_upsert(std::string&& row);
  //! Buffers a delete by key (a row of the key columns).
  void push_delete_key(RowRef key);
  //! Buffers a delete of the row with the same key as `row`.
  void push_delete_row(RowRef row);
  size_t pending() const { return pending_.size(); }
  //! Room for `more` operations whose rows hold `row_bytes` bytes in all
  //! (0: unknown, taken as rows without strings), before an ingest buffers them.
  void reserve_pending(size_t more, size_t row_bytes = 0);
  //! While nothing is buffered: takes `rows` as the buffer of the rows of
  //! the `more` operations to come, whose upserts of rows inside it are then
  //! not copied (a bulk ingest's parsed rows; PendingOperations::adopt_rows).
  void adopt_pending_rows(ByteBuffer&& rows, size_t more);
  //! The first upsert buffered since operation `since` whose key an earlier
  //! one since then has too: (its position, the earlier one's), counted
  //! from `since`. One ingest must not give a key twice.
  std::optional<std::pair<size_t, size_t>> repeated_upsert(size_t since);
  //! Drops the operations buffered since the first `count` (a refused ingest).
  void truncate_pending(size_t count);

  //! The key row of a table row.
  std::string key_of(RowRef row) { return key_ref(row).to_bytes(); }
  //! The current row for a key, as of the last step.
  std::optional<std::string> lookup(RowRef key) const;

  //! Drops late operations from now on (lateness_filter.h): an upsert whose
  //! row is late, and any operation on a key whose current row is late (as
  //! Feldera: the update would delete a late row, so all of it is late).
  void set_lateness(size_t column, int64_t lateness) { watermark_.emplace(column, lateness); }
  const Watermark* watermark() const { return watermark_ ? &*watermark_ : nullptr; }
  Watermark* watermark() { return watermark_ ? &*watermark_ : nullptr; }

 private:
  //! The key row of a table row, valid until the next call.
  RowRef key_ref(RowRef row);
  //! Removes this step's late operations from pending_, counting them.
  void drop_late_operations();
  //! lookup() without the copy: the bytes live in the trace until it changes.
  std::optional<RowRef> find(RowRef key) const;
  //! find() for keys in ascending order (Trace::seek with a finger).
  std::optional<RowRef> find(RowRef key, std::vector<size_t>& finger) const;
  //! Sorts pending_'s positions by key, stably, into order_.
  void sort_operations();
  //! Calls change(key, row, weight) for each row this step's operations
  //! retract (-1) or insert (+1), in key order and a key's rows in row
  //! order, as of the trace before the step.
  template <typename Change>
  void for_each_change(Change&& change);
  //! What evaluate() learns of the pending operations in one walk.
  struct OperationScan {
    bool keys_increase = true;  //!< each operation's key after the one before
    //! Every operation an upsert, keys and rows each of one width and back
    //! to back in operation order (a bulk load's ingest).
    bool fixed_and_contiguous = true;
    size_t key_bytes = 0, row_bytes = 0;
  };
  //! Operations [from, to) into `scan` (those before from are in it). A
  //! call per chunk: V8 runs a wasm function's one call in the code it began
  //! with, so a bulk step's walk in one call ran in baseline code throughout.
  void scan_operations(size_t from, size_t to, OperationScan& scan) const;

  Stream output_;
  StreamSlot* slot_;
  std::vector<size_t> key_columns_;
  SchemaPtr key_schema_;
  RowBuilder key_builder_;
  std::optional<SlotProjection> key_projection_;  // key_ref() of keys of fixed width, with no key_builder_
  PendingOperations pending_;
  struct SortSlot {
    uint64_t prefix;  // the key's first 8 bytes, big-endian
    uint32_t index;   // in pending_
  };
  std::vector<SortSlot> order_;          // scratch: pending_ sorted by key, unless keys_in_order_
  bool keys_in_order_ = false;           // scratch: pending_'s keys strictly increase (order_ unused)
  std::vector<SortSlot> order_scratch_;  // scratch of sort_by_prefix
  std::vector<size_t> finger_;   // scratch: evaluate()'s seeks of by_key_ in that order
  std::vector<uint32_t> seen_;   // scratch: repeated_upsert()'s hash set of pending_ positions + 1
  BatchBuilder delta_;  // scratch of evaluate() when rows come out of key order, kept for its capacity
  // The index's changes come in key order (the operations are walked by
  // key), so they need no sort of their own.
  SortedBatchBuilder index_delta_;
  Trace by_key_;  // state: key -> current row
  std::optional<Watermark> watermark_;  // state, with LATENESS
};

//! Adds the input of a table whose key is the given columns of `schema`.
UpsertInputOperator* add_upsert_input(Circuit& circuit, SchemaPtr schema, std::vector<size_t> key_columns);

}  // namespace freshet
