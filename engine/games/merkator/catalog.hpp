#pragma once
// Merkator's components, read from a data file (engine/games/merkator/merkator-data.json, format in
// docs/rules/merkator.md and /work/shared/rules/merkator-data.md). The engine does no I/O: whoever
// starts the engine reads the file, passes its JSON to parse_catalog (which checks everything and names
// the first bad entry, e.g. "buildings[3].scoring.kind: unknown kind 'foo'"), then installs the result
// with install_catalog. Creating a Merkator game without an installed catalog is refused with a clear
// error (code game_unavailable).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/error.hpp"
#include "emporium/engine/json.hpp"

namespace emporium::engine::merkator {

struct Colour {
  std::string id;
  int goods[2] = {-1, -1};  // good indices
  int home = -1;            // location index
};

struct Good {
  std::string id;
  std::string name;
  int colour = -1;
  int column = -1;
};

struct Column {
  std::string id;    // "A"
  std::string area;  // storage | depot
  std::vector<int> goods;
};

struct Location {
  std::string id;
  std::string name;
  bool major = false;
  int colour = -1;             // majors: the colour of the cubes restocked there
  int restock_if_exactly = 0;  // minors
  int time = 0;                // gained (+) or paid (-) by the active traveller
  std::vector<int> roads;      // majors joined to this one
};

struct Contract {
  std::string id;
  int value = 0;
  int destination = -1;                    // -1: none (the Peace of Westphalia)
  std::vector<std::pair<int, int>> goods;  // (good, quantity)
};

struct BonusCard {
  std::string id;
  int location = -1;
  int cost = 0;
  int good = -1;
  int active = 0;  // goods for the owner travelling there
  int joiner = 0;  // goods for the owner joining a trip there
};

struct Filter {
  std::optional<int> min_value, max_value;
  std::optional<std::vector<int>> destinations;
  bool matches(const Contract& c) const;
};

struct Measure {
  enum class Type { cubes, distinct, time, contracts, buildings };
  Type type = Type::time;
  std::vector<int> goods;
  Filter filter;
};

struct Formula {
  enum class Kind { per_cube, per_distinct, per_colour_pair, per_set, per_time, per_contract, threshold, sole_most };
  struct Component {
    std::vector<int> goods;
    int qty = 1;
  };
  Kind kind = Kind::per_cube;
  std::vector<int> goods;    // per_cube, per_distinct
  std::vector<int> colours;  // per_colour_pair
  std::vector<Component> components;  // per_set
  Filter filter;             // per_contract
  Measure measure;           // threshold, sole_most
  int per = 1;
  int points = 0;
  std::optional<int> max;
  int at_least = 0;          // threshold
};

struct Building {
  std::string id;
  std::string name;
  int cost = 0;
  bool sole_player = false;
  Formula formula;
  std::string text;
};

struct TimeLetter {
  int column = -1;
  int count = 1;  // 2 for a doubled letter
};

struct Setup {
  std::vector<int> contract_values;           // one contract of each, per player
  std::vector<std::pair<int, int>> bonus_by_cost;  // (cost, cards per player)
  std::vector<int> supply_tile;               // per colour
  int time_start_player = 0, time_right_of_start = 2, time_others = 1;
  int coins = 0;
  int face_up_bonus = 4, face_up_buildings = 4;
  int cubes_on_each_major = 1;
  int chart_rows = 6, chart_row_length = 7;
  std::vector<int> empty_top_rows;            // indexed by player count (2..4)
  int max_coins = 15;
  int max_contracts = 5;                      // holding more forces selling
};

struct Catalog {
  std::vector<Colour> colours;
  std::vector<Good> goods;
  std::vector<Column> columns;
  std::vector<Location> locations;
  int join_cost_major = 1, join_cost_minor = 2;
  int contract_spaces = 5;
  std::vector<Contract> contracts;
  int peace = -1;            // index of the contract without destination
  std::vector<int> values;   // the distinct contract values, ascending (the Peace's is the highest)
  std::vector<BonusCard> bonus_cards;
  std::vector<Building> buildings;
  std::vector<TimeLetter> time_chart;
  Setup setup;

  int value_index(int value) const;  // index in `values`, -1 when none
  std::optional<int> good_index(const std::string& id) const;
  std::optional<int> colour_index(const std::string& id) const;
  std::optional<int> location_index(const std::string& id) const;
  std::optional<int> contract_index(const std::string& id) const;
  std::optional<int> bonus_index(const std::string& id) const;
  std::optional<int> building_index(const std::string& id) const;
  std::string letter_name(const TimeLetter& l) const;
};

inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 4;

struct ParsedCatalog {
  std::shared_ptr<const Catalog> catalog;
  std::optional<Error> error;  // code "bad_data"; the message names the entry
};

// Checks a data file's JSON completely (including that a 4-player game can be set up from it).
ParsedCatalog parse_catalog(const Json& data);

// The catalog `create` uses for new games (games already created keep theirs). Install it once at start-up,
// before games are created; nullptr uninstalls.
void install_catalog(std::shared_ptr<const Catalog> catalog);
std::shared_ptr<const Catalog> installed_catalog();

}  // namespace emporium::engine::merkator
