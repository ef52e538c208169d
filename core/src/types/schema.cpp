#include "freshet/types/schema.h"

namespace freshet {

Schema::Schema(std::vector<Column> columns) : columns_(std::move(columns)) {
  bitmap_bytes_ = static_cast<uint32_t>((columns_.size() + 7) / 8);
  uint32_t offset = bitmap_bytes_;
  offsets_.reserve(columns_.size());
  string_ordinals_.reserve(columns_.size());
  for (const Column& column : columns_) {
    offsets_.push_back(offset);
    offset += fixed_width(column.type.id);
    if (column.type.id == TypeId::kVarchar) {
      string_ordinals_.push_back(static_cast<int32_t>(string_count_++));
    } else {
      string_ordinals_.push_back(-1);
    }
  }
  fixed_bytes_ = offset;
}

std::optional<size_t> Schema::find(std::string_view name) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].name == name) return i;
  }
  return std::nullopt;
}

Schema Schema::concat(const Schema& other) const {
  std::vector<Column> columns = columns_;
  columns.insert(columns.end(), other.columns_.begin(), other.columns_.end());
  return Schema(std::move(columns));
}

std::string Schema::to_string() const {
  std::string text = "(";
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i > 0) text += ", ";
    text += columns_[i].name + " " + columns_[i].type.to_string();
  }
  return text + ")";
}

}  // namespace freshet
