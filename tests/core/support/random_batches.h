// Test support: one-column BIGINT rows, and random batches of them, for the
// tests of batches, traces and merges (a merge of them against another
// merge, or against a model).
#pragma once

#include <random>
#include <string>

#include "freshet/zset/batch_builder.h"
#include "support/oracle.h"

namespace freshet::testing {

//! The row (x BIGINT NOT NULL) holding `value`.
inline std::string bigint_row(int64_t value) {
  static const Schema kSchema({{"x", SqlType::bigint(false)}});
  return encode_row(kSchema, {Value::bigint(value)});
}

//! `updates` updates of keys from [0, keys) with values from [0, values)
//! (several values a key; with `values` 0, an empty value: a Z-set), some
//! weights negative so that the entries of two such batches cancel.
inline BatchPtr random_batch(std::mt19937_64& random, size_t updates, int64_t keys, int64_t values) {
  BatchBuilder builder;
  for (size_t i = 0; i < updates; ++i) {
    std::string key = bigint_row(static_cast<int64_t>(random() % keys));
    std::string value = values == 0 ? std::string() : bigint_row(static_cast<int64_t>(random() % values));
    builder.add(RowRef(key), RowRef(value), random() % 4 == 0 ? -1 : 1);
  }
  return builder.finish();
}

}  // namespace freshet::testing
