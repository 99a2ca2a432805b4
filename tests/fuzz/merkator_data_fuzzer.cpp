// libFuzzer target: Merkator's data loader (read_data_text, the part of load_data_file after reading the
// file, and parse_catalog under it). Two kinds of input:
//  - text that starts like JSON ('{' or white space): the file's text as it is (the shipped file is a seed);
//  - anything else: up to 8 changes to the shipped file's JSON, each at a node chosen by the input (a value
//    replaced by another of any kind, by a copy of another node, a number nudged, an entry removed), so the
//    checks deep inside the catalog are reached.
// What must hold: the loader never throws or crashes, and a refusal has a message naming the file. A catalog
// it accepts must make working games: every player count can be set up, and random play on it keeps the
// engine's promises (fuzz_support.hpp: legal moves apply, refusals change nothing, views serialize).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "emporium/engine/rng.hpp"
#include "fuzz_support.hpp"
#include "merkator/data_file.hpp"
#include "merkator/merkator.hpp"

using namespace emporium_fuzz;
namespace merkator = emporium::engine::merkator;

namespace {

Json shipped;                             // the shipped data file
std::vector<Json::json_pointer> nodes;    // every node in it, root first

void collect(const Json& j, const Json::json_pointer& at) {
  nodes.push_back(at);
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) collect(value, at / key);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collect(j[i], at / i);
  }
}

void change(Json& data, FuzzedDataProvider& in) {
  const auto& at = nodes[in.ConsumeIntegralInRange<std::size_t>(0, nodes.size() - 1)];
  if (!data.contains(at)) return;  // removed by an earlier change
  Json& node = data[at];
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: {  // removed
      if (at.empty()) break;
      Json& parent = data[at.parent_pointer()];
      if (parent.is_object()) {
        parent.erase(at.back());
      } else {
        parent.erase(std::stoul(at.back()));
      }
      break;
    }
    case 1: {  // a copy of another node (ids where ids of another kind are expected, say)
      const auto& from = nodes[in.ConsumeIntegralInRange<std::size_t>(0, nodes.size() - 1)];
      if (shipped.contains(from)) node = shipped[from];
      break;
    }
    case 2:
      if (node.is_number_integer()) node = node.get<std::int64_t>() + in.ConsumeIntegralInRange<int>(-3, 3);
      break;
    case 3:
      if (node.is_array()) node.push_back(node.empty() ? Json(1) : node[0]);
      break;
    default:
      node = fuzz_value(in, {});
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::ifstream file(EMPORIUM_MERKATOR_DATA);
  std::stringstream text;
  text << file.rdbuf();
  shipped = Json::parse(text.str());
  collect(shipped, Json::json_pointer());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  merkator::ReadData read;
  const char first = size > 0 ? static_cast<char>(data[0]) : '{';
  if (first == '{' || first == ' ' || first == '\n' || first == '\t' || first == '\r') {
    read = merkator::read_data_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } else {
    in.ConsumeIntegral<std::uint8_t>();
    Json changed = shipped;
    for (int n = in.ConsumeIntegralInRange<int>(1, 8); n > 0 && in.remaining_bytes() > 0; --n) change(changed, in);
    read = merkator::read_data_text(changed.dump(-1, ' ', false, Json::error_handler_t::replace), "fuzz.json");
  }
  if (read.error) {
    if (read.error->find("fuzz.json") == std::string::npos) fail("a refusal that does not name the file: " + *read.error);
    return 0;
  }
  // An accepted catalog: a game at every player count, and some random play on one of them.
  const auto seed = in.ConsumeIntegral<std::uint64_t>();
  const int players = in.ConsumeIntegralInRange<int>(merkator::kMinPlayers, merkator::kMaxPlayers);
  for (int p = merkator::kMinPlayers; p <= merkator::kMaxPlayers; ++p) {
    if (p != players) (void)merkator::MerkatorState(read.catalog, p, seed);
  }
  Session session(std::make_unique<merkator::MerkatorState>(read.catalog, players, seed),
                  Record{"merkator", players, Json::object(), seed, {}});
  session.check_state(true);
  emporium::engine::Rng rng(seed);
  for (int n = in.ConsumeIntegralInRange<int>(0, 400); n > 0 && session.play_legal(rng.next()); --n) {
  }
  session.check_state(true);
  return 0;
}
