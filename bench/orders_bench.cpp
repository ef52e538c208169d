// Benchmarks of the core on the orders/customers workload (issue 2):
//
//   customers(id, region): 1,000 rows over 10 regions
//   orders(id, customer, amount): N rows
//   view: orders ⋈ customers grouped by region with COUNT(*) and SUM(amount)
//
// After loading, 1,000 single-row changes alternate an insert of a new order
// and an update of an existing one (delete old + insert new). Each change is
// timed from pushing it to having the view's delta in hand.
//
// Every figure is printed next to a baseline measured in the same run (these
// machines are noisy): a hand-written C++ hash map maintaining the same
// aggregate directly, the floor no general engine can beat.
//
//   usage: orders_bench [orders...]      default: 20000 200000 2000000
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "freshet/zset/batch_builder.h"
#include "orders_workload.h"

namespace {

using namespace freshet::bench;

// The floor: a hash map from region to (count, sum), updated in place.
EngineResult run_baseline(const Workload& work) {
  std::vector<std::string> region_of(kCustomers);
  for (int c = 0; c < kCustomers; ++c) region_of[c] = "region-" + std::to_string(c % kRegions);
  std::unordered_map<std::string, std::pair<int64_t, double>> by_region;
  auto start = Clock::now();
  for (const Order& o : work.load) {
    auto& group = by_region[region_of[o.customer]];
    group.first += 1;
    group.second += o.amount;
  }
  double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  std::vector<double> nanos;
  for (int i = 0; i < kChanges; ++i) {
    auto begin = Clock::now();
    if (i % 2 == 0) {
      const Order& o = work.inserts[i / 2];
      auto& group = by_region[region_of[o.customer]];
      group.first += 1;
      group.second += o.amount;
    } else {
      const auto& [old, updated] = work.updates[i / 2];
      auto& before = by_region[region_of[old.customer]];
      before.first -= 1;
      before.second -= old.amount;
      auto& after = by_region[region_of[updated.customer]];
      after.first += 1;
      after.second += updated.amount;
    }
    nanos.push_back(std::chrono::duration<double, std::nano>(Clock::now() - begin).count());
  }
  return {percentiles(nanos), load_ms, 0};
}

// 1M random updates consolidated by BatchBuilder, against std::sort of the
// same (key, weight) pairs as plain integers.
void bench_consolidation() {
  constexpr int kUpdates = 1'000'000;
  freshet::SchemaPtr schema = freshet::make_schema({{"k", freshet::SqlType::bigint(false)}});
  std::mt19937_64 random(7);
  std::vector<std::pair<int64_t, int64_t>> updates;
  for (int i = 0; i < kUpdates; ++i) updates.push_back({static_cast<int64_t>(random() % 500000), random() % 2 ? 1 : -1});

  freshet::RowBuilder row(*schema);
  auto start = Clock::now();
  freshet::BatchBuilder builder;
  for (const auto& [key, weight] : updates) {
    row.set_int(0, key);
    builder.add_row(row.finish(), weight);
  }
  freshet::BatchPtr batch = builder.finish();
  double freshet_s = std::chrono::duration<double>(Clock::now() - start).count();

  start = Clock::now();
  std::vector<std::pair<int64_t, int64_t>> sorted = updates;
  std::sort(sorted.begin(), sorted.end());
  double sort_s = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("\nconsolidation of %d random updates (500k distinct keys): %.1f M updates/s "
              "(%zu entries out); baseline std::sort of int pairs: %.1f M/s; ratio %.2fx\n",
              kUpdates, kUpdates / freshet_s / 1e6, batch->size(), kUpdates / sort_s / 1e6, freshet_s / sort_s);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {20000, 200000, 2000000};

  std::printf("orders ⋈ customers grouped by region, %d single-row changes (alternating insert / update)\n\n",
              kChanges);
  std::printf("%10s | %9s %9s | %9s %9s | %8s %8s | %10s | %11s | %s\n", "orders", "p50 us", "p99 us", "base p50",
              "base p99", "p50 x", "load ms", "state MiB", "bytes/order", "x raw");
  double first_p50 = 0, last_p50 = 0;
  for (size_t orders : sizes) {
    Workload work(orders);
    EngineResult freshet = run_hand_built(work);
    EngineResult baseline = run_baseline(work);
    double per_order = static_cast<double>(freshet.state_bytes) / static_cast<double>(orders);
    std::printf("%10zu | %9.2f %9.2f | %9.3f %9.3f | %8.1f %8.0f | %10.1f | %11.1f | %.2f\n", orders,
                freshet.latency.p50_us, freshet.latency.p99_us, baseline.latency.p50_us, baseline.latency.p99_us,
                freshet.latency.p50_us / baseline.latency.p50_us, freshet.load_ms,
                static_cast<double>(freshet.state_bytes) / (1 << 20), per_order, per_order / kRawOrderBytes);
    if (first_p50 == 0) first_p50 = freshet.latency.p50_us;
    last_p50 = freshet.latency.p50_us;
  }
  if (sizes.size() > 1) {
    std::printf("\np50 at %zu orders / p50 at %zu orders: %.2f (cost follows the change when close to 1)\n",
                sizes.back(), sizes.front(), last_p50 / first_p50);
  }
  bench_consolidation();
  return 0;
}
