// rummy101 — meld logic: classify, value, additions, joker releases, rack value
// (docs/DESIGN.md "Core functions / melds"). Binding-free; cpp/bindings/bind_melds.cpp registers
// it. python/rummy101/_pure/melds.py is the line-by-line twin; tests/test_melds_parity.py
// compares them. Geometry comes only from CoreRules (variants as data):
//   run: >= 3 consecutive numbers of one colour, ascending in table order, within 1..13, plus a
//        final high ace at run position 14 when high_ace (12-13-1, 1..13-1; never 13-1-2);
//   set: 3 or 4 tiles of one number, distinct colours; the k-th joker stands for the k-th colour
//        (R Y B K order) missing from the real tiles;
//   pair: two equal real tiles, or a real tile and a joker (R101-5);
//   every meld: >= 1 real tile, and real >= joker_ratio * jokers (RO-7).
// A 3- or 4-tile meld that is both a run and a set (R5 * *) is classified as a run.
#pragma once

#include <utility>
#include <vector>

#include "rummy101/encoding.hpp"

namespace rummy101 {

// Invalid-reason codes (same numbers in python/rummy101/_pure/melds.py; messages are made in
// python/rummy101/melds.py).
constexpr int REASON_OK = 0;
constexpr int REASON_TOO_SHORT = 1;            // fewer than 2 tiles
constexpr int REASON_TOO_LONG = 2;             // longer than the longest run (13, or 14)
constexpr int REASON_NO_REAL_TILE = 3;         // only jokers
constexpr int REASON_NOT_A_PAIR = 4;           // two tiles that are not the same tile
constexpr int REASON_JOKER_RATIO = 5;          // RO-7
constexpr int REASON_SET_REPEATED_COLOUR = 6;  // one number, a colour twice (R7 R7 B7)
constexpr int REASON_SET_TOO_LONG = 7;         // one number, more than 4 tiles
constexpr int REASON_RUN_NOT_CONSECUTIVE = 8;  // one colour, not consecutive ascending
constexpr int REASON_RUN_OUT_OF_RANGE = 9;     // jokers push it below 1 or past the top
constexpr int REASON_RUN_HIGH_ACE = 10;        // 12-13-1 without high_ace
constexpr int REASON_RUN_WRAPS = 11;           // 13-1-2
constexpr int REASON_MIXED = 12;               // neither one colour nor one number

struct Classified {
  int kind = KIND_INVALID;
  std::vector<int> stand_for;  // empty when invalid
  int reason = REASON_OK;
  int start = 0;               // run position (1..14) of the first tile; 0 for sets/pairs
};

using Addition = std::pair<int, int>;                                  // (position, code)
using Release = std::pair<int, std::vector<std::vector<int>>>;         // (joker index, alternatives)

// All functions throw std::invalid_argument on codes outside 0..52; meld_value, meld_additions
// and joker_releases also throw on an invalid meld ("not a valid meld (reason N)").
Classified classify(const CoreRules& cr, const std::vector<int>& tiles);
long long meld_value(const CoreRules& cr, const std::vector<int>& tiles);  // 64-bit: no overflow
std::vector<Addition> meld_additions(const CoreRules& cr, const std::vector<int>& tiles);
std::vector<Release> joker_releases(const CoreRules& cr, const std::vector<int>& tiles,
                                    bool both_missing_for_set3);
// Sum of set_value of the real tiles plus joker_value per joker (0 per joker when -1).
long long rack_value(const CoreRules& cr, const Counts& counts);

}  // namespace rummy101
