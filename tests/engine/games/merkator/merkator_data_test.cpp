// Merkator's data file: the shipped one loads; a file with a broken entry is refused with a message naming
// that entry; another valid data set plays without any code change.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "merkator/merkator.hpp"
#include "merkator_data.hpp"
#include "test_support.hpp"

namespace emporium::engine::merkator {
namespace {

Json shipped() { return testing::read_json_file(testing::merkator_data_path()); }

TEST(MerkatorData, TheShippedFileLoads) {
  const auto parsed = parse_catalog(shipped());
  ASSERT_FALSE(parsed.error) << parsed.error->message;
  const Catalog& c = *parsed.catalog;
  EXPECT_EQ(c.colours.size(), 8u);
  EXPECT_EQ(c.goods.size(), 16u);
  EXPECT_EQ(c.locations.size(), 12u);
  EXPECT_EQ(c.contracts.size(), 78u);
  EXPECT_EQ(c.contracts[c.peace].id, "peace_of_westphalia");
  EXPECT_EQ(c.contracts[c.peace].value, 14);
  EXPECT_EQ(c.values, (std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9, 10, 14}));
  EXPECT_EQ(c.bonus_cards.size(), 16u);
  EXPECT_EQ(c.buildings.size(), 26u);
  EXPECT_EQ(c.time_chart.size(), 42u);
  EXPECT_EQ(c.columns.size(), 6u);
  EXPECT_EQ(c.contract_spaces, 5);
  EXPECT_EQ(c.setup.max_coins, 15);
  EXPECT_EQ(c.locations[*c.location_index("hamburg")].roads.size(), 3u);
  EXPECT_EQ(c.letter_name(c.time_chart.back()), "FF");
}

// Each case breaks one entry; the refusal must name it.
struct Breakage {
  std::string name;
  std::function<void(Json&)> edit;
  std::string expected;  // the start of the message
};

TEST(MerkatorData, BrokenEntriesAreRefusedWithTheirName) {
  const std::vector<Breakage> cases = {
      {"unknown formula kind", [](Json& d) { d["buildings"][3]["scoring"]["kind"] = "foo"; },
       "buildings[3].scoring.kind: unknown kind 'foo'"},
      {"missing field", [](Json& d) { d["contracts"][5].erase("value"); }, "contracts[5].value: missing"},
      {"unknown good in a contract", [](Json& d) { d["contracts"][0]["goods"]["gold"] = 1; },
       "contracts[0].goods.gold: unknown good 'gold'"},
      {"unknown destination", [](Json& d) { d["contracts"][2]["destination"] = "atlantis"; },
       "contracts[2].destination: unknown location 'atlantis'"},
      {"road to a minor", [](Json& d) { d["roads"][4][1] = "bohemia"; }, "roads[4]: roads join major locations"},
      {"bad letter", [](Json& d) { d["time_chart"][7] = "G"; }, "time_chart[7]: 'G' is not a column letter"},
      {"mixed letters", [](Json& d) { d["time_chart"][6] = "AB"; }, "time_chart[6]: 'AB' is not a column letter"},
      {"duplicate id", [](Json& d) { d["bonus_cards"][1]["id"] = d["bonus_cards"][0]["id"]; },
       "bonus_cards[1].id: duplicate id 'bonus_hamburg'"},
      {"two Peaces", [](Json& d) { d["contracts"][3]["destination"] = nullptr; d["contracts"][3]["goods"] = Json::object(); },
       "contracts[77].destination: only one contract"},
      {"wrong type", [](Json& d) { d["locations"][0]["time"] = "two"; }, "locations[0].time: must be a whole number"},
      {"unknown measure", [](Json& d) { d["buildings"][21]["scoring"]["measure"]["type"] = "coins"; },
       "buildings[21].scoring.measure.type: unknown measure 'coins'"},
      {"bad per", [](Json& d) { d["buildings"][8]["scoring"]["per"] = 0; }, "buildings[8].scoring.per: must be from 1"},
      {"unexpected formula field", [](Json& d) { d["buildings"][14]["scoring"]["goods"] = Json::array({"wine"}); },
       "buildings[14].scoring.goods: unexpected field"},
      {"overlapping set components", [](Json& d) { d["buildings"][7]["scoring"]["components"][1]["goods"] = {"fabric"}; },
       "buildings[7].scoring.components[1].goods: good 'fabric' is in two components"},
      {"sole player on half a colour",
       [](Json& d) { d["buildings"][25]["scoring"]["measure"]["goods"] = {"plums", "citrus"}; },
       "buildings[25].scoring.measure.goods: a sole-player goods measure must list both goods"},
      {"sole flag mismatch", [](Json& d) { d["buildings"][0]["sole_player"] = true; },
       "buildings[0].sole_player: must be true exactly for the kind sole_most"},
      {"good in no column", [](Json& d) { d["office_board"]["columns"]["A"]["goods"] = {"livestock", "grain"}; },
       "goods[4].column: the office board puts this good elsewhere"},
      {"too few contracts for setup", [](Json& d) { d["setup"]["contracts_per_player"] = {2, 2}; },
       "setup.contracts_per_player[0]: not enough contracts of value 2 for 4 players"},
      {"too few bonus cards", [](Json& d) { d["setup"]["bonus_cards_per_player"]["cost_3"] = 3; },
       "setup.bonus_cards_per_player.cost_3: not enough bonus cards of cost 3"},
      {"chart too big", [](Json& d) { d["setup"]["time_chart_rows"] = 7; },
       "setup.time_chart_rows: the chart needs more counters"},
      {"colour with one good", [](Json& d) { d["colours"]["green"]["goods"] = {"livestock"}; },
       "colours.green.goods: a colour has exactly 2 goods"},
      {"home of another colour", [](Json& d) { d["colours"]["green"]["home"] = "gdansk"; },
       "colours.green.home: must be a major location of this colour"},
      {"limited capacity", [](Json& d) { d["office_board"]["capacity"] = 5; }, "office_board.capacity: only null"},
      {"not an object", [](Json& d) { d = Json::array(); }, "(file): must be a JSON object"},
      {"missing section", [](Json& d) { d.erase("roads"); }, "roads: missing"},
      {"bad kind of location", [](Json& d) { d["locations"][9]["kind"] = "capital"; },
       "locations[9].kind: must be 'major' or 'minor'"},
      {"unknown filter field", [](Json& d) { d["buildings"][17]["scoring"]["filter"]["value"] = 3; },
       "buildings[17].scoring.filter.value: unexpected field"},
  };
  for (const auto& c : cases) {
    Json d = shipped();
    c.edit(d);
    const auto parsed = parse_catalog(d);
    ASSERT_TRUE(parsed.error) << c.name << " was accepted";
    EXPECT_EQ(parsed.error->code, "bad_data");
    EXPECT_EQ(parsed.error->message.rfind(c.expected, 0), 0u) << c.name << ": " << parsed.error->message;
    EXPECT_FALSE(parsed.catalog);
  }
}

TEST(MerkatorData, AnotherDataSetPlaysWithoutCodeChanges) {
  Json d = shipped();
  // Hamburg gives 3 time, one road fewer, ham renamed, a smaller chart and a shorter row.
  d["locations"][0]["time"] = 3;
  d["roads"].erase(0);
  const std::string text = d.dump();
  std::string renamed;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 5, "\"ham\"") == 0) {
      renamed += "\"bacon\"";
      i += 4;
    } else {
      renamed += text[i];
    }
  }
  d = Json::parse(renamed);
  d["setup"]["time_chart_rows"] = 4;
  d["setup"]["time_chart_row_length"] = 5;
  d["setup"]["time_chart_empty_top_rows"] = {{"2", 1}, {"3", 0}, {"4", 0}};
  const auto parsed = parse_catalog(d);
  ASSERT_FALSE(parsed.error) << parsed.error->message;
  MerkatorState s(parsed.catalog, 2, 3);
  EXPECT_EQ(s.chart_remaining(), 15);
  EXPECT_TRUE(s.view(Viewer::spectator())["seats"][0]["goods"].contains("bacon"));
  Rng rng(1);
  int steps = 0;
  while (!s.is_over() && ++steps < 20000) {
    const auto move = testing::random_move(s, rng);
    ASSERT_TRUE(s.apply(move.player, move.action).ok());
  }
  EXPECT_TRUE(s.is_over());
}

}  // namespace
}  // namespace emporium::engine::merkator
