#include "freshet/zset/row_column.h"

#include "freshet/common/assert.h"

namespace freshet {

void RowColumn::push_back_with_offsets(RowRef row) {
  if (count_ == 0) width_ = row.size;
  if (ends_.empty() && row.size != width_) {
    // First row of a different length: switch to explicit offsets.
    ends_.reserve(count_ + 1);
    for (size_t i = 1; i <= count_; ++i) ends_.push_back(static_cast<uint32_t>(i * width_));
  }
  bytes_.append(row.data, row.size);
  if (!ends_.empty() || row.size != width_) ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  ++count_;
}

void RowColumn::append_fixed(const uint8_t* rows, uint32_t width, size_t count) {
  if (count == 0) return;
  if (ends_.empty() && (count_ == 0 || width_ == width)) {
    width_ = width;
    bytes_.append(rows, width * count);
    count_ += count;
    return;
  }
  for (size_t i = 0; i < count; ++i) push_back(RowRef(rows + i * width, width));
}

void RowColumn::adopt_fixed(ByteBuffer&& bytes, uint32_t width, size_t count) {
  FRESHET_ASSERT(count_ == 0 && bytes.size() == size_t{width} * count);
  bytes_ = std::move(bytes);
  owner_.reset();
  ends_.clear();
  width_ = width;
  count_ = count;
}

void RowColumn::share_of(const RowColumn& from, std::shared_ptr<const void> owner) {
  FRESHET_ASSERT(count_ == 0);
  bytes_ = ByteBuffer::borrowed(from.bytes_.data(), from.bytes_.size());
  owner_ = std::move(owner);
  ends_ = from.ends_;
  width_ = from.width_;
  count_ = from.count_;
}

void RowColumn::append_empty(size_t count) {
  if (count_ == 0 || (ends_.empty() && width_ == 0)) {
    width_ = 0;
    count_ += count;
    return;
  }
  for (size_t i = 0; i < count; ++i) push_back(RowRef());
}

void RowColumn::append(const RowColumn& from, size_t begin, size_t end) {
  if (begin == end) return;
  if (ends_.empty() && from.ends_.empty() && (count_ == 0 || width_ == from.width_)) {
    width_ = from.width_;
    const uint8_t* first = from.bytes_.data() + begin * from.width_;
    bytes_.append(first, (end - begin) * from.width_);
    count_ += end - begin;
    return;
  }
  // Rows of several lengths: one copy of their bytes all the same, and
  // their ends shifted to where they land.
  if (ends_.empty()) {
    ends_.reserve(count_ + (end - begin));
    for (size_t i = 1; i <= count_; ++i) ends_.push_back(static_cast<uint32_t>(i * width_));
  }
  if (count_ == 0) width_ = from[begin].size;
  const uint8_t* first = from[begin].data;
  const size_t bytes = static_cast<size_t>(from[end - 1].data + from[end - 1].size - first);
  const size_t shift = bytes_.size() - static_cast<size_t>(first - from.bytes_.data());
  bytes_.append(first, bytes);
  for (size_t i = begin; i < end; ++i) {
    const size_t row_end = from.ends_.empty() ? (i + 1) * from.width_ : from.ends_[i];
    ends_.push_back(static_cast<uint32_t>(row_end + shift));
  }
  count_ += end - begin;
}

}  // namespace freshet
