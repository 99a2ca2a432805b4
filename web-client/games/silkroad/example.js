// The example position of silkroad for the how-to's picture of the board (js/ui/howto.js, ./howto-figure.js): the
// view a spectator was shown in the middle of a 3-player game against two bots, and the table's seats. Public
// information only. Generated, not written by hand: node scripts/example-views.mjs silkroad
export default {
  seats: [{"seat":0,"name":"Ann"},{"seat":1,"name":"Bot 1","bot":"easy"},{"seat":2,"name":"Bot 2","bot":"easy"}],
  view: {
    active: 0,
    costs: {"exchange":8,"license":11,"porter":12,"ship":10},
    covered: [2,5,1,2,6,2],
    deck_count: 13,
    exchanges_left: 0,
    extra_draws_left: 0,
    game: "silkroad",
    market: ["tea","silk","silk","tea","silk","glass"],
    phase: "phase2",
    played_count: 0,
    played_good: null,
    players: 3,
    result: null,
    seats: [
      {
        coins: null,
        exchange: 1,
        hand: null,
        hand_count: 9,
        license: 0,
        porter: 0,
        ships: ["ore","porcelain"],
      },
      {"coins":null,"exchange":0,"hand":null,"hand_count":9,"license":0,"porter":0,"ships":["silk","silk"]},
      {"coins":null,"exchange":0,"hand":null,"hand_count":11,"license":0,"porter":0,"ships":["silk","silk"]},
    ],
    start_player: 2,
    stock: {"exchange":1,"license":2,"porter":2,"ship":8},
    supply: {"glass":5,"ore":4,"porcelain":4,"silk":1,"spice":5,"tea":5},
    to_move: [0],
    turn: 38,
    version: 92,
  },
};
