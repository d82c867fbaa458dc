// rummy101 — a Rummy 101 round played by the greedy policy in every seat, natively (issue 12).
//
// Binding-free; cpp/bindings/bind_round101.cpp registers it, python/rummy101/sim/native_round.py
// drives it. It mirrors, step for step, what the Python reference does:
// rummy101.game.engines.rummy101.engine (legal actions in the engine's order, the R101-4 take
// check, apply, the round's end) with rummy101.bots.greedy.GreedyBot + rummy101.bots.strategy
// deciding in every seat (fresh bots: no plan carried into the starting turn). Solver questions
// go to solve_melds / max_pairs / meld_additions / rack_value of this core with the arguments
// the Python Kit passes, so the answers are the same ones. tests/test_native_round.py compares
// the two record for record on random games and from mid-round states.
//
// Only the rummy101 variant's constant rules are mirrored (keep a tile to discard R101-12,
// pairs allowed R101-5/8, no run needed to open); the options players (2-4), threshold
// (fixed / increasing, R101-14) and button_jokers (R101-10) come in as data.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rummy101/encoding.hpp"

namespace rummy101 {

// Verbs of an encoded action (rummy101.game.actions text forms).
enum R101Verb : int {
  R101_DRAW = 0,
  R101_TAKE = 1,
  R101_BUTTON = 2,
  R101_RUN = 3,
  R101_SET = 4,
  R101_PAIR = 5,
  R101_ADD = 6,
  R101_RETRIEVE = 7,
  R101_OPEN = 8,
  R101_RESET = 9,
  R101_DISCARD = 10,
};

// How a turn began (R101Data.took): "", "start", "draw", "take", "button".
enum R101Took : int { R101_TOOK_NONE = 0, R101_TOOK_START = 1, R101_TOOK_DRAW = 2, R101_TOOK_TAKE = 3, R101_TOOK_BUTTON = 4 };

// An action packed in 64 bits: verb (4 bits), up to three tile codes (6 bits each, 63 = none),
// the table meld index (10 bits, 1023 = none) and pos + 1 (4 bits).
std::int64_t r101_encode(int verb, int n_tiles, const int* tiles, int meld, int pos);

struct R101InMeld {
  int kind = 0;              // KIND_RUN / KIND_SET / KIND_PAIR
  int owner = 0;
  std::vector<int> tiles;    // table order (as rummy101.game.table.TableMeld keeps them)
};

// A Rummy 101 round position at a turn boundary (the start of a seat's turn: its take phase, or
// the starter's first play phase; nothing staged, nothing taken). After play_greedy_round it is
// the position after the round's last discard (before scoring).
struct R101Position {
  int players = 4;
  bool increasing = false;          // threshold=increasing (R101-14)
  int turn = 0;                     // turns completed this round (State.turn)
  int current = 0;
  bool take_phase = true;           // false: the starter's first turn, play phase, no take (R101-2)
  std::vector<Counts> racks;
  std::vector<int> stock;           // top = last element
  std::vector<R101InMeld> table;
  std::vector<int> opened;          // 0 not opened, 1 runs/sets, 2 pairs (R101Data constants)
  std::vector<int> opened_turn;
  int thr_melds = 101;
  int thr_pairs = 5;
  int last_discard = -1;
  std::vector<std::vector<int>> discards;
  std::vector<int> button_left;
  std::vector<int> button_used;     // 0/1
  int button_issued = 0;
  std::vector<std::array<int, 4>> taken_log;  // (taker, from seat, code, turn)
  // the turn being built, as the engine leaves it at the round's end
  int took = R101_TOOK_NONE;
  int taken = -1;
  int taken_base = 0;
  int turn_table_start = 0;
};

struct R101RoundResult {
  std::vector<std::int64_t> actions;  // every action applied, in order (r101_encode)
  std::vector<int> turn_seats;        // the seat of each turn played, in order
  int winner = -1;                    // -1: the stock ran out (R101-13)
  bool joker_finish = false;
  R101Position end;                   // the position after the last discard
};

// Plays the round to its end. Throws std::invalid_argument on a position it cannot start from,
// std::runtime_error if the round does not end within max_steps, and BudgetExceeded from the
// solvers.
R101RoundResult play_greedy_round(const CoreRules& open_cr, const CoreRules& penalty_cr,
                                  const R101Position& start, long long max_steps = 100000);

}  // namespace rummy101
