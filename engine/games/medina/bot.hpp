#pragma once
// Medina's computer player; bot.cpp says what it assumes about what a seat cannot see.
#include "emporium/engine/game_bot.hpp"

namespace emporium::engine::medina {

const bot::GameBot& bot();

}  // namespace emporium::engine::medina
