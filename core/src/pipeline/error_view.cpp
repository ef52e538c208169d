#include "freshet/pipeline/error_view.h"

#include "freshet/format/json_output.h"
#include "freshet/zset/batch_builder.h"

namespace freshet {

ErrorView::ErrorView(const sql::CompiledProgram& program, const sql::CompiledView& view)
    : program_(&program), view_definition_(&view), view_(program, view) {
  program.circuit->error_log().set_capacity(retention_);
}

void ErrorView::set_retention(size_t rows) {
  retention_ = rows;
  program_->circuit->error_log().set_capacity(rows);
}

void ErrorView::on_step() {
  uint64_t dropped = 0;
  std::vector<ErrorRecord> records = program_->circuit->error_log().take(&dropped);
  evicted_ += dropped;
  if (records.empty() && rows_.size() <= retention_) {
    // Nothing to publish (almost every step): an empty delta, with no deque,
    // row builder or batch made for it; the view's trace ignores it anyway.
    program_->circuit->slot(view_definition_->stream).batch = Batch::empty_batch();
    return;
  }
  std::deque<ErrorRecord> added(std::make_move_iterator(records.begin()), std::make_move_iterator(records.end()));
  publish(added);
}

void ErrorView::publish(const std::deque<ErrorRecord>& added) {
  const Schema& schema = *view_definition_->schema;
  RowBuilder row(schema);
  BatchBuilder delta;
  auto add = [&](const ErrorRecord& record, Weight weight) {
    row.set_string(0, record.relation);
    row.set_string(1, record.message);
    row.set_string(2, record.metadata);
    delta.add_row(row.finish(), weight);
  };
  for (const ErrorRecord& record : added) {
    add(record, 1);
    rows_.push_back(record);
  }
  while (rows_.size() > retention_) {
    add(rows_.front(), -1);
    rows_.pop_front();
    ++evicted_;
  }
  // The step's delta stays in the slot, where the view's endpoints read it (until the next step).
  program_->circuit->slot(view_definition_->stream).batch = delta.finish();
  view_.update();
}

size_t ErrorView::memory_bytes() const {
  size_t total = view_.memory_bytes();
  for (const ErrorRecord& record : rows_)
    total += record.relation.size() + record.message.size() + record.metadata.size();
  return total;
}

void ErrorView::append_stats(std::string* json) const {
  *json += ",\"error_view\":{\"rows\":" + std::to_string(rows_.size()) +
           ",\"retention\":" + std::to_string(retention_) + ",\"evicted\":" + std::to_string(evicted_) + '}';
}

void ErrorView::save_state(ByteWriter& out) const {
  out.u64(evicted_);
  out.varint(rows_.size());
  for (const ErrorRecord& record : rows_) {
    out.bytes(record.relation);
    out.bytes(record.message);
    out.bytes(record.metadata);
  }
  const std::map<std::string, uint64_t>& nulled = program_->circuit->error_log().nulled();
  out.varint(nulled.size());
  for (const auto& [view, count] : nulled) {
    out.bytes(view);
    out.u64(count);
  }
}

void ErrorView::restore_state(ByteReader& in) {
  evicted_ = in.u64();
  std::deque<ErrorRecord> restored;
  size_t count = in.count(3);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    ErrorRecord record;
    record.relation = std::string(in.bytes());
    record.message = std::string(in.bytes());
    record.metadata = std::string(in.bytes());
    restored.push_back(std::move(record));
  }
  std::map<std::string, uint64_t>& nulled = program_->circuit->error_log().nulled();
  size_t views = in.count(9);
  for (size_t i = 0; i < views && in.ok(); ++i) {
    std::string view(in.bytes());
    nulled[view] = in.u64();
  }
  if (!in.ok()) return;
  publish(restored);  // the trace, rebuilt from the rows (the retention applies)
  program_->circuit->slot(view_definition_->stream).batch = Batch::empty_batch();  // no step's delta
}

}  // namespace freshet
