// The example position of medici for the how-to's picture of the board (js/ui/howto.js, ./howto-figure.js): the
// view a spectator was shown in the middle of a 3-player game against two bots, and the table's seats. Public
// information only. Generated, not written by hand: node scripts/example-views.mjs medici
export default {
  seats: [{"seat":0,"name":"Ann"},{"seat":1,"name":"Bot 1","bot":"easy"},{"seat":2,"name":"Bot 2","bot":"easy"}],
  view: {
    active: 0,
    auction: {
      bidder: 0,
      bids: [{"forced":true,"pass":true,"player":1},{"amount":7,"player":2}],
      high_bid: 7,
      high_bidder: 2,
      min_bid: 8,
      order: [1,2,0],
    },
    bag_count: 9,
    capacity: 5,
    day: 2,
    days: 3,
    discarded: [],
    game: "medici",
    lot: [{"commodity":"spice","value":1},{"commodity":"dye","value":5}],
    lot_limit: 3,
    phase: "auction",
    players: 3,
    removed_count: 18,
    result: null,
    scorings: [
      {
        commodities: [
          {"bonus":[0,0,0],"commodity":"cloth","majority":[5,0,10],"moved":[1,0,2],"positions":[1,0,2]},
          {"bonus":[0,0,0],"commodity":"fur","majority":[2,10,2],"moved":[0,1,0],"positions":[0,1,0]},
          {"bonus":[0,0,0],"commodity":"grain","majority":[5,5,5],"moved":[1,1,1],"positions":[1,1,1]},
          {"bonus":[0,0,0],"commodity":"dye","majority":[10,2,2],"moved":[2,1,1],"positions":[2,1,1]},
          {"bonus":[0,0,0],"commodity":"spice","majority":[5,10,0],"moved":[1,2,0],"positions":[1,2,0]},
        ],
        day: 1,
        money: [58,73,43],
        ship_payments: [0,30,15],
        ship_values: [15,21,19],
        totals: [27,57,34],
      },
    ],
    seats: [
      {
        free: 4,
        in_day: true,
        money: 46,
        ship: [{"commodity":"grain","value":5}],
        tracks: {"cloth":1,"dye":2,"fur":0,"grain":1,"spice":1},
      },
      {
        free: 1,
        in_day: true,
        money: 51,
        ship: [
          {"commodity":"spice","value":5},
          {"commodity":"dye","value":4},
          {"commodity":"fur","value":3},
          {"commodity":"grain","value":3},
        ],
        tracks: {"cloth":0,"dye":1,"fur":1,"grain":1,"spice":2},
      },
      {
        free: 3,
        in_day: true,
        money: 42,
        ship: [{"commodity":"dye","value":2},{"commodity":"dye","value":1}],
        tracks: {"cloth":2,"dye":1,"fur":0,"grain":1,"spice":0},
      },
    ],
    start_player: 2,
    to_move: [0],
    version: 61,
  },
};
