#include "freshet/operators/differentiate.h"

#include "freshet/operators/delay.h"
#include "freshet/operators/plus.h"

namespace freshet {

Stream differentiate(Stream input) { return minus(input, delay(input)); }

}  // namespace freshet
