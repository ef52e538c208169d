// The circuit's graph: which streams each operator reads and writes.
//
// Every factory declares an operator's inputs when it adds it, and a delay
// its back edge when it is connected; the circuit walks these edges to find
// what is downstream of a failed operator. A test (circuit_graph_test.cpp)
// runs programs with set_check_inputs, which hides every undeclared stream,
// and compares with a plain run: an input a factory forgot shows there.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "freshet/circuit/circuit.h"
#include "freshet/common/assert.h"

namespace freshet {

namespace {
constexpr size_t kNoProducer = SIZE_MAX;
}  // namespace

void Circuit::add_node(std::unique_ptr<Operator> op, const std::vector<Stream>& inputs, Stream output) {
  FRESHET_ASSERT(output.circuit() == this && output.id() < slots_.size());
  Node node;
  for (const Stream& input : inputs) {
    FRESHET_ASSERT(input.circuit() == this && input.id() < slots_.size());
    node.inputs.push_back(input.id());
  }
  node.output = output.id();
  if (producers_.size() < slots_.size()) producers_.resize(slots_.size(), kNoProducer);
  FRESHET_ASSERT(producers_[output.id()] == kNoProducer);
  producers_[output.id()] = operators_.size();
  ids_.push_back(next_operator_id());
  operators_.push_back(std::move(op));
  nodes_.push_back(std::move(node));
}

void Circuit::add_input(const Operator* op, Stream input) {
  FRESHET_ASSERT(input.circuit() == this && input.id() < slots_.size());
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (operators_[i].get() == op) {
      nodes_[i].inputs.push_back(input.id());
      return;
    }
  }
  FRESHET_ASSERT(false && "add_input: the operator is not in this circuit");
}

std::vector<size_t> Circuit::consumers_of(size_t index) const {
  std::vector<size_t> consumers;
  const uint32_t output = nodes_[index].output;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const std::vector<uint32_t>& inputs = nodes_[i].inputs;
    if (std::find(inputs.begin(), inputs.end(), output) != inputs.end()) consumers.push_back(i);
  }
  return consumers;
}

// Back edges (a delay's input comes later) make the graph cyclic, so this is
// a search with a visited set rather than one forward pass.
std::vector<size_t> Circuit::downstream_of(size_t index) const {
  std::vector<bool> seen(nodes_.size(), false);
  std::vector<size_t> pending{index};
  seen[index] = true;
  while (!pending.empty()) {
    size_t at = pending.back();
    pending.pop_back();
    for (size_t consumer : consumers_of(at)) {
      if (!seen[consumer]) {
        seen[consumer] = true;
        pending.push_back(consumer);
      }
    }
  }
  std::vector<size_t> result;
  for (size_t i = 0; i < seen.size(); ++i) {
    if (seen[i]) result.push_back(i);
  }
  return result;
}

Status Circuit::evaluate_with_only_inputs(size_t index) {
  const Node& node = nodes_[index];
  std::vector<std::pair<uint32_t, BatchPtr>> hidden;
  for (uint32_t id = 0; id < slots_.size(); ++id) {
    if (id == node.output || std::find(node.inputs.begin(), node.inputs.end(), id) != node.inputs.end()) continue;
    hidden.emplace_back(id, std::exchange(slots_[id]->batch, Batch::empty_batch()));
  }
  Status status = evaluate_operator(index);
  for (auto& [id, batch] : hidden) slots_[id]->batch = std::move(batch);
  return status;
}

}  // namespace freshet
