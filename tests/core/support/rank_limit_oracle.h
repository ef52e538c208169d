// An oracle run for the rank-limited operators (top_k, a window with a rank
// limit), which keep what they read of each partition's first positions
// between steps and skip a partition whose change lands past them. The
// changes are chosen to probe that skip: partitions that grow well past k
// (most changes land past the first positions), ties on the ORDER BY column
// (rows that differ only after it), weights up to 3 and partial deletes, rows
// deleted inside the first positions, upserts (a row deleted and another
// inserted in one partition in one step), rows of negative weight, and a
// checkpoint restored over a later state (what the operator kept of the
// later state must not survive). After every step the integral of the output
// is compared with the reference on the integral of the input.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "freshet/common/byte_io.h"
#include "support/generators.h"
#include "support/oracle.h"

namespace freshet::testing {

struct RankLimitRunOptions {
  int steps = 450;
  int partitions = 3;
  int x_domain = 6;  //!< ORDER BY values 0 .. x_domain - 1: small, so ties are common
  int save_at = 150, restore_at = 300;
  int check_every = 1;
  //! Rows per partition inserted in the first step (many partitions at once
  //! overflow what an operator keeps of them).
  int initial_rows = 0;
};

//! A (p, x, s) row of kxs_schema() in partition p.
inline std::string rank_limit_row(std::mt19937_64& random, int64_t p, int x_domain) {
  static const char* kStrings[] = {"", "a", "ab", "b", "ba", "c", "d", "e", "long string value", "z"};
  RowBuilder row(*kxs_schema());
  row.set_int(0, p);
  if (std::bernoulli_distribution(0.05)(random)) {
    row.set_null(1);
  } else {
    row.set_int(1, std::uniform_int_distribution<int64_t>(0, x_domain - 1)(random));
  }
  row.set_string(2, kStrings[random() % 10]);
  return row.finish().to_bytes();
}

//! Runs `build` (on an input keyed by the partition p, values kxs rows) and
//! checks it against `reference`. `at_end` runs after the last step, while
//! the circuit (and whatever its operators hold) is still alive.
inline void run_rank_limit_oracle(const BuildCircuit& build, const Reference& reference, uint64_t seed,
                                  RankLimitRunOptions options = {}, const std::function<void()>& at_end = {}) {
  std::mt19937_64 random(seed);
  Circuit circuit;
  InputOperator* input = add_input(circuit, bigint_schema(), kxs_schema());
  Stream output = build({input->stream()});
  ZSetMap integrated_input, integrated_output;
  ByteWriter saved;
  ZSetMap saved_input, saved_output;

  auto partition_key = [](int64_t p) {
    RowBuilder key(*bigint_schema());
    key.set_int(0, p);
    return key.finish().to_bytes();
  };
  auto push = [&](int64_t p, const std::string& row, Weight weight) {
    std::string key = partition_key(p);
    input->push(RowRef(key), RowRef(row), weight);
    add_entry(integrated_input, key, row, weight);
  };
  // A live row (weight > 0) of partition p, if any.
  auto live_row = [&](int64_t p) -> std::optional<std::pair<std::string, Weight>> {
    std::vector<std::pair<std::string, Weight>> live;
    const std::string key = partition_key(p);
    for (const auto& [entry, weight] : integrated_input) {
      if (entry.first == key && weight > 0) live.push_back({entry.second, weight});
    }
    if (live.empty()) return std::nullopt;
    return live[std::uniform_int_distribution<size_t>(0, live.size() - 1)(random)];
  };

  for (int step = 0; step < options.steps; ++step) {
    if (step == options.save_at) {
      circuit.save_state(saved);
      saved_input = integrated_input;
      saved_output = integrated_output;
    }
    if (step == options.restore_at) {
      Status restored = circuit.restore_state(saved.data());
      ASSERT_TRUE(restored.ok()) << restored.to_string();
      integrated_input = saved_input;
      integrated_output = saved_output;
    }
    if (step == 0) {
      for (int64_t p = 0; p < options.partitions; ++p) {
        for (int r = 0; r < options.initial_rows; ++r) push(p, rank_limit_row(random, p, options.x_domain), 1);
      }
    }
    int changes = std::uniform_int_distribution<int>(1, 4)(random);
    for (int c = 0; c < changes; ++c) {
      int64_t p = std::uniform_int_distribution<int64_t>(0, options.partitions - 1)(random);
      int kind = std::uniform_int_distribution<int>(0, 99)(random);
      auto existing = kind < 55 ? std::nullopt : live_row(p);
      if (kind < 55 || !existing) {  // insert, weight 1 to 3
        push(p, rank_limit_row(random, p, options.x_domain), std::uniform_int_distribution<Weight>(1, 3)(random));
      } else if (kind < 75) {  // delete some of a row's weight
        push(p, existing->first, -std::uniform_int_distribution<Weight>(1, existing->second)(random));
      } else if (kind < 95) {  // upsert: the row out, another in
        push(p, existing->first, -existing->second);
        push(p, rank_limit_row(random, p, options.x_domain), 1);
      } else {  // a row of negative weight: it occupies no position
        push(p, rank_limit_row(random, p, options.x_domain), -1);
      }
    }
    Status status = circuit.step();
    ASSERT_TRUE(status.ok()) << status.to_string();
    add_batch(integrated_output, *output.current());
    if (step % options.check_every != 0 && step + 1 != options.steps) continue;
    ASSERT_TRUE(integrated_output_matches(reference({integrated_input}), integrated_output, output, step, seed));
  }
  if (at_end) at_end();
}

}  // namespace freshet::testing
