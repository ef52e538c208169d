// Test support: a Z-set as an ordered map from (key bytes, value bytes) to a
// weight. Simple enough to be obviously right, so it is the oracle's
// representation for everything the engine computes.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "freshet/types/row.h"
#include "freshet/zset/batch.h"
#include "freshet/zset/cursor.h"

namespace freshet::testing {

using Entry = std::pair<std::string, std::string>;  // (key bytes, value bytes)
using ZSetMap = std::map<Entry, Weight>;

//! map += batch
inline void add_batch(ZSetMap& map, const Batch& batch) {
  for (BatchCursor c(batch); c.valid(); c.next()) {
    Weight& w = map[{c.key().to_bytes(), c.value().to_bytes()}];
    w += c.weight();
    if (w == 0) map.erase({c.key().to_bytes(), c.value().to_bytes()});
  }
}

inline ZSetMap to_map(const Batch& batch) {
  ZSetMap map;
  add_batch(map, batch);
  return map;
}

//! Adds one update, keeping the map free of zero weights.
inline void add_entry(ZSetMap& map, const std::string& key, const std::string& value, Weight weight) {
  Weight& w = map[{key, value}];
  w += weight;
  if (w == 0) map.erase({key, value});
}

//! A readable rendering, for assertion failures.
inline std::string describe(const ZSetMap& map, const Schema& key_schema, const Schema& value_schema) {
  std::string text;
  for (const auto& [entry, weight] : map) {
    text += "  " + RowReader(key_schema, RowRef(entry.first)).to_string();
    if (!value_schema.empty()) text += " -> " + RowReader(value_schema, RowRef(entry.second)).to_string();
    text += " x" + std::to_string(weight) + "\n";
  }
  return text.empty() ? "  (empty)\n" : text;
}

}  // namespace freshet::testing
