// rummy101 — Remi closing on the rack (tabla, RULES.md RO-11). Binding-free.
//
// Twin of python/rummy101/_pure/tabla.py: same functions, same results in the same order, same
// error messages. See that module's docstring for the shapes; in short:
//   tabla_patterns(cr, counts14) -> every pattern the 14 tiles form, best first;
//   tabla_closes(cr, counts15)   -> each distinct discard (ascending code, Joly last) that
//                                   leaves a close;
//   tabla_distance(cr, counts14) -> {simple, mozaic, bicolor, monocolor} distances.
#pragma once

#include <array>
#include <vector>

#include "rummy101/encoding.hpp"

namespace rummy101 {

constexpr int PATTERN_SIMPLE = 1;
constexpr int PATTERN_MOZAIC = 2;
constexpr int PATTERN_BICOLOR = 3;
constexpr int PATTERN_MONOCOLOR = 4;
constexpr std::array<int, 5> PATTERN_SCORES{0, 400, 800, 1600, 3200};  // RO-11
constexpr int TABLA_TILES = 14;

struct TablaMeld {
  int kind = KIND_INVALID;
  std::vector<int> tiles;      // table order, JOKER where a Joly stands
  std::vector<int> stand_for;  // the tile each position stands for
};

struct TablaPattern {
  int pattern = 0;
  std::vector<int> row;        // row patterns: 14 codes along 1-2-...-13-1; empty for simple
  std::vector<int> stand_for;  // row patterns: what each row position stands for
  std::vector<TablaMeld> melds;  // simple close: the melds; empty for row patterns
};

struct TablaClose {
  int discard = -1;
  int score = 0;               // RO-11 score, doubled for a Joly discard
  TablaPattern best;
};

// Throws std::invalid_argument unless counts is a valid 53-entry vector summing to 14.
std::vector<TablaPattern> tabla_patterns(const CoreRules& cr, const std::vector<int>& counts);
// Throws std::invalid_argument unless counts sums to 15.
std::vector<TablaClose> tabla_closes(const CoreRules& cr, const std::vector<int>& counts);
// {simple, mozaic, bicolor, monocolor}; throws unless counts sums to 14.
std::array<int, 4> tabla_distance(const CoreRules& cr, const std::vector<int>& counts);

}  // namespace rummy101
