#include "emporium/engine/error.hpp"

namespace emporium::engine {

Error make_error(const char* code, std::string message) { return Error{code, std::move(message)}; }

}  // namespace emporium::engine
