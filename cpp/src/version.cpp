// Library identity, so that the core library always has at least one translation unit.
#include "rummy101/version.hpp"

namespace rummy101 {
const char* version() { return "0.1.0"; }
}  // namespace rummy101
