// rummy101 — shared tile encoding and the per-rule-set parameters the core needs.
//
// A tile is an int: colour * 13 + (number - 1), colours R=0 Y=1 B=2 K=3; the joker is 52.
// Cards use the same space with suits S=0 H=1 D=2 C=3 and ranks A=1 .. K=13 (no joker).
// A rack is a count vector of NUM_CODES entries. python/rummy101/tiles.py holds the same
// constants and tests/test_encoding.py asserts that they agree.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rummy101 {

constexpr int NUM_COLOURS = 4;
constexpr int NUM_NUMBERS = 13;
constexpr int JOKER = 52;
constexpr int NUM_CODES = 53;
constexpr int HIGH_ACE = 14;  // a 1 that follows 13 in a run (Remi, RO-6)

inline constexpr int colour_of(int code) { return code / NUM_NUMBERS; }
inline constexpr int number_of(int code) { return code % NUM_NUMBERS + 1; }
inline constexpr int code_of(int colour, int number) { return colour * NUM_NUMBERS + number - 1; }

using Counts = std::array<int, NUM_CODES>;

// Everything about a rule set that the combinatorial core needs, as data (STYLE.md: variants
// as data). Built once per (rules, valuation) in Python and handed to every core call.
struct CoreRules {
  bool high_ace = false;   // RO-6: 12-13-1 and 1..13-1 are runs
  int joker_ratio = 0;     // RO-7: real tiles >= joker_ratio * jokers in every meld (0 = no rule)
  // Value of a tile standing at number n of a run; index 1..14 (14 = high ace), index 0 unused.
  std::array<int, 15> run_value{};
  // Value of a tile of number n in a set; index 1..13, index 0 unused. Also the value of a
  // loose tile on the rack (rack_value).
  std::array<int, 14> set_value{};
  // -1: a joker is worth the tile it stands for; otherwise its fixed value (penalties).
  int joker_value = -1;

  CoreRules() = default;
  CoreRules(bool high_ace_, int joker_ratio_, const std::vector<int>& run_value_,
            const std::vector<int>& set_value_, int joker_value_)
      : high_ace(high_ace_), joker_ratio(joker_ratio_), joker_value(joker_value_) {
    if (run_value_.size() != 15) throw std::invalid_argument("run_value must have 15 entries");
    if (set_value_.size() != 14) throw std::invalid_argument("set_value must have 14 entries");
    if (joker_ratio_ < 0) throw std::invalid_argument("joker_ratio must be >= 0");
    for (int i = 0; i < 15; ++i) run_value[i] = run_value_[i];
    for (int i = 0; i < 14; ++i) set_value[i] = set_value_[i];
  }
};

// Meld kinds returned by the core.
constexpr int KIND_INVALID = 0;
constexpr int KIND_RUN = 1;
constexpr int KIND_SET = 2;
constexpr int KIND_PAIR = 3;

// Throws std::invalid_argument unless every code is in 0..NUM_CODES-1 (the core re-validates
// what Python already validated so that no input can crash the interpreter).
inline void check_codes(const std::vector<int>& codes) {
  for (int c : codes)
    if (c < 0 || c >= NUM_CODES) throw std::invalid_argument("tile code out of range: " + std::to_string(c));
}

inline Counts to_counts(const std::vector<int>& counts) {
  if (counts.size() != NUM_CODES)
    throw std::invalid_argument("a count vector must have 53 entries, got " + std::to_string(counts.size()));
  Counts out{};
  for (int i = 0; i < NUM_CODES; ++i) {
    if (counts[i] < 0 || counts[i] > 64) throw std::invalid_argument("tile count out of range at code " + std::to_string(i));
    out[i] = counts[i];
  }
  return out;
}

}  // namespace rummy101
