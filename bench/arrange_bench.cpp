// Benchmark of shared arrangements (arrange.h, plan_arrange.cpp) and of
// materialized views that read their producer's rows (held_output.h), on a
// dashboard-like program over orders ⋈ customers: group-bys by different
// keys, joins that differ above one side (a filter pushed to the other
// side, a LEFT JOIN), DISTINCTs, INTERSECT and EXCEPT over the columns a
// DISTINCT reads, a DISTINCT and an EXCEPT over one projection of the
// orders, a NOT EXISTS, indexed aggregates, materialized views. The
// same program runs compiled with shared arrangements and without (each
// join, DISTINCT and set operation arranging its own inputs), in one process.
// Reports the state per operator kind, the materialized views' bytes (and
// what a copy of the rows they read from their producer would take), and
// per-change latency of the orders workload (orders_workload.h).
//
//   usage: arrange_bench [orders]      default: 200000
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "freshet/pipeline/pipeline.h"
#include "freshet/zset/trace.h"
#include "orders_workload.h"

namespace {

using namespace freshet::bench;
using freshet::RowRef;

const char* kProgram = R"(
CREATE TABLE customers (id BIGINT NOT NULL, region VARCHAR);
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW by_region AS SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total
  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE MATERIALIZED VIEW per_customer AS SELECT o.customer, SUM(o.amount) AS total, COUNT(*) AS n
  FROM orders o GROUP BY o.customer;
CREATE MATERIALIZED VIEW north_orders AS SELECT o.id, o.amount FROM orders o JOIN customers c ON o.customer = c.id
  WHERE c.region = 'region-1';
CREATE MATERIALIZED VIEW big_by_region AS SELECT c.region, MAX(o.amount) AS top
  FROM orders o JOIN customers c ON o.customer = c.id WHERE c.region <> 'region-2' GROUP BY c.region;
CREATE MATERIALIZED VIEW with_customer AS SELECT o.id, c.region FROM orders o LEFT JOIN customers c ON o.customer = c.id
  WHERE o.amount > 990;
CREATE MATERIALIZED VIEW buyers AS SELECT DISTINCT o.customer FROM orders o;
CREATE MATERIALIZED VIEW active_regions AS SELECT DISTINCT c.region FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW amount_by_customer AS SELECT o.customer, AVG(o.amount) AS mean
  FROM orders o JOIN customers c ON o.customer = c.id WHERE c.region <> 'region-3' GROUP BY o.customer;
CREATE MATERIALIZED VIEW known_buyers AS SELECT o.customer FROM orders o INTERSECT SELECT c.id FROM customers c;
CREATE MATERIALIZED VIEW lapsed AS SELECT c.id FROM customers c EXCEPT SELECT o.customer FROM orders o;
CREATE MATERIALIZED VIEW no_big_orders AS SELECT c.id FROM customers c
  WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer = c.id AND o.amount > 999);
CREATE INDEX by_region_idx ON by_region(region);
CREATE MATERIALIZED VIEW sales AS SELECT DISTINCT o.customer, o.amount FROM orders o;
CREATE MATERIALIZED VIEW small_sales AS SELECT o.customer, o.amount FROM orders o
  EXCEPT SELECT o.customer, o.amount FROM orders o WHERE o.amount > 100;
CREATE VIEW per_order AS SELECT o.id, COUNT(*) AS n, SUM(o.amount) AS total FROM orders o GROUP BY o.id;
CREATE INDEX per_order_idx ON per_order(id);
)";

// The program as an Engine of orders_workload.h (a Pipeline, so that the
// materialized views are kept); delta() is by_region's.
struct Dashboard {
  std::unique_ptr<freshet::Pipeline> pipeline;
  const freshet::sql::CompiledTable *customers, *orders;

  explicit Dashboard(bool share_arrangements) {
    freshet::sql::CompileOptions options;
    options.share_arrangements = share_arrangements;
    auto created = freshet::Pipeline::create(kProgram, options);
    if (!created.ok()) {
      std::fprintf(stderr, "%s\n", created.status().to_string().c_str());
      std::exit(1);
    }
    pipeline = std::move(*created);
    customers = pipeline->program().find_table("customers");
    orders = pipeline->program().find_table("orders");
  }
  void push_customer(const std::string& row) { customers->input->push_row(RowRef(row), 1); }
  void push_order(const std::string& row, freshet::Weight weight) { orders->input->push_row(RowRef(row), weight); }
  void step() {
    if (!pipeline->step().ok()) std::abort();
  }
  const freshet::Batch& delta() const { return *pipeline->program().views[0].stream.current(); }
  size_t state_bytes() const { return pipeline->memory_bytes(); }

  //! State bytes per operator name, and how many operators have each name.
  std::map<std::string, std::pair<size_t, size_t>> state_by_operator() const {
    std::map<std::string, std::pair<size_t, size_t>> out;
    const freshet::Circuit& circuit = *pipeline->program().circuit;
    for (size_t i = 0; i < circuit.operator_count(); ++i) {
      auto& [bytes, count] = out[circuit.operator_at(i).name()];
      bytes += circuit.operator_at(i).state_bytes();
      ++count;
    }
    return out;
  }
  size_t circuit_bytes() const { return pipeline->program().circuit->state_bytes(); }
  size_t view_bytes() const { return pipeline->memory_bytes() - circuit_bytes(); }
  //! What the materialized views would hold as copies of their rows: a
  //! trace of each one's snapshot (how a view kept its rows before).
  size_t copied_view_bytes() const {
    size_t total = 0;
    for (const auto& view : pipeline->program().views) {
      auto rows = pipeline->snapshot(view.name);
      if (!rows.ok()) continue;  // not materialized
      freshet::Trace copy;
      copy.insert(*rows);
      total += copy.memory_bytes();
    }
    return total;
  }
};

double mib(size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

void print_state(const char* label, const Dashboard& engine) {
  std::printf("  %s state by operator:", label);
  for (const auto& [name, figures] : engine.state_by_operator()) {
    if (figures.first > 0) std::printf(" %s x%zu %.2f MiB;", name.c_str(), figures.second, mib(figures.first));
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  size_t orders = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  Workload work(orders);
  Dashboard shared(true), separate(false);
  EngineResult with = run_workload(shared, work);
  EngineResult without = run_workload(separate, work);

  std::printf("arrange_bench: %zu views over orders ⋈ customers, %zu orders, %d customers\n",
              shared.pipeline->program().views.size(), orders, kCustomers);
  print_state("shared arrangements", shared);
  print_state("own arrangements   ", separate);
  std::printf("  circuit state: shared %.2f MiB, own %.2f MiB (%.2fx less)\n", mib(shared.circuit_bytes()),
              mib(separate.circuit_bytes()), static_cast<double>(separate.circuit_bytes()) / shared.circuit_bytes());
  std::printf("  materialized views: %.3f MiB held (a copy of their rows would be %.3f MiB)\n",
              mib(shared.view_bytes()), mib(shared.copied_view_bytes()));
  const size_t before = separate.circuit_bytes() + shared.copied_view_bytes();
  std::printf("  pipeline memory: %.2f MiB, before both changes ~%.2f MiB (%.2fx less)\n", mib(with.state_bytes),
              mib(before), static_cast<double>(before) / with.state_bytes);
  std::printf("  per change p50 / p99: shared %.2f / %.2f us, own %.2f / %.2f us (own/shared p50 %.2fx)\n",
              with.latency.p50_us, with.latency.p99_us, without.latency.p50_us, without.latency.p99_us,
              without.latency.p50_us / with.latency.p50_us);
  std::printf("  load: shared %.0f ms, own %.0f ms\n", with.load_ms, without.load_ms);
  for (const auto& view : shared.pipeline->program().views) {
    auto a = shared.pipeline->snapshot(view.name), b = separate.pipeline->snapshot(view.name);
    if (a.ok() != b.ok() || (a.ok() && (*a)->size() != (*b)->size())) {
      std::fprintf(stderr, "view %s differs between the two programs\n", view.name.c_str());
      return 1;
    }
  }
  return 0;
}
