// rummy101 — exact meld and pair solvers (binding-free; registered in cpp/bindings/bind_solver.cpp).
//
// solve_melds: the maximum total value of disjoint runs/sets from a count vector under CoreRules
// (R101-5/R101-6/R101-7, RO-6/RO-7/RO-8, CR-2/CR-3), with the constraints "keep a tile"
// (R101-12, RO-13), "must use this tile" (R101-4) and "at least one run" (RO-8).
// max_pairs: the most pairs (R101-5, R101-8).
// python/rummy101/_pure/solver.py is a line-for-line twin: same decision order, same tie-break,
// so both backends return the same melds in the same order.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rummy101/encoding.hpp"

namespace rummy101 {

constexpr int SOLVER_MAX_COPIES = 2;  // real tiles per code accepted by the solvers
constexpr int SOLVER_MAX_JOKERS = 6;  // 2 in the set + one joker-button joker per player (R101-10)

// Work budget (issue 11): every search counts its nodes at the same points as the pure twin
// (one node per state expanded, see solver.cpp) and stops with BudgetExceeded when more than
// `budget` nodes would be expanded. The default refuses no legal rack of <= 28 tiles
// (DESIGN.md, "Work budget"); UNLIMITED_BUDGET switches the check off.
constexpr long long DEFAULT_WORK_BUDGET = 2000000;
constexpr long long UNLIMITED_BUDGET = (1LL << 62) - 1;
constexpr int BUDGET_SPENT = -2;  // solve_melds_batch: the value of a rack that spent its budget

struct BudgetExceeded : std::runtime_error {
  long long budget;
  explicit BudgetExceeded(long long b);
};

// The message both backends give (python/rummy101/_pure/solver.py budget_message).
std::string budget_message(long long budget);

struct MeldOut {
  int kind;                 // KIND_RUN or KIND_SET
  std::vector<int> tiles;   // codes in table order, joker (52) where it stands
  std::vector<int> stand;   // what each position stands for
  bool operator<(const MeldOut& o) const {
    if (kind != o.kind) return kind < o.kind;
    if (stand != o.stand) return stand < o.stand;
    return tiles < o.tiles;
  }
};

struct SolveResult {
  int value = -1;                 // -1: no selection meets the constraints
  std::vector<MeldOut> melds;     // canonical order (kind, stand, tiles)
};

struct PairsResult {
  int n_pairs = -1;
  std::vector<std::pair<int, int>> pairs;  // (code, code) or (code, JOKER), sorted
};

// Throws std::invalid_argument on input outside the solver's limits (same messages as Python).
void check_solver_input(const CoreRules& cr, const Counts& counts, int must_use);
void check_budget(long long budget);  // std::invalid_argument unless budget >= 1

// Throws BudgetExceeded when the search would expand more than `budget` nodes, and
// std::invalid_argument when budget < 1.
SolveResult solve_melds(const CoreRules& cr, const Counts& counts, bool keep, int must_use,
                        bool require_run, long long budget = DEFAULT_WORK_BUDGET);

// solve_melds(...).value without rebuilding the arrangement (the C++ round asks many questions
// that need the value only; the rebuild was about a quarter of a solve). The value search is the
// same one, so it expands the nodes solve_melds expands before its rebuild (never more, and it
// throws BudgetExceeded at the same node when the value search alone spends the budget).
// floor >= 0: the caller asks only whether the value is above floor (an engine's "does this rack
// open / close / cover"): the value when it is, else -1; the search cuts every state that cannot
// pass floor (floor < 0: the plain search). Both backends stop at the same node.
int solve_melds_value(const CoreRules& cr, const Counts& counts, bool keep, int must_use, bool require_run,
                      long long budget = DEFAULT_WORK_BUDGET, int floor = -1);

PairsResult max_pairs(const Counts& counts, bool keep, int must_use,
                      long long budget = DEFAULT_WORK_BUDGET);

// What the calling thread's solver tables hold, in bytes of their vectors' capacity, by table: the
// per-rack memos and transition lists (memo, memo2, tc, tc2: the search's and the relaxed twin's)
// and the lists kept across racks (raw, keyed, rebuild). Memory accounting (docs/simulation.md).
std::vector<std::pair<std::string, size_t>> solver_table_bytes();

}  // namespace rummy101
