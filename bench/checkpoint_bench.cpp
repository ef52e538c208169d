// Checkpoint and restore of the orders workload (issue 5): the keyed SQL
// program (orders ⋈ customers grouped by region, a materialized view), N
// orders loaded; then
//   - checkpoint: encode the state (parts + manifest) and put it into memory,
//     and (natively) into files;
//   - restore: open_pipeline from the stored checkpoint;
//   - size of the checkpoint against the raw data (24 B per order, and per
//     customer 8 B + its region's bytes).
// Baselines in the same run: rebuilding the same state from its input (JSON
// ingest + step), which is what a restart without a checkpoint costs; and
// copying as many bytes as the checkpoint holds into fresh memory (the floor
// of any writer; on these VMs first-touch page faults dominate it).
//
//   usage: checkpoint_bench [orders...]     default: 200000 2000000
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "freshet/checkpoint/checkpoint.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

const char* kProgram = R"(
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW by_region AS
  SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id
  GROUP BY c.region;
)";

constexpr int kCustomers = 1000;
constexpr int kRegions = 10;
constexpr size_t kLoadChunk = 100000;

template <typename T>
T must(freshet::Result<T> result, const char* what) {
  if (!result.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, result.status().to_string().c_str());
    std::exit(1);
  }
  return std::move(*result);
}

struct Input {
  std::string customers;
  std::vector<std::string> order_chunks;
  size_t raw_bytes = 0;
};

Input make_input(size_t orders) {
  Input input;
  input.customers = "[";
  for (int c = 0; c < kCustomers; ++c) {
    std::string region = "region-" + std::to_string(c % kRegions);
    input.customers += (c ? "," : "") + std::string("{\"insert\":{\"id\":") + std::to_string(c) + ",\"region\":\"" +
                       region + "\"}}";
    input.raw_bytes += 8 + region.size();
  }
  input.customers += "]";
  for (size_t begin = 0; begin < orders; begin += kLoadChunk) {
    std::string chunk = "[";
    for (size_t i = begin; i < std::min(orders, begin + kLoadChunk); ++i) {
      chunk += (i > begin ? "," : "") + std::string("{\"insert\":{\"id\":") + std::to_string(i) + ",\"customer\":" +
               std::to_string(static_cast<uint64_t>(i) * 7919 % kCustomers) + ",\"amount\":" + std::to_string(i % 100000) + ".5}}";
    }
    input.order_chunks.push_back(chunk + "]");
  }
  input.raw_bytes += orders * 24;
  return input;
}

std::unique_ptr<freshet::Pipeline> load(const Input& input) {
  auto pipeline = must(freshet::Pipeline::create(kProgram), "create");
  must(pipeline->ingest("customers", input.customers), "ingest customers");
  for (const std::string& chunk : input.order_chunks) {
    must(pipeline->ingest("orders", chunk), "ingest orders");
    must(pipeline->step(), "step");
  }
  return pipeline;
}

void run(size_t orders) {
  Input input = make_input(orders);
  auto start = Clock::now();
  auto pipeline = load(input);
  double rebuild_ms = ms_since(start);

  freshet::MemoryCheckpointStorage memory;
  start = Clock::now();
  freshet::CheckpointInfo info = must(freshet::write_checkpoint(*pipeline, memory), "checkpoint");
  double checkpoint_ms = ms_since(start);

  start = Clock::now();
  auto restored = must(freshet::open_pipeline(kProgram, memory), "restore");
  double restore_ms = ms_since(start);
  if (restored->step_count() != pipeline->step_count()) std::exit(1);

  start = Clock::now();
  std::string copy(info.bytes, '\0');
  for (const auto& [name, bytes] : memory.blobs()) copy.replace(0, bytes.size(), bytes);
  double copy_ms = ms_since(start);

  freshet::SavedState state = must(pipeline->save_state(), "save_state");
  std::string sections;
  for (const auto& section : state.sections) {
    sections += " " + section.name + " " + std::to_string(section.size / 1024) + " KiB";
  }

  size_t parts = 0;
  for (const auto& [name, bytes] : memory.blobs()) parts += freshet::is_checkpoint_manifest(name) ? 0 : 1;
  std::printf("%8zu orders | checkpoint %7.1f ms  restore %7.1f ms  (rebuild from input %8.1f ms: restore is %.1fx faster)\n",
              orders, checkpoint_ms, restore_ms, rebuild_ms, rebuild_ms / restore_ms);
  std::printf("         floor: copying the checkpoint's bytes into fresh memory %.1f ms (checkpoint %.1fx, restore %.1fx)\n",
              copy_ms, checkpoint_ms / copy_ms, restore_ms / copy_ms);
  std::printf("         size %.1f MiB in %zu part(s) = %.2fx the raw data (%.1f MiB); engine memory %.1f MiB\n",
              info.bytes / double(1 << 20), parts, info.bytes / double(input.raw_bytes),
              input.raw_bytes / double(1 << 20), pipeline->memory_bytes() / double(1 << 20));
  std::printf("         sections:%s\n", sections.c_str());
#ifndef __EMSCRIPTEN__
  std::string directory = std::filesystem::temp_directory_path().string() + "/freshet-checkpoint-bench";
  std::filesystem::remove_all(directory);
  freshet::FileCheckpointStorage files(directory);
  start = Clock::now();
  must(freshet::write_checkpoint(*pipeline, files), "checkpoint to files");
  double file_write_ms = ms_since(start);
  start = Clock::now();
  must(freshet::open_pipeline(kProgram, files), "restore from files");
  double file_read_ms = ms_since(start);
  std::printf("         to files: checkpoint %.1f ms, restore %.1f ms\n", file_write_ms, file_read_ms);
  std::filesystem::remove_all(directory);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    for (int i = 1; i < argc; ++i) run(std::strtoull(argv[i], nullptr, 10));
  } else {
    run(200000);
    run(2000000);
  }
}
