#include "freshet/operators/integrate.h"

#include "freshet/operators/delay.h"
#include "freshet/operators/plus.h"

namespace freshet {

Stream integrate(Stream input) {
  DelayOperator* feedback = add_delay(*input.circuit(), input.key_schema_ptr(), input.value_schema_ptr());
  Stream sum = plus(input, feedback->stream());
  feedback->connect(sum);
  return sum;
}

}  // namespace freshet
