// rummy101 — a relaxed cover test for Remi's laid-down Atu check (RULES.md RO-4). Binding-free.
//
// Twin of python/rummy101/_pure/relax.py (same answers). relaxed_cover(counts, high_ace, runs,
// budget): false only when the tiles of counts (53 counts, code 52 the Jolys) cannot all but at
// most one be split into runs (3+ consecutive numbers of one colour; 1 low, and high after 13
// when high_ace) and sets (3-4 tiles of one number, distinct colours), each Joly standing for any
// tile (or left out), with each (colour, lo, hi) of runs (numbers 1..14, 14 the high 1) inside
// one run of its own. It ignores RO-7, the Atu and where the kept tile goes, so true proves
// nothing; counts with more than 2 copies of a tile or more than 2 Jolys, or a run out of range,
// answer true (not tried), and so does a search that expands more than budget states (the search
// and its mirror, the numbers reversed, going in turn: budget each).
#pragma once

#include <array>
#include <vector>

namespace rummy101 {

bool relaxed_cover(const std::vector<int>& counts, bool high_ace,
                   const std::vector<std::array<int, 3>>& runs, long long budget);

}  // namespace rummy101
