#include "test_abort.h"

#include <emscripten/em_macros.h>

#include <cstdlib>

namespace freshet::wasm {
namespace {
AbortPoint armed = AbortPoint::kNone;
}  // namespace

void abort_if_armed(AbortPoint point) {
  if (armed != point) return;
  armed = AbortPoint::kNone;
  std::abort();
}

}  // namespace freshet::wasm

extern "C" EMSCRIPTEN_KEEPALIVE void freshet_test_arm_abort(int point) {
  freshet::wasm::armed = static_cast<freshet::wasm::AbortPoint>(point);
}
