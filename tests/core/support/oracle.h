// The oracle harness: drives a circuit with random inserts and deletes and,
// after every step, checks that the integral of the circuit's output equals a
// from-scratch evaluation (the reference) on the integral of its inputs.
//
// Seeds are printed and reproducible: FRESHET_SEED=<n> replays one run.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/input.h"
#include "support/zset_map.h"

namespace freshet::testing {

//! The seed for a test: FRESHET_SEED when set, else `fallback`; printed either way.
inline uint64_t test_seed(uint64_t fallback) {
  const char* from_env = std::getenv("FRESHET_SEED");
  uint64_t seed = from_env ? std::strtoull(from_env, nullptr, 10) : fallback;
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::printf("[ seed     ] %s.%s: FRESHET_SEED=%llu\n", info ? info->test_suite_name() : "?",
              info ? info->name() : "?", static_cast<unsigned long long>(seed));
  return seed;
}

//! One input of an oracle run: its schemas and a generator of random entries.
struct OracleInput {
  SchemaPtr key_schema;
  SchemaPtr value_schema = empty_schema();
  //! Writes one random (key, value) entry; small domains make collisions likely.
  std::function<void(std::mt19937_64& random, RowBuilder& key, RowBuilder& value)> generate;
};

struct OracleOptions {
  int steps = 1000;
  int max_updates_per_step = 6;
  //! Chance that an update deletes an existing entry rather than inserting.
  double delete_probability = 0.4;
};

//! The reference: the expected integrated output given the integrated inputs.
using Reference = std::function<ZSetMap(const std::vector<ZSetMap>& inputs)>;
//! Builds the circuit under test on the given input streams.
using BuildCircuit = std::function<Stream(const std::vector<Stream>& inputs)>;

//! Whether the integral of the circuit's output after `step` equals the
//! reference's; if not, a failure naming the step and seed, with both.
inline ::testing::AssertionResult integrated_output_matches(const ZSetMap& expected, const ZSetMap& integrated,
                                                            const Stream& output, int step, uint64_t seed) {
  if (integrated == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "step " << step << " (seed " << seed
                                       << "): integrated output differs from the reference\n"
                                       << "expected:\n"
                                       << describe(expected, output.key_schema(), output.value_schema()) << "actual:\n"
                                       << describe(integrated, output.key_schema(), output.value_schema());
}

//! Runs the oracle; reports the first step whose integrated output differs.
inline void run_oracle(const std::vector<OracleInput>& inputs, const BuildCircuit& build, const Reference& reference,
                       uint64_t seed, OracleOptions options = {}) {
  std::mt19937_64 random(seed);
  Circuit circuit;
  std::vector<InputOperator*> handles;
  std::vector<Stream> streams;
  for (const OracleInput& input : inputs) {
    handles.push_back(add_input(circuit, input.key_schema, input.value_schema));
    streams.push_back(handles.back()->stream());
  }
  Stream output = build(streams);

  std::vector<ZSetMap> integrated_inputs(inputs.size());
  ZSetMap integrated_output;
  for (int step = 0; step < options.steps; ++step) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      RowBuilder key(*inputs[i].key_schema), value(*inputs[i].value_schema);
      int updates = std::uniform_int_distribution<int>(0, options.max_updates_per_step)(random);
      for (int u = 0; u < updates; ++u) {
        ZSetMap& current = integrated_inputs[i];
        bool remove = !current.empty() && std::bernoulli_distribution(options.delete_probability)(random);
        if (remove) {
          auto it = current.begin();
          std::advance(it, std::uniform_int_distribution<size_t>(0, current.size() - 1)(random));
          Entry entry = it->first;
          handles[i]->push(RowRef(entry.first), RowRef(entry.second), -1);
          add_entry(current, entry.first, entry.second, -1);
        } else {
          inputs[i].generate(random, key, value);
          std::string key_bytes = key.finish().to_bytes();
          std::string value_bytes = value.finish().to_bytes();
          Weight weight = std::bernoulli_distribution(0.1)(random) ? 2 : 1;
          handles[i]->push(RowRef(key_bytes), RowRef(value_bytes), weight);
          add_entry(current, key_bytes, value_bytes, weight);
        }
      }
    }
    Status status = circuit.step();
    ASSERT_TRUE(status.ok()) << status.to_string();
    add_batch(integrated_output, *output.current());
    ASSERT_TRUE(integrated_output_matches(reference(integrated_inputs), integrated_output, output, step, seed));
  }
}

}  // namespace freshet::testing
