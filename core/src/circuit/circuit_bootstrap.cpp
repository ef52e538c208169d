// Bootstrapping (Feldera's word): when a checkpoint is restored into a
// changed program, the operators it has no state for (new ones, and failed
// ones) start empty and are run once over the integrals (full contents) of
// their inputs, which gives them the state they would have had, had they
// been there from the first step (a linear operator of the integral is the
// integral of its outputs; every stateful operator integrates its inputs).
//
//   B = new operators ∪ failed operators
//   while an input s of some op in B comes from p ∉ B that cannot give ∫s:
//     B += p                         (p is rebuilt from scratch too)
//   and while an op ∉ B reads ∫ of its output in the state of an input's
//   producer ∈ B (a DISTINCT in its arrangement): B += op
//   for op in B, in order: boundary inputs carry ∫s; evaluate; end_step
//
// A producer gives ∫s when its state holds it (an upsert table's rows:
// Operator::output_integral) or the host knows it (a restored view's or
// materialized table's trace: the lookup). A source that cannot (a plain
// table's input) never joins B here: the pipeline refuses such a program
// change (program_change.cpp). Delays need nothing: from scratch their
// first output is empty, so their back edges are not followed.
#include <utility>

#include "freshet/circuit/circuit.h"

namespace freshet {

BatchPtr Circuit::integral_of(uint32_t stream, const IntegralLookup& lookup) const {
  if (lookup) {
    if (BatchPtr batch = lookup(stream)) return batch;
  }
  return operators_[producers_[stream]]->output_integral();
}

void Circuit::close_rebuild_set(std::vector<bool>& rebuild, const std::vector<uint32_t>& wanted,
                                const IntegralLookup& lookup) const {
  rebuild.resize(operators_.size(), false);
  for (uint32_t stream : wanted) {
    size_t producer = producers_[stream];
    if (!rebuild[producer] && !integral_of(stream, lookup)) rebuild[producer] = true;
  }
  // Producers come before their readers (but for back edges, skipped), so
  // one pass from the last operator down reaches every producer needed.
  // An operator whose integral is read in its input's state (a DISTINCT in
  // its arrangement) cannot give it once that input is rebuilt (the state
  // starts empty): it is rebuilt too, which may need more producers.
  for (bool grown = true; grown;) {
    grown = false;
    for (size_t i = operators_.size(); i-- > 0;) {
      if (!rebuild[i]) continue;
      for (uint32_t input : nodes_[i].inputs) {
        size_t producer = producers_[input];
        if (producer >= i || rebuild[producer]) continue;
        if (!integral_of(input, lookup)) rebuild[producer] = true;
      }
    }
    for (size_t i = 0; i < operators_.size(); ++i) {
      if (rebuild[i] || !operators_[i]->integral_reads_input()) continue;
      for (uint32_t input : nodes_[i].inputs) {
        size_t producer = producers_[input];
        if (producer < i && rebuild[producer]) rebuild[i] = grown = true;
      }
    }
  }
}

void Circuit::bootstrap(const std::vector<bool>& rebuild, const IntegralLookup& lookup,
                        const std::function<void()>& outputs) {
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (rebuild[i]) failures_.erase(i);
  }
  auto is_boundary = [&](size_t producer, size_t reader) { return producer < reader && !rebuild[producer]; };
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (!rebuild[i]) continue;
    for (uint32_t input : nodes_[i].inputs) {
      if (!is_boundary(producers_[input], i)) continue;
      BatchPtr integral = integral_of(input, lookup);
      slots_[input]->batch = integral ? integral : Batch::empty_batch();
    }
    if (failures_.count(i)) {  // failed earlier in this bootstrap, with what is upstream
      slots_[nodes_[i].output]->batch = Batch::empty_batch();
      continue;
    }
    Status status = evaluate_operator(i);
    if (!status.ok()) {
      fail_operator(i, Status(status.code(), std::string(operators_[i]->name()) + ": " + status.message()));
      slots_[nodes_[i].output]->batch = Batch::empty_batch();
    }
  }
  if (outputs) outputs();
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (rebuild[i] && !failures_.count(i)) operators_[i]->end_step();
  }
  for (std::unique_ptr<StreamSlot>& slot : slots_) slot->batch = Batch::empty_batch();
}

}  // namespace freshet
