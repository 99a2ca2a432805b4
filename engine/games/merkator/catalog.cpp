#include "merkator/catalog.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace emporium::engine::merkator {

bool Filter::matches(const Contract& c) const {
  if (min_value && c.value < *min_value) return false;
  if (max_value && c.value > *max_value) return false;
  if (destinations && std::find(destinations->begin(), destinations->end(), c.destination) == destinations->end()) {
    return false;
  }
  return true;
}

int Catalog::value_index(int value) const {
  const auto it = std::find(values.begin(), values.end(), value);
  return it == values.end() ? -1 : static_cast<int>(it - values.begin());
}

namespace {

template <class T>
std::optional<int> find_id(const std::vector<T>& items, const std::string& id) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].id == id) return static_cast<int>(i);
  }
  return std::nullopt;
}

// A bad entry: where (a JSON path such as "buildings[3].scoring.kind") and what is wrong.
struct Bad {
  std::string path;
  std::string what;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw Bad{path, what}; }

const Json& field(const Json& obj, const std::string& path, const char* key) {
  if (!obj.is_object()) fail(path, "must be an object");
  if (!obj.contains(key)) fail(path.empty() ? std::string(key) : path + "." + key, "missing");
  return obj[key];
}

int integer(const Json& v, const std::string& path, long long min = 0, long long max = 1000000) {
  if (!v.is_number_integer()) fail(path, "must be a whole number");
  const long long n = v.is_number_unsigned() ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ULL << 40))
                                             : v.get<long long>();
  if (n < min || n > max) fail(path, "must be from " + std::to_string(min) + " to " + std::to_string(max));
  return static_cast<int>(n);
}

int int_field(const Json& obj, const std::string& path, const char* key, long long min = 0, long long max = 1000000) {
  return integer(field(obj, path, key), path + "." + key, min, max);
}

std::string text(const Json& v, const std::string& path) {
  if (!v.is_string() || v.get_ref<const std::string&>().empty()) fail(path, "must be a non-empty string");
  return v.get<std::string>();
}

std::string str_field(const Json& obj, const std::string& path, const char* key) {
  return text(field(obj, path, key), path + "." + key);
}

const Json& array(const Json& v, const std::string& path, bool non_empty = true) {
  if (!v.is_array()) fail(path, "must be an array");
  if (non_empty && v.empty()) fail(path, "must not be empty");
  return v;
}

void only_keys(const Json& obj, const std::string& path, std::initializer_list<const char*> keys) {
  for (const auto& [key, value] : obj.items()) {
    if (std::none_of(keys.begin(), keys.end(), [&key = key](const char* k) { return key == k; })) {
      fail(path + "." + key, "unexpected field");
    }
  }
}

std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

class Parser {
 public:
  explicit Parser(Catalog& c) : c_(c) {}

  void run(const Json& d) {
    if (!d.is_object()) fail("(file)", "must be a JSON object");
    colours(d);
    goods(d);
    locations(d);
    roads(d);
    const Json& jc = field(d, "", "join_cost");
    c_.join_cost_major = int_field(jc, "join_cost", "major", 0, 100);
    c_.join_cost_minor = int_field(jc, "join_cost", "minor", 0, 100);
    office(d);
    contracts(d);
    bonus(d);
    buildings(d);
    chart(d);
    setup(d);
  }

 private:
  Catalog& c_;

  int good_ref(const Json& v, const std::string& path) {
    const auto s = text(v, path);
    const auto g = find_id(c_.goods, s);
    if (!g) fail(path, "unknown good '" + s + "'");
    return *g;
  }
  int location_ref(const Json& v, const std::string& path) {
    const auto s = text(v, path);
    const auto l = find_id(c_.locations, s);
    if (!l) fail(path, "unknown location '" + s + "'");
    return *l;
  }
  int colour_ref(const Json& v, const std::string& path) {
    const auto s = text(v, path);
    const auto col = find_id(c_.colours, s);
    if (!col) fail(path, "unknown colour '" + s + "'");
    return *col;
  }
  std::vector<int> good_list(const Json& v, const std::string& path) {
    std::vector<int> out;
    for (std::size_t i = 0; i < array(v, path).size(); ++i) {
      const int g = good_ref(v[i], at(path, i));
      if (std::find(out.begin(), out.end(), g) != out.end()) fail(at(path, i), "good listed twice");
      out.push_back(g);
    }
    return out;
  }

  void colours(const Json& d) {
    const Json& cs = field(d, "", "colours");
    if (!cs.is_object() || cs.empty()) fail("colours", "must be a non-empty object");
    for (const auto& [id, v] : cs.items()) {
      Colour col;
      col.id = id;
      c_.colours.push_back(col);
    }
  }

  void goods(const Json& d) {
    const Json& gs = array(field(d, "", "goods"), "goods");
    for (std::size_t i = 0; i < gs.size(); ++i) {
      const std::string p = at("goods", i);
      Good g;
      g.id = str_field(gs[i], p, "id");
      if (find_id(c_.goods, g.id)) fail(p + ".id", "duplicate id '" + g.id + "'");
      g.name = str_field(gs[i], p, "name");
      g.colour = colour_ref(field(gs[i], p, "colour"), p + ".colour");
      str_field(gs[i], p, "column");  // checked against the office board below
      c_.goods.push_back(g);
    }
    const Json& cs = d["colours"];
    for (std::size_t ci = 0; ci < c_.colours.size(); ++ci) {
      Colour& col = c_.colours[ci];
      const std::string p = "colours." + col.id;
      const Json& list = array(field(cs[col.id], p, "goods"), p + ".goods");
      if (list.size() != 2) fail(p + ".goods", "a colour has exactly 2 goods");
      for (int k = 0; k < 2; ++k) {
        col.goods[k] = good_ref(list[static_cast<std::size_t>(k)], at(p + ".goods", static_cast<std::size_t>(k)));
        if (c_.goods[col.goods[k]].colour != static_cast<int>(ci)) {
          fail(at(p + ".goods", static_cast<std::size_t>(k)), "good '" + c_.goods[col.goods[k]].id + "' is not of this colour");
        }
      }
      if (col.goods[0] == col.goods[1]) fail(p + ".goods", "the two goods must differ");
    }
    for (std::size_t i = 0; i < c_.goods.size(); ++i) {
      const Colour& col = c_.colours[c_.goods[i].colour];
      if (col.goods[0] != static_cast<int>(i) && col.goods[1] != static_cast<int>(i)) {
        fail(at("goods", i) + ".colour", "colour '" + col.id + "' does not list this good");
      }
    }
  }

  void locations(const Json& d) {
    const Json& ls = array(field(d, "", "locations"), "locations");
    for (std::size_t i = 0; i < ls.size(); ++i) {
      const std::string p = at("locations", i);
      Location l;
      l.id = str_field(ls[i], p, "id");
      if (find_id(c_.locations, l.id)) fail(p + ".id", "duplicate id '" + l.id + "'");
      l.name = str_field(ls[i], p, "name");
      const std::string kind = str_field(ls[i], p, "kind");
      if (kind == "major") {
        l.major = true;
        l.colour = colour_ref(field(ls[i], p, "colour"), p + ".colour");
      } else if (kind == "minor") {
        l.restock_if_exactly = int_field(ls[i], p, "restock_if_exactly", 0, 1000);
      } else {
        fail(p + ".kind", "must be 'major' or 'minor', not '" + kind + "'");
      }
      l.time = int_field(ls[i], p, "time", -100, 100);
      c_.locations.push_back(l);
    }
    const Json& cs = d["colours"];
    for (Colour& col : c_.colours) {
      const std::string p = "colours." + col.id;
      col.home = location_ref(field(cs[col.id], p, "home"), p + ".home");
      if (!c_.locations[col.home].major || c_.locations[col.home].colour != colour_ref(Json(col.id), p)) {
        fail(p + ".home", "must be a major location of this colour");
      }
    }
  }

  void roads(const Json& d) {
    const Json& rs = array(field(d, "", "roads"), "roads", false);
    std::set<std::pair<int, int>> seen;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const std::string p = at("roads", i);
      if (!rs[i].is_array() || rs[i].size() != 2) fail(p, "a road is a pair of locations");
      const int a = location_ref(rs[i][0], p + "[0]");
      const int b = location_ref(rs[i][1], p + "[1]");
      if (!c_.locations[a].major || !c_.locations[b].major) fail(p, "roads join major locations");
      if (a == b) fail(p, "a road joins two different locations");
      if (!seen.insert({std::min(a, b), std::max(a, b)}).second) fail(p, "road listed twice");
      c_.locations[a].roads.push_back(b);
      c_.locations[b].roads.push_back(a);
    }
  }

  void office(const Json& d) {
    const Json& ob = field(d, "", "office_board");
    if (!field(ob, "office_board", "capacity").is_null()) fail("office_board.capacity", "only null (unlimited) is supported");
    c_.contract_spaces = int_field(ob, "office_board", "contract_spaces", 1, 100);
    const Json& cols = field(ob, "office_board", "columns");
    if (!cols.is_object() || cols.empty()) fail("office_board.columns", "must be a non-empty object");
    std::vector<int> column_of(c_.goods.size(), -1);
    for (const auto& [id, v] : cols.items()) {
      const std::string p = "office_board.columns." + id;
      if (id.size() != 1) fail(p, "a column id is one character");
      Column col;
      col.id = id;
      col.area = str_field(v, p, "area");
      if (col.area != "storage" && col.area != "depot") fail(p + ".area", "must be 'storage' or 'depot'");
      col.goods = good_list(field(v, p, "goods"), p + ".goods");
      for (int g : col.goods) {
        if (column_of[g] >= 0) fail(p + ".goods", "good '" + c_.goods[g].id + "' is in two columns");
        column_of[g] = static_cast<int>(c_.columns.size());
      }
      c_.columns.push_back(col);
    }
    const Json& gs = d["goods"];
    for (std::size_t i = 0; i < c_.goods.size(); ++i) {
      const std::string name = gs[i]["column"].get<std::string>();
      const auto col = find_id(c_.columns, name);
      if (!col) fail(at("goods", i) + ".column", "unknown column '" + name + "'");
      if (column_of[i] != *col) fail(at("goods", i) + ".column", "the office board puts this good elsewhere");
      c_.goods[i].column = *col;
    }
  }

  void contracts(const Json& d) {
    const Json& cs = array(field(d, "", "contracts"), "contracts");
    for (std::size_t i = 0; i < cs.size(); ++i) {
      const std::string p = at("contracts", i);
      Contract c;
      c.id = str_field(cs[i], p, "id");
      if (find_id(c_.contracts, c.id)) fail(p + ".id", "duplicate id '" + c.id + "'");
      c.value = int_field(cs[i], p, "value", 1, 1000);
      const Json& dest = field(cs[i], p, "destination");
      const Json& gs = field(cs[i], p, "goods");
      if (!gs.is_object()) fail(p + ".goods", "must be an object of good: quantity");
      for (const auto& [g, q] : gs.items()) {
        const int gi = good_ref(Json(g), p + ".goods." + g);
        c.goods.emplace_back(gi, integer(q, p + ".goods." + g, 1, 100));
      }
      if (dest.is_null()) {
        if (c_.peace >= 0) fail(p + ".destination", "only one contract (the Peace of Westphalia) has no destination");
        if (!c.goods.empty()) fail(p + ".goods", "the contract without destination asks for no goods");
        c_.peace = static_cast<int>(i);
      } else {
        c.destination = location_ref(dest, p + ".destination");
        if (c.goods.empty()) fail(p + ".goods", "a contract asks for at least one good");
      }
      c_.contracts.push_back(c);
    }
    if (c_.peace < 0) fail("contracts", "one contract (the Peace of Westphalia) must have destination null");
    for (std::size_t i = 0; i < c_.contracts.size(); ++i) {
      if (static_cast<int>(i) != c_.peace && c_.contracts[i].value >= c_.contracts[c_.peace].value) {
        fail(at("contracts", i) + ".value", "must be below the Peace of Westphalia's value");
      }
      if (std::find(c_.values.begin(), c_.values.end(), c_.contracts[i].value) == c_.values.end()) {
        c_.values.push_back(c_.contracts[i].value);
      }
    }
    std::sort(c_.values.begin(), c_.values.end());
  }

  void bonus(const Json& d) {
    const Json& bs = array(field(d, "", "bonus_cards"), "bonus_cards", false);
    for (std::size_t i = 0; i < bs.size(); ++i) {
      const std::string p = at("bonus_cards", i);
      BonusCard b;
      b.id = str_field(bs[i], p, "id");
      if (find_id(c_.bonus_cards, b.id)) fail(p + ".id", "duplicate id '" + b.id + "'");
      b.location = location_ref(field(bs[i], p, "location"), p + ".location");
      b.cost = int_field(bs[i], p, "cost", 0, 1000);
      b.good = good_ref(field(bs[i], p, "good"), p + ".good");
      b.active = int_field(bs[i], p, "active", 0, 100);
      b.joiner = int_field(bs[i], p, "joiner", 0, 100);
      c_.bonus_cards.push_back(b);
    }
  }

  Filter filter(const Json& f, const std::string& p) {
    if (!f.is_object()) fail(p, "a filter is an object");
    only_keys(f, p, {"min_value", "max_value", "destinations"});
    Filter out;
    if (f.contains("min_value")) out.min_value = integer(f["min_value"], p + ".min_value", 0, 1000);
    if (f.contains("max_value")) out.max_value = integer(f["max_value"], p + ".max_value", 0, 1000);
    if (f.contains("destinations")) {
      std::vector<int> ds;
      for (std::size_t i = 0; i < array(f["destinations"], p + ".destinations").size(); ++i) {
        ds.push_back(location_ref(f["destinations"][i], at(p + ".destinations", i)));
      }
      out.destinations = ds;
    }
    return out;
  }

  Measure measure(const Json& m, const std::string& p) {
    Measure out;
    const std::string type = str_field(m, p, "type");
    if (type == "cubes" || type == "distinct") {
      only_keys(m, p, {"type", "goods"});
      out.type = type == "cubes" ? Measure::Type::cubes : Measure::Type::distinct;
      out.goods = good_list(field(m, p, "goods"), p + ".goods");
    } else if (type == "time" || type == "buildings") {
      only_keys(m, p, {"type"});
      out.type = type == "time" ? Measure::Type::time : Measure::Type::buildings;
    } else if (type == "contracts") {
      only_keys(m, p, {"type", "filter"});
      out.type = Measure::Type::contracts;
      if (m.contains("filter")) out.filter = filter(m["filter"], p + ".filter");
    } else {
      fail(p + ".type", "unknown measure '" + type + "'");
    }
    return out;
  }

  Formula formula(const Json& s, const std::string& p) {
    Formula f;
    const std::string kind = str_field(s, p, "kind");
    auto linear = [&](std::initializer_list<const char*> keys) {
      std::vector<const char*> all = {"kind", "per", "points", "max"};
      all.insert(all.end(), keys.begin(), keys.end());
      for (const auto& [key, value] : s.items()) {
        if (std::none_of(all.begin(), all.end(), [&key = key](const char* k) { return key == k; })) {
          fail(p + "." + key, "unexpected field for kind '" + kind + "'");
        }
      }
      if (s.contains("per")) f.per = integer(s["per"], p + ".per", 1, 1000);
      f.points = int_field(s, p, "points", 1, 1000);
      if (s.contains("max") && !s["max"].is_null()) f.max = integer(s["max"], p + ".max", 1, 1000);
    };
    if (kind == "per_cube" || kind == "per_distinct") {
      f.kind = kind == "per_cube" ? Formula::Kind::per_cube : Formula::Kind::per_distinct;
      linear({"goods"});
      f.goods = good_list(field(s, p, "goods"), p + ".goods");
    } else if (kind == "per_colour_pair") {
      f.kind = Formula::Kind::per_colour_pair;
      linear({"colours"});
      const Json& cs = array(field(s, p, "colours"), p + ".colours");
      for (std::size_t i = 0; i < cs.size(); ++i) {
        const int col = colour_ref(cs[i], at(p + ".colours", i));
        if (std::find(f.colours.begin(), f.colours.end(), col) != f.colours.end()) fail(at(p + ".colours", i), "listed twice");
        f.colours.push_back(col);
      }
    } else if (kind == "per_set") {
      f.kind = Formula::Kind::per_set;
      linear({"components"});
      const Json& cs = array(field(s, p, "components"), p + ".components");
      if (cs.size() < 2) fail(p + ".components", "a set has at least 2 components");
      std::set<int> used;
      for (std::size_t i = 0; i < cs.size(); ++i) {
        const std::string cp = at(p + ".components", i);
        if (cs[i].is_object()) only_keys(cs[i], cp, {"goods", "qty"});
        Formula::Component comp;
        comp.goods = good_list(field(cs[i], cp, "goods"), cp + ".goods");
        comp.qty = int_field(cs[i], cp, "qty", 1, 1000);
        for (int g : comp.goods) {
          if (!used.insert(g).second) fail(cp + ".goods", "good '" + c_.goods[g].id + "' is in two components");
        }
        f.components.push_back(comp);
      }
    } else if (kind == "per_time") {
      f.kind = Formula::Kind::per_time;
      linear({});
    } else if (kind == "per_contract") {
      f.kind = Formula::Kind::per_contract;
      linear({"filter"});
      if (s.contains("filter")) f.filter = filter(s["filter"], p + ".filter");
    } else if (kind == "threshold") {
      f.kind = Formula::Kind::threshold;
      only_keys(s, p, {"kind", "measure", "at_least", "points"});
      f.measure = measure(field(s, p, "measure"), p + ".measure");
      f.at_least = int_field(s, p, "at_least", 1, 1000);
      f.points = int_field(s, p, "points", 1, 1000);
    } else if (kind == "sole_most") {
      f.kind = Formula::Kind::sole_most;
      only_keys(s, p, {"kind", "measure", "points"});
      f.measure = measure(field(s, p, "measure"), p + ".measure");
      f.points = int_field(s, p, "points", 1, 1000);
      // A rival's supply-tile cubes then count the same whichever good they become (see scoring).
      for (int g : f.measure.goods) {
        for (int other : c_.colours[c_.goods[g].colour].goods) {
          if (std::find(f.measure.goods.begin(), f.measure.goods.end(), other) == f.measure.goods.end()) {
            fail(p + ".measure.goods", "a sole-player goods measure must list both goods of each colour it uses");
          }
        }
      }
    } else {
      fail(p + ".kind", "unknown kind '" + kind + "'");
    }
    return f;
  }

  void buildings(const Json& d) {
    const Json& bs = array(field(d, "", "buildings"), "buildings", false);
    for (std::size_t i = 0; i < bs.size(); ++i) {
      const std::string p = at("buildings", i);
      Building b;
      b.id = str_field(bs[i], p, "id");
      if (find_id(c_.buildings, b.id) || find_id(c_.bonus_cards, b.id)) fail(p + ".id", "duplicate id '" + b.id + "'");
      b.name = str_field(bs[i], p, "name");
      b.cost = int_field(bs[i], p, "cost", 0, 1000);
      const Json& sole = field(bs[i], p, "sole_player");
      if (!sole.is_boolean()) fail(p + ".sole_player", "must be true or false");
      b.sole_player = sole.get<bool>();
      b.formula = formula(field(bs[i], p, "scoring"), p + ".scoring");
      if (b.sole_player != (b.formula.kind == Formula::Kind::sole_most)) {
        fail(p + ".sole_player", "must be true exactly for the kind sole_most");
      }
      b.text = bs[i].contains("text") ? text(bs[i]["text"], p + ".text") : std::string();
      c_.buildings.push_back(b);
    }
  }

  void chart(const Json& d) {
    const Json& tc = array(field(d, "", "time_chart"), "time_chart");
    for (std::size_t i = 0; i < tc.size(); ++i) {
      const std::string s = text(tc[i], at("time_chart", i));
      const auto col = find_id(c_.columns, s.substr(0, 1));
      if (!col || s.size() > 2 || (s.size() == 2 && s[1] != s[0])) {
        fail(at("time_chart", i), "'" + s + "' is not a column letter, single or doubled");
      }
      c_.time_chart.push_back({*col, static_cast<int>(s.size())});
    }
  }

  void setup(const Json& d) {
    const Json& s = field(d, "", "setup");
    Setup& out = c_.setup;
    const Json& cv = array(field(s, "setup", "contracts_per_player"), "setup.contracts_per_player");
    for (std::size_t i = 0; i < cv.size(); ++i) {
      const int v = integer(cv[i], at("setup.contracts_per_player", i), 1, 1000);
      const long have = std::count_if(c_.contracts.begin(), c_.contracts.end(),
                                      [&](const Contract& c) { return c.value == v && c.destination >= 0; });
      const long want = kMaxPlayers * std::count_if(cv.begin(), cv.end(), [&](const Json& x) { return x == cv[i]; });
      if (have < want) fail(at("setup.contracts_per_player", i), "not enough contracts of value " + std::to_string(v) + " for 4 players");
      out.contract_values.push_back(v);
    }
    const Json& bc = field(s, "setup", "bonus_cards_per_player");
    if (!bc.is_object()) fail("setup.bonus_cards_per_player", "must be an object such as {\"cost_3\": 1}");
    for (const auto& [key, v] : bc.items()) {
      const std::string p = "setup.bonus_cards_per_player." + key;
      if (key.rfind("cost_", 0) != 0) fail(p, "keys are cost_<n>");
      int cost = 0;
      try {
        cost = std::stoi(key.substr(5));
      } catch (...) {
        fail(p, "keys are cost_<n>");
      }
      const int n = integer(v, p, 0, 100);
      const long have = std::count_if(c_.bonus_cards.begin(), c_.bonus_cards.end(), [&](const BonusCard& b) { return b.cost == cost; });
      if (have < static_cast<long>(n) * kMaxPlayers) fail(p, "not enough bonus cards of cost " + std::to_string(cost) + " for 4 players");
      out.bonus_by_cost.emplace_back(cost, n);
    }
    const Json& st = field(s, "setup", "supply_tile");
    if (!st.is_object()) fail("setup.supply_tile", "must be an object of colour: cubes");
    out.supply_tile.assign(c_.colours.size(), 0);
    for (const auto& [key, v] : st.items()) {
      const int col = colour_ref(Json(key), "setup.supply_tile." + key);
      out.supply_tile[col] = integer(v, "setup.supply_tile." + key, 0, 100);
    }
    const Json& tcs = field(s, "setup", "time_counters");
    out.time_start_player = int_field(tcs, "setup.time_counters", "start_player", 0, 100);
    out.time_right_of_start = int_field(tcs, "setup.time_counters", "right_of_start_player", 0, 100);
    out.time_others = int_field(tcs, "setup.time_counters", "others", 0, 100);
    out.coins = int_field(s, "setup", "coins", 0, 1000);
    out.face_up_bonus = int_field(s, "setup", "face_up_bonus_cards", 0, 100);
    out.face_up_buildings = int_field(s, "setup", "face_up_buildings", 0, 100);
    out.cubes_on_each_major = int_field(s, "setup", "cubes_on_each_major", 0, 100);
    out.chart_rows = int_field(s, "setup", "time_chart_rows", 1, 100);
    out.chart_row_length = int_field(s, "setup", "time_chart_row_length", 1, 100);
    if (static_cast<std::size_t>(out.chart_rows * out.chart_row_length) > c_.time_chart.size()) {
      fail("setup.time_chart_rows", "the chart needs more counters than time_chart lists");
    }
    const Json& et = field(s, "setup", "time_chart_empty_top_rows");
    out.empty_top_rows.assign(kMaxPlayers + 1, 0);
    for (int n = kMinPlayers; n <= kMaxPlayers; ++n) {
      out.empty_top_rows[n] = int_field(et, "setup.time_chart_empty_top_rows", std::to_string(n).c_str(), 0, out.chart_rows - 1);
    }
    out.max_coins = int_field(s, "setup", "max_coins_after_investment", 0, 1000000);
    out.max_contracts = int_field(s, "setup", "max_contracts_without_forced_investment", 1, 1000);
  }
};

std::shared_ptr<const Catalog>& slot() {
  static std::shared_ptr<const Catalog> installed;
  return installed;
}

}  // namespace

std::optional<int> Catalog::good_index(const std::string& id) const { return find_id(goods, id); }
std::optional<int> Catalog::colour_index(const std::string& id) const { return find_id(colours, id); }
std::optional<int> Catalog::location_index(const std::string& id) const { return find_id(locations, id); }
std::optional<int> Catalog::contract_index(const std::string& id) const { return find_id(contracts, id); }
std::optional<int> Catalog::bonus_index(const std::string& id) const { return find_id(bonus_cards, id); }
std::optional<int> Catalog::building_index(const std::string& id) const { return find_id(buildings, id); }

std::string Catalog::letter_name(const TimeLetter& l) const {
  return std::string(static_cast<std::size_t>(l.count), columns[l.column].id[0]);
}

ParsedCatalog parse_catalog(const Json& data) {
  auto c = std::make_shared<Catalog>();
  try {
    Parser(*c).run(data);
  } catch (const Bad& bad) {
    return {nullptr, make_error("bad_data", (bad.path.empty() ? "(file)" : bad.path) + ": " + bad.what)};
  } catch (const Json::exception& e) {
    return {nullptr, make_error("bad_data", std::string("(file): ") + e.what())};
  }
  return {std::move(c), std::nullopt};
}

void install_catalog(std::shared_ptr<const Catalog> catalog) { slot() = std::move(catalog); }
std::shared_ptr<const Catalog> installed_catalog() { return slot(); }

}  // namespace emporium::engine::merkator
