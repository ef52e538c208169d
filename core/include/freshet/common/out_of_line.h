// call_out_of_line<&f>(args...): calls f through a pointer no optimizer sees
// through, so that f stays a wasm function of its own.
//
// Why: Binaryen, the wasm optimizer emcc -O3 runs after linking, inlines
// every function that has exactly one caller, however big (clang's noinline
// does not reach it). The SQL compiler's dispatchers (a parser rule, a
// binder, the planner's plan_node) grew that way into 20-75 KB wasm
// functions that hold every rarely used feature. Liftoff, V8's first tier,
// charges each return its offset in the function (and each loop iteration
// its body's size) against the function's tier-up budget, so V8 compiled
// those giants with TurboFan (0.2-1 s of a core each) during Pipeline.create
// and the load after it, while the main thread waited for a core. A function
// whose address is taken sits in the wasm table, which Binaryen never
// inlines from: it stays small and separate, and V8 tiers it up only if it
// runs much itself.
//
// For rarely taken branches of code that runs once per program (parser,
// binder, planner), never on a hot path: the call is indirect and clang does
// not inline through it either.
#pragma once

#include <functional>
#include <utility>

namespace freshet {

//! `kFunction`, read back through a volatile so that the compilers cannot
//! turn the call into a direct one.
template <auto kFunction>
decltype(kFunction) out_of_line() {
  static decltype(kFunction) const volatile pointer = kFunction;
  return pointer;
}

//! std::invoke(kFunction, args...) through out_of_line(); for a member
//! function the object (or a pointer to it) comes first.
template <auto kFunction, typename... Args>
decltype(auto) call_out_of_line(Args&&... args) {
  return std::invoke(out_of_line<kFunction>(), std::forward<Args>(args)...);
}

}  // namespace freshet
