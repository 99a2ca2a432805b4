// Installs the shipped Merkator data before main(), so every test (the generic ones included) can create games.
#include <cstdio>

#include "merkator_data.hpp"

namespace {
const bool installed = [] {
  auto catalog = emporium::engine::testing::shipped_merkator_catalog();
  if (!catalog) std::fprintf(stderr, "could not load %s\n", EMPORIUM_MERKATOR_DATA);
  emporium::engine::merkator::install_catalog(catalog);
  return catalog != nullptr;
}();
}  // namespace
