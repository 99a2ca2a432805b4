#pragma once
// The engine speaks nlohmann::json at its boundary: actions, views and events.
#include <nlohmann/json.hpp>

namespace emporium::engine {
using Json = nlohmann::json;
}
