#include "freshet/pipeline/materialized_view.h"

#include <algorithm>
#include <optional>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"

namespace freshet {

MaterializedView::MaterializedView(const sql::CompiledProgram& program, const sql::CompiledView& view)
    : view_(&view),
      indexes_(program.indexes_of(view.name)),
      materialized_(program.is_materialized(view)),
      other_indexes_(indexes_.empty() ? 0 : indexes_.size() - 1) {
  if (indexes_.empty()) {
    if (materialized_) held_ = held_output(*program.circuit, view.stream);
    return;
  }
  key_columns_ = indexes_[0]->columns;
  key_schema_ = indexes_[0]->key_schema;
  std::vector<Column> rest;
  for (size_t c = 0; c < view.schema->size(); ++c) {
    if (std::find(key_columns_.begin(), key_columns_.end(), c) != key_columns_.end()) continue;
    rest_columns_.push_back(c);
    rest.push_back(view.schema->column(c));
  }
  rest_schema_ = make_schema(std::move(rest));
  row_builder_ = std::make_unique<RowBuilder>(*view.schema);
  rest_builder_ = std::make_unique<RowBuilder>(*rest_schema_);
  // An index on exactly the columns its producer finds its rows by (an
  // aggregate's GROUP BY columns, first and in order, of the same types):
  // the producer answers the view and that index, nothing is kept here.
  const Operator* producer = held_output(*program.circuit, view.stream);
  const Schema& produced = *program.circuit->slot(view.stream).key_schema;
  if (!producer || producer->held_key_columns() != key_columns_.size()) return;
  for (size_t i = 0; i < key_columns_.size(); ++i) {
    if (key_columns_[i] != i || !(key_schema_->type(i) == produced.type(i))) return;
  }
  held_ = producer;
  held_index_ = true;
  key_builder_ = std::make_unique<RowBuilder>(*key_schema_);
}

RowRef MaterializedView::whole_row(RowRef key, RowRef rest) const {
  RowReader key_reader(*key_schema_, key), rest_reader(*rest_schema_, rest);
  for (size_t i = 0; i < key_columns_.size(); ++i) row_builder_->copy_field(key_columns_[i], key_reader, i);
  for (size_t i = 0; i < rest_columns_.size(); ++i) row_builder_->copy_field(rest_columns_[i], rest_reader, i);
  return row_builder_->finish();
}

RowRef MaterializedView::rest_of(RowRef row) const {
  RowReader reader(*view_->schema, row);
  for (size_t i = 0; i < rest_columns_.size(); ++i) rest_builder_->copy_field(i, reader, rest_columns_[i]);
  return rest_builder_->finish();
}

std::optional<size_t> MaterializedView::index_ordinal(std::string_view index_name) const {
  for (size_t i = 0; i < indexes_.size(); ++i) {
    if (indexes_[i]->name == index_name) return i;
  }
  return std::nullopt;
}

void MaterializedView::update() {
  if (!materialized_ || (held_ && !held_index_)) return;
  if (indexes_.empty()) {
    primary_.insert(view_->stream.current());
    return;
  }
  if (!held_index_) {
    BatchBuilder rests;
    for (BatchCursor c(*indexes_[0]->stream.current()); c.valid(); c.next()) {
      rests.add(c.key(), rest_of(c.value()), c.weight());
    }
    primary_.insert(rests.finish());
  }
  for (size_t i = 1; i < indexes_.size(); ++i) other_indexes_[i - 1].insert(indexes_[i]->stream.current());
}

BatchPtr MaterializedView::snapshot() const {
  if (held_) return held_->output_integral();
  BatchPtr contents = primary_.consolidated();
  if (indexes_.empty()) return contents;
  // Keyed by the first index: put each row back together.
  BatchBuilder rows;
  for (BatchCursor c(*contents); c.valid(); c.next()) rows.add_row(whole_row(c.key(), c.value()), c.weight());
  return rows.finish();
}

BatchPtr MaterializedView::index_snapshot(size_t ordinal) const {
  if (ordinal > 0) return other_indexes_[ordinal - 1].consolidated();
  if (held_index_) {
    // The producer's rows, keyed by their first columns (the index's).
    BatchPtr rows = held_->output_integral();
    BatchBuilder entries;
    for (BatchCursor c(*rows); c.valid(); c.next()) {
      RowReader row(*view_->schema, c.key());
      for (size_t i = 0; i < key_columns_.size(); ++i) key_builder_->copy_field(i, row, i);
      entries.add(key_builder_->finish(), c.key(), c.weight());
    }
    return entries.finish();
  }
  BatchPtr contents = primary_.consolidated();  // held: the cursor reads it
  BatchBuilder entries;
  for (BatchCursor c(*contents); c.valid(); c.next()) {
    entries.add(c.key(), whole_row(c.key(), c.value()), c.weight());
  }
  return entries.finish();
}

std::vector<std::string> MaterializedView::lookup(size_t ordinal, RowRef key) const {
  std::vector<std::string> rows;
  if (ordinal == 0 && held_index_) {
    if (std::optional<RowRef> row = held_->held_row(key)) rows.push_back(row->to_bytes());
    return rows;
  }
  const Trace& trace = ordinal == 0 ? primary_ : other_indexes_[ordinal - 1];
  for (Trace::KeyCursor c = trace.seek(key); c.valid(); c.next()) {
    std::string row = ordinal == 0 ? whole_row(key, c.value()).to_bytes() : c.value().to_bytes();
    for (Weight w = 0; w < c.weight(); ++w) rows.push_back(row);
  }
  return rows;
}

size_t MaterializedView::memory_bytes() const {
  size_t total = primary_.memory_bytes();
  for (const Trace& trace : other_indexes_) total += trace.memory_bytes();
  return total;
}

void MaterializedView::clear() {
  primary_.clear();
  for (Trace& trace : other_indexes_) trace.clear();
}

// A view that reads its producer's rows saves none: the producer's state has them.
void MaterializedView::save_state(ByteWriter& out) const {
  if (held_ && !held_index_) return;
  if (!held_index_) write_trace(out, primary_);
  for (const Trace& trace : other_indexes_) write_trace(out, trace);
}

void MaterializedView::restore_state(ByteReader& in) {
  if (held_ && !held_index_) {
    // A checkpoint from before its producer held the rows (a materialized
    // table with a PRIMARY KEY kept a copy) has them here too: read and
    // dropped, the producer's state has them.
    if (in.remaining() > 0) {
      Trace copy;
      read_trace(in, rows_of(view_->schema), rows_of(empty_schema()), &copy);
    }
    return;
  }
  if (indexes_.empty()) {
    read_trace(in, rows_of(view_->schema), rows_of(empty_schema()), &primary_);
    return;
  }
  if (held_index_) {
    // The other indexes' traces; a checkpoint from before the producer
    // answered the first index has the rows by that index first (one more
    // trace): read and dropped, the producer's state has them.
    ByteReader probe = in;
    for (size_t i = 1; i < indexes_.size(); ++i) {
      Trace scratch;
      read_trace(probe, rows_of(indexes_[i]->key_schema), rows_of(view_->schema), &scratch);
    }
    if (!probe.ok() || probe.remaining() > 0) {
      Trace dropped;
      read_trace(in, rows_of(key_schema_), rows_of(rest_schema_), &dropped);
    }
  } else {
    read_trace(in, rows_of(key_schema_), rows_of(rest_schema_), &primary_);
  }
  for (size_t i = 1; i < indexes_.size(); ++i) {
    read_trace(in, rows_of(indexes_[i]->key_schema), rows_of(view_->schema), &other_indexes_[i - 1]);
  }
}

}  // namespace freshet
