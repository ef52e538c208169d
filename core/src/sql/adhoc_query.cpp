#include "freshet/sql/adhoc_query.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "binder.h"
#include "freshet/sql/parser.h"
#include "plan_join_order.h"
#include "planner.h"
#include "prune_columns.h"

namespace freshet::sql {
namespace {

//! "line 3, column 8: " of an SQL error's message, or "".
std::string position_prefix(const std::string& message) {
  if (message.rfind("line ", 0) != 0) return "";
  size_t end = message.find(": ");
  return end == std::string::npos ? "" : message.substr(0, end + 2);
}

//! The top-k the binder made of ORDER BY (with its LIMIT and OFFSET, or
//! keeping every row): the node whose rows are sorted. ORDER BY columns not
//! selected are hidden columns of the top-k, dropped by a projection above
//! it; that projection goes, so the sort can read them (sorted_rows drops
//! them instead).
LogicalPlan* order_node(PlanPtr& root) {
  if (root->kind == LogicalPlan::Kind::kTopK) return root.get();
  if (root->kind == LogicalPlan::Kind::kProject && root->inputs[0]->kind == LogicalPlan::Kind::kTopK) {
    root = std::move(root->inputs[0]);
    return root.get();
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> AdhocQuery::sorted_rows() const {
  const Batch& batch = *stream.current();
  const Schema& wide = stream.key_schema();
  const bool hidden_columns = wide.size() != schema->size();
  RowBuilder narrow(*schema);
  std::vector<std::string> rows, keys;
  for (size_t k = 0; k < batch.key_count(); ++k) {
    RowReader row(wide, batch.key(k));
    std::string bytes = batch.key(k).to_bytes();
    if (hidden_columns) {
      for (size_t c = 0; c < schema->size(); ++c) narrow.copy_field(c, row, c);
      bytes = narrow.finish().to_bytes();
    }
    std::string key;
    if (!order.empty()) append_sort_key(row, order, &key);
    for (Weight w = batch.weight(batch.values_begin(k)); w > 0; --w) {
      rows.push_back(bytes);
      keys.push_back(key);
    }
  }
  if (order.empty()) return rows;
  std::vector<size_t> positions(rows.size());
  std::iota(positions.begin(), positions.end(), 0);
  std::stable_sort(positions.begin(), positions.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<std::string> sorted;
  sorted.reserve(rows.size());
  for (size_t position : positions) sorted.push_back(std::move(rows[position]));
  return sorted;
}

Result<std::unique_ptr<AdhocQuery>> compile_adhoc_query(std::string_view sql, const AdhocRelationLookup& lookup) {
  Result<Query> parsed = parse_query(sql);
  if (!parsed.ok()) return parsed.status();
  Query& query = *parsed;
  // ORDER BY alone: a top-k keeping every row (see the header).
  if (!query.order_by.empty() && !query.limit && !query.offset) query.offset = 0;

  auto result = std::make_unique<AdhocQuery>();
  std::map<std::string, SchemaPtr> schemas;
  Status refused;
  QueryBinder binder([&](const std::string& name) -> SchemaPtr {
    Result<SchemaPtr> schema = lookup(name);
    if (!schema.ok()) {
      if (refused.ok()) refused = schema.status();
      return nullptr;
    }
    if (*schema) schemas[name] = *schema;
    return *schema;
  });
  binder.set_view_name("query");
  Result<PlanPtr> plan = binder.bind(query);
  if (!plan.ok()) {
    // The binder says "unknown table" at the name; the lookup said why.
    if (!refused.ok()) return Status(refused.code(), position_prefix(plan.status().message()) + refused.message());
    return plan.status();
  }
  PlanPtr& root = *plan;
  plan_join_order(root);
  result->schema = root->schema;
  if (LogicalPlan* top = order_node(root)) result->order = top->order;
  prune_columns(*root, std::vector<bool>(root->schema->size(), true));

  AdhocQuery& compiled = *result;
  Planner planner(*compiled.circuit, [&](const std::string& name) -> std::optional<Stream> {
    for (const AdhocQuery::Source& source : compiled.sources) {
      if (source.name == name) return source.input->stream();
    }
    auto schema = schemas.find(name);
    if (schema == schemas.end()) return std::nullopt;
    compiled.sources.push_back({name, add_input(*compiled.circuit, schema->second)});
    return compiled.sources.back().input->stream();
  });
  planner.set_clock_source([&] {
    if (!compiled.clock) compiled.clock = add_clock(*compiled.circuit);
    return compiled.clock;
  });
  Result<Stream> stream = planner.plan(*root);
  if (!stream.ok()) return stream.status();
  compiled.stream = *stream;
  return result;
}

}  // namespace freshet::sql
