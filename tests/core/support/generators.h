// Test support: schemas and random row generators shared by operator tests.
#pragma once

#include <random>

#include "support/oracle.h"

namespace freshet::testing {

//! (k BIGINT, x BIGINT, s VARCHAR): a small key domain, nullable columns.
inline SchemaPtr kxs_schema() {
  static const SchemaPtr kSchema =
      make_schema({{"k", SqlType::bigint()}, {"x", SqlType::bigint()}, {"s", SqlType::varchar()}});
  return kSchema;
}

//! (k BIGINT): the key schema of indexed test streams.
inline SchemaPtr bigint_schema() {
  static const SchemaPtr kSchema = make_schema({{"k", SqlType::bigint()}});
  return kSchema;
}

//! Writes a random (k, x, s) row: k in [0, key_domain), x in [-5, 5], s from
//! a few strings, each column NULL sometimes.
inline void random_kxs(std::mt19937_64& random, RowBuilder& row, int key_domain = 8) {
  auto null_now = [&] { return std::bernoulli_distribution(0.08)(random); };
  if (null_now()) row.set_null(0); else row.set_int(0, std::uniform_int_distribution<int>(0, key_domain - 1)(random));
  if (null_now()) row.set_null(1); else row.set_int(1, std::uniform_int_distribution<int>(-5, 5)(random));
  static const char* kStrings[] = {"", "a", "ab", "b", "long string value", "z"};
  if (null_now()) row.set_null(2); else row.set_string(2, kStrings[random() % 6]);
}

//! A Z-set input of (k, x, s) rows.
inline OracleInput kxs_input(int key_domain = 8) {
  return {kxs_schema(), empty_schema(),
          [key_domain](std::mt19937_64& random, RowBuilder& key, RowBuilder&) { random_kxs(random, key, key_domain); }};
}

//! An indexed input: key (k BIGINT), value (k, x, s) rows with that k.
inline OracleInput indexed_kxs_input(int key_domain = 8) {
  return {bigint_schema(), kxs_schema(), [key_domain](std::mt19937_64& random, RowBuilder& key, RowBuilder& value) {
            random_kxs(random, value, key_domain);
            RowRef row = value.finish();
            std::string bytes = row.to_bytes();
            RowReader reader(*kxs_schema(), RowRef(bytes));
            key.copy_field(0, reader, 0);
            for (size_t c = 0; c < 3; ++c) value.copy_field(c, reader, c);
          }};
}

//! The output of the join tests: key k, value (left x, right s), right NULL when unmatched.
inline SchemaPtr joined_schema() {
  static const SchemaPtr kSchema = make_schema({{"lx", SqlType::bigint()}, {"rs", SqlType::varchar()}});
  return kSchema;
}

//! The JoinMapper of the join tests, writing joined_schema() rows from (k, x, s) inputs.
inline void write_joined(const RowReader& key, const RowReader& left, const RowReader* right, RowBuilder& out_key,
                         RowBuilder& out_value) {
  out_key.copy_field(0, key, 0);
  out_value.copy_field(0, left, 1);
  if (right) {
    out_value.copy_field(1, *right, 2);
  } else {
    out_value.set_null(1);
  }
}

}  // namespace freshet::testing
