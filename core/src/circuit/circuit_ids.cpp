// Operator ids (operator_ids.h) and the circuit's checkpoint section by id.
//
// Section 'circuit', format 7: step count, operator count, then per operator
// its id, its kind (name()), the length of its state and the state. Formats
// 4 to 6 wrote no ids: they are read by position (Circuit::restore_state).
#include <cstdio>
#include <utility>

#include "freshet/circuit/circuit.h"
#include "freshet/common/hash.h"

namespace freshet {

// The key of the innermost scope and the operator's order in it (counted
// over every scope with that key, so that a sub-plan planned twice, as
// without sharing, still names each operator once).
std::string Circuit::next_operator_id() {
  std::string key = id_scopes_.empty() ? std::string("(no scope)") : id_scopes_.back();
  size_t order = id_counts_[key]++;
  key += '#';
  key += std::to_string(order);
  uint64_t hash = hash_bytes(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  char text[17];
  std::snprintf(text, sizeof text, "%012llx", static_cast<unsigned long long>(hash >> 16));
  return text;
}

std::optional<size_t> Circuit::operator_with_id(std::string_view id) const {
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (ids_[i] == id) return i;
  }
  return std::nullopt;
}

// States are written in place (the length patched in after), never copied.
void Circuit::save_state(ByteWriter& out) const {
  out.u64(step_count_);
  out.varint(operators_.size());
  for (size_t i = 0; i < operators_.size(); ++i) {
    out.bytes(ids_[i]);
    out.bytes(operators_[i]->name());
    size_t length_at = out.size();
    out.u64(0);
    operators_[i]->save_state(out);
    out.patch_u64(length_at, out.size() - length_at - 8);
  }
}

namespace {

struct SavedOperator {
  std::string_view id, kind, state;
};

// Reads a format-7 section: the step count and the operators, in order.
Result<std::vector<SavedOperator>> read_operators(std::string_view bytes, uint64_t* steps) {
  ByteReader in(bytes, "circuit state");
  uint64_t step_count = in.u64();
  size_t count = in.count(10);
  std::vector<SavedOperator> saved;
  for (size_t i = 0; i < count && in.ok(); ++i) {
    SavedOperator op;
    op.id = in.bytes();
    op.kind = in.bytes();
    uint64_t length = in.u64();
    if (in.ok() && length > in.remaining()) in.fail("operator " + std::string(op.id) + "'s state runs past the end");
    op.state = in.raw(static_cast<size_t>(length));
    if (in.ok()) saved.push_back(op);
  }
  in.expect_end();
  if (!in.ok()) return in.status();
  if (steps) *steps = step_count;
  return saved;
}

}  // namespace

// Whether a circuit section is format 7's: its first operator is named by
// an id (12 hex digits), never a kind's name (a word: "map", "input"), as
// formats 4 to 6 name it. Circuit::restore_state reads both.
bool circuit_section_has_ids(std::string_view bytes) {
  ByteReader in(bytes, "circuit state");
  in.u64();
  if (in.varint() == 0 || !in.ok()) return false;
  std::string_view first = in.bytes();
  if (!in.ok() || first.size() != 12) return false;
  for (char c : first) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Format 7 into the same circuit: every operator must be there.
Status restore_every_operator(Circuit& circuit, std::string_view bytes) {
  std::vector<bool> restored;
  FRESHET_RETURN_IF_ERROR(circuit.restore_state_by_id(bytes, restored));
  Result<std::map<std::string, std::string>> ids = Circuit::saved_ids(bytes);
  if (!ids.ok()) return ids.status();
  for (size_t i = 0; i < restored.size(); ++i) {
    if (!restored[i]) {
      return Status(ErrorCode::kCheckpointCorrupt, "circuit state: operator " + circuit.operator_id(i) + " (" +
                                                       circuit.operator_at(i).name() + ") is not in it");
    }
  }
  if (ids->size() != restored.size()) {
    return Status(ErrorCode::kCheckpointCorrupt, "circuit state: it holds " + std::to_string(ids->size()) +
                                                     " operators, the circuit has " + std::to_string(restored.size()));
  }
  return Status::OK();
}

Result<std::map<std::string, std::string>> Circuit::saved_ids(std::string_view bytes) {
  Result<std::vector<SavedOperator>> saved = read_operators(bytes, nullptr);
  if (!saved.ok()) return saved.status();
  std::map<std::string, std::string> ids;
  for (const SavedOperator& op : *saved) ids.emplace(std::string(op.id), std::string(op.kind));
  return ids;
}

Status Circuit::restore_state_by_id(std::string_view bytes, std::vector<bool>& restored) {
  uint64_t steps = 0;
  Result<std::vector<SavedOperator>> saved = read_operators(bytes, &steps);
  if (!saved.ok()) return saved.status();
  // On entry `restored`, when not empty, says which operators to restore
  // (the others are rebuilt from scratch: they must stay fresh).
  const std::vector<bool> wanted = restored;
  restored.assign(operators_.size(), false);
  std::map<std::string_view, const SavedOperator*> by_id;
  for (const SavedOperator& op : *saved) {
    if (!by_id.emplace(op.id, &op).second) {
      return Status(ErrorCode::kCheckpointCorrupt, "circuit state: operator id " + std::string(op.id) + " occurs twice");
    }
  }
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (!wanted.empty() && !wanted[i]) continue;
    auto found = by_id.find(ids_[i]);
    // Another kind under the same id (a hash collision, or an operator
    // whose kind changed in the engine): it starts afresh, as a new one.
    if (found == by_id.end() || found->second->kind != operators_[i]->name()) continue;
    ByteReader op_in(found->second->state, "state of operator " + ids_[i] + " (" + operators_[i]->name() + ")");
    operators_[i]->restore_state(op_in);
    op_in.expect_end();
    if (!op_in.ok()) return op_in.status();
    restored[i] = true;
  }
  step_count_ = steps;
  return Status::OK();
}

}  // namespace freshet
