// libFuzzer target: the checkpoint reader on arbitrary bytes must restore a
// usable pipeline or fail with kCheckpointCorrupt, never crash, hang or read
// out of bounds (see checkpoint_reader_harness.h for how inputs are read).
// Run with `scripts/fuzz.sh checkpoint_reader [seconds]`; inputs that ever
// crashed it live in tests/fuzz/regressions/checkpoint_reader/ and are
// replayed by tests/core/checkpoint/checkpoint_regression_test.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "checkpoint_reader_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  freshet::fuzzing::FuzzOutcome outcome =
      freshet::fuzzing::run_checkpoint_input(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!outcome.error.empty()) {
    std::fprintf(stderr, "%s\n", outcome.error.c_str());
    std::abort();
  }
  return 0;
}
