// Exact meld solver (issue 11). What follows is the design as it stands; the measurements behind
// each part, round by round, and the ideas measured and dropped are in docs/solve-rounds.md, the
// current figures in docs/solve.md.
//
// THE SEARCH. A memoized search over the numbers 1..13 (14 = Remi's high ace, RO-6). The state at
// number n: for each colour the sorted multiset of run *statuses* of the runs in progress (length
// capped at 3, since a longer run extends freely; a real tile yes/no; with a joker ratio, RO-7,
// real tiles capped at rcap and the jokers), the aces reserved for the high end, the free jokers
// and two flags (a tile left on the rack, a run made). Each run in progress is extended with a real
// tile, extended with a joker, or closed; new runs start; the rest of the tiles of that number go
// to sets (SetTable: which tiles and jokers split into valid sets) or stay on the rack. Without
// a joker ratio or a high ace (rummy101, opening and penalty; seventeenth round) no run starts
// with a joker: a run starts at its first real tile and takes there the k jokers laid before it,
// at their values there (vafter_lead), so no state holds a joker-only run in progress. Values are
// added per position, so a memoized value is exact. The arrangement is rebuilt by walking the same
// enumeration and taking the first transition that attains the optimum.
//
// python/rummy101/_pure/solver.py is the line-for-line twin of the value search AND the rebuild
// (same order, same cuts, same memo), so both expand the same states: a node is one best() call
// not answered by the memo or a leaf, and the work budget (solver.hpp) runs out at the same node.
// What only the C++ does (below) may differ in anything but nodes, values and melds.
//
// BRANCH AND BOUND. The value search tries each colour's transitions best bound first, cuts a
// child whose upper bound cannot beat the best found (alpha), and memoizes exact values and
// fail-soft upper bounds (a value found at or below alpha). The upper bounds:
//  * tiles: a tile that fits some meld counts at its best value; ub_state counts them by the
//    jokers free: a tile at n or n + 1 of a colour with no run in progress, and any tile at
//    >= n + 2, has the jokers of its meld at >= n, so it counts if it fits a meld with jr jokers,
//    and only 4 * jr of the joker-needing tiles at >= n + 2 count (ub_tiles_j);
//  * the joker chain bound jb[n][x] (init_jb): a joker above the highest real tile R left at >= n
//    sits in a chain R+1, R+2, ... of a run, so x jokers are worth at most U_1 + ... + U_x with
//    U_i = max(best joker value at n..R, jrun[R+1..R+i]); within a number, jokers already placed
//    there take the small U's (jrest);
//  * the suffix bound: fresh(m, j, left, ran) is the exact value of the state at m with no run in
//    progress (memoized per reservation). A state at m with runs in progress is split at m: a tail
//    of >= 3 positions with a real tile is a meld of the fresh suffix; the rest are tails of 1-2
//    positions (<= 1 real tile per run at m and at m + 1) and joker-only tails, x of whose jokers
//    are worth <= ja[m][x]; bound = max_x fresh(m, jr - x) + ja[m][x] + those real tiles. With a
//    fixed joker value v, no joker ratio and >= 4 jokers, a short tail holding a real tile may be
//    padded with jokers after it (to m + 2 <= last) into a run of the fresh suffix instead
//    (padded_bound: per colour a small knapsack of which tails to pad);
//  * the keep bound: with nothing left yet, the cheapest remaining tile or joker stays;
//  * the joker need (need_of): a run in progress that cannot close at m (shorter than 3
//    positions, no real tile yet, or short of real tiles for the ratio) takes a tile at m, one of
//    length 1 a tile at m + 1 too; what the real tiles of its colour there do not cover are
//    jokers. A transition into a state whose runs need more jokers than are free is cut (value
//    search and rebuild alike), and the forced jokers count at their value in runs at m and m + 1
//    (jrun) instead of at the chain bound's U (jfree).
// Where the fresh values come from (solve_impl): with must_use of a tile, a joker ratio and
// >= 2 jokers, or more than one reservation of high aces (twenty-first round), from a relaxed
// twin, the same rack searched without must_use, the ratio, keep and require_run (still upper
// bounds; each fresh suffix searched once, not once per (left, ran));
// with a high ace the twin holds at 14 every ace any reservation may reserve (per colour the most
// any reservation reserves; twenty-sixth round) and lays any number of them (opt14), so its
// values serve every reservation. When the twin has the search's own
// rules (must_use of a tile, no joker ratio, no high ace) its states are the search's states,
// keyed alike with their flags unset, and worth at least as much there: the suffix bound of a
// state is also the twin's memoized value of it (eighteenth round). Otherwise (no ratio, or one
// Joly: a meld of >= 3 tiles with one joker meets RO-7; must_use the joker) the search bounds
// itself with its own fresh values with a tile left and a run made (own_relax); racks without a
// joker keep the four exact values.
// No node at all for: a state at 14 (leaf14: a small count per colour of the aces and jokers its
// runs take); with require_run, a state with no run made whose free jokers are fewer than the
// fewest a run at >= n needs (run_need); with reserved aces, one whose jokers cannot give their
// runs the 12s and 13s, or that reaches 13 or 14 with fewer runs of a colour than aces reserved
// in it (res_need); a must_use tile that fits no meld (meldable, before any search). Reservations
// that lack the jokers for their 12s and 13s, or (joker ratio) whose run with jokers at both 12
// and 13 lacks the real tiles the ratio asks (both_jokers_fit), are never searched.
// Dominance (without a joker ratio, jokers free, not in the twin): a state is answered from a
// memoized one that dominates it when that one's value is at or below alpha: the same state with
// a tile left or a run made (each only lifts a condition of the terminal).
// A floor (forty-second round; solve_melds_value only): a caller that asks whether the value
// passes a threshold gives it as the root's first alpha; a rack whose twin's top is at or below
// it answers -1 before the search, and so does one whose search finds nothing above it.
// Stop values: best() takes beta, an upper bound of the state's value (the parent's stop less the
// transition's gain, the child's suffix bound, and at the root the relaxed twin's value of the
// whole rack, top: the twin's aces stay at 1 as well as at 14, so top bounds every reservation).
// A search that finds a value >= beta and > alpha has its exact value and tries no other
// transition (found(): alpha becomes STOP). With a twin the twin first rebuilds its own first
// arrangement of top (thirty-sixth round): when the search could have made it too (each ace
// laid once, at 1 or at 14; RO-7's ratio; a tile kept, the must-use tile laid, a run:
// arrangement_fits), nothing is worth more and it is the answer, without the search or its
// rebuild (Remi lay-downs: 134 of racks_20_plus_2_jokers' 200, 94 of racks_22's 125 twin racks;
// the others mostly lay an ace at both ends, and 38 of those 66 reach no reservation's top at
// all). Otherwise the reservations are searched once each, in order, with stop top, until one
// attains it (forty-fifth round; from the eighteenth, a first pass asked each for top alone,
// alpha top - 1, and a second searched them all below top when none did).
//
// C++ ONLY (the same nodes, values and melds). Each colour's transitions come from lists kept
// across racks per thread: RawTrans (deduplicated by runs, rule set and the tiles of the colour;
// cleared past 2^18 items or 64 rule sets) and KeyedTrans (a list with its per-rack bound keys set and sorted:
// the keys depend on the rack only through the jokers free on entering, whether the colour's tile
// counts in the bound, and the row jb[n] of the joker chain bound, interned exactly in JbIntern;
// both cleared past 2^18 items or 2^14 rows). A colour with no run in progress finds its list in a
// direct table by (number, colour, jokers); a colour that can start no run takes its one
// transition without a list (Frame::one_lim). vcolour and the rebuild's colour_in are templates
// on the colour; what depends on the number alone is computed once per frame and reservation
// (Frame::num_epoch), and a state reuses the lists its frame's previous state asked for the same
// runs and jokers. vsets takes the one empty choice where no set can form without its list and
// computes every choice size's first bound from one prefix maximum. The rebuild stops walking
// where no leaf below a choice can pass sets()'s first tests, and keeps its melds as byte records
// until they are sorted (MeldRec). The rules' constants are built once per thread (rules_const).
// padded_bound's values are kept per thread by state (PadCache; a hit asks for no search).
// A child with no run in progress whose flags are those its fresh value was searched with takes
// that value (its suffix bound) without the best() call the memo would answer (bound_is_value).
// vcolour carries the colours' part of vsets' next-state bounds as it decides them (rpk), the
// suffix bound reads its tails' tiles from a table per number (tail_v), and best() puts a state
// in the memo slot where its probe stopped when that slot is still free (twenty-sixth round).
// Tests that flip from state to state without a pattern are computed without a branch where
// both sides are cheap: a frame's per-colour refresh in best(), suffix_bound's tails' tiles,
// fits()' ub_cut, and vsets' dominance test over the colours left (twenty-eighth round).
//
// THE BOUND ASKED FOR (issue 11: states per number x transitions). A colour holds at most 2 + J
// runs in progress, each one of S statuses (S = 6 without a joker ratio: length 1/2/3+ x real
// tile yes/no; Remi: S <= 3 * (rcap + 1) * (J + 1)), so states per number <= C(2+J+S, S)^4 *
// (J+1) * 4 flags and transitions per state <= prod_c 3^(runs_c) * (new runs) * 81 set choices.
// Without jokers a colour holds 0-2 runs of 3 lengths (10 run lists), so <= 10^4 * 4 = 40,000
// states per number and <= 36^4 transitions each; with J = 6 the count is no useful worst case
// (C(14,6)^4). The joker need narrows the states searched: at number n with jr jokers free, a
// colour holds at most avail(n, c) + jr runs that cannot close, and all colours together at most
// jr more such runs than real tiles can extend. So the 5 ms worst case is NOT bounded: the worst
// racks known (tests/dense_racks.txt, found by bench/dense_search.py's hill climbs) are rummy101
// penalty racks with six jokers, up to 19,502 nodes (~0.05 s; the worst before the runs' leading
// jokers, seventeenth round, needed 91,247, and 27,084 before the twin's states bounded a
// must_use search, eighteenth round), whose cost is the exact fresh suffixes that serve as
// bounds: the plain search of the rack, or of its relaxed twin (given the optimum as a stop
// value they still need ~80% of their nodes). Their nodes are fail-low states near the top of
// the rack with 4-7 runs in progress, entered because a short tail's tile also counts in the
// fresh suffix (nineteenth round: relaxing those states, or valuing them exactly, costs more
// than it saves). A DP whose state does not grow with the jokers, prototyped in the twenty-fifth
// round (bench/proto_fixed_joker.py), bounds the keys but does more work than this search on
// every rack measured, so the work budget is what bounds a request.

#include "rummy101/solver.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#ifdef RUMMY101_SOLVER_STATS
// profiling counters of a standalone build (bench/solve_driver.cpp prints them): nodes, leaves,
// the nodes of the relaxed twin, the nodes inside fresh-suffix searches (thirteenth round)
long g_states = 0, g_leaves = 0, g_twin_states = 0, g_fresh_states = 0;
int g_fresh_depth = 0;
#define SOLVER_STAT(x) (x)
#else
#define SOLVER_STAT(x) ((void)0)
#endif

namespace rummy101 {
namespace {

constexpr int NEG = -(1 << 30);
constexpr int STOP = 1 << 29;  // no stop value (Frame::stop); as an alpha, no bound passes it
constexpr int SJ = SOLVER_MAX_JOKERS + 1;
constexpr int SET_TABLE = 81 * SJ;

inline int sidx(const int* s, int j) { return (((s[0] * 3 + s[1]) * 3 + s[2]) * 3 + s[3]) * SJ + j; }

// lf, bit c: the choice leaves tiles of colour c on the rack (sv[c] < the rest of its list);
// z, bit c: it leaves all of them (sv[c] == 0 < rest); fixed by the list (fifteenth round)
struct SetChoice { uint8_t sv[4]; uint8_t js; uint8_t tot; uint8_t lf, z; };

struct SetTable {
  std::array<bool, SET_TABLE> feas{};
  std::vector<std::pair<int, int>> groups;  // (colour mask, jokers) in decomposition order
  // choices[ridx * SJ + jr]: every feasible (tiles per colour <= rest, jokers <= jr) for the
  // value search, most tiles first; ridx = rest vector in base 3 (rest capped at 2).
  std::vector<SetChoice> choices[81 * SJ];
  // any[box * SJ + j]: some tiles per colour within box and some jokers <= j split into sets
  // (feas). box = sum over c of (lo_c * 3 + hi_c) * 9^c, the tiles of colour c in [lo_c, hi_c]
  // (the rebuild's walk, Solver::colour_in: the colours decided give exactly their tiles, the
  // others up to what they have, so a choice under which no leaf is feasible is walked past)
  std::vector<uint8_t> any;
  // split[sidx(s, j)]: the sets the rebuild lays for s tiles per colour and j jokers, in order:
  // each time the first group (decomposition order) whose removal leaves a feasible rest
  // (eleventh round: a table instead of the search per number; ok false: infeasible)
  struct Split { bool ok; uint8_t cnt; uint8_t mask[8], jg[8]; };
  std::array<Split, SET_TABLE> split{};
};

// Sets: 3-4 tiles, distinct colours, >= 1 real tile, real >= ratio * jokers (RO-7).
SetTable build_set_table(int ratio) {
  SetTable t;
  for (int jg = 0; jg < 4; ++jg)
    for (int pc = 4; pc >= 1; --pc)
      for (int mask = 1; mask < 16; ++mask) {
        if (__builtin_popcount(mask) != pc) continue;
        int size = pc + jg;
        if (size < 3 || size > 4) continue;
        if (pc < ratio * jg) continue;
        t.groups.emplace_back(mask, jg);
      }
  t.feas[0] = true;
  bool changed = true;
  while (changed) {
    changed = false;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 3; ++c)
          for (int d = 0; d < 3; ++d)
            for (int j = 0; j < SJ; ++j) {
              int s[4] = {a, b, c, d};
              if (!t.feas[sidx(s, j)]) continue;
              for (auto [mask, jg] : t.groups) {
                int s2[4] = {a + (mask & 1), b + ((mask >> 1) & 1), c + ((mask >> 2) & 1), d + ((mask >> 3) & 1)};
                int j2 = j + jg;
                if (std::max({s2[0], s2[1], s2[2], s2[3]}) > 2 || j2 >= SJ) continue;
                int k = sidx(s2, j2);
                if (!t.feas[k]) { t.feas[k] = true; changed = true; }
              }
            }
  }
  for (int ridx = 0; ridx < 81; ++ridx) {
    int rest[4] = {ridx / 27, (ridx / 9) % 3, (ridx / 3) % 3, ridx % 3};
    for (int jr = 0; jr < SJ; ++jr) {
      auto& out = t.choices[ridx * SJ + jr];
      for (int a = 0; a <= rest[0]; ++a)
        for (int b = 0; b <= rest[1]; ++b)
          for (int c = 0; c <= rest[2]; ++c)
            for (int d = 0; d <= rest[3]; ++d)
              for (int j = 0; j <= jr; ++j) {
                int s[4] = {a, b, c, d};
                if (a + b + c + d == 0 && j > 0) continue;
                if (!t.feas[sidx(s, j)]) continue;
                uint8_t lf = 0, z = 0;
                for (int q = 0; q < 4; ++q) {
                  if (s[q] < rest[q]) lf |= uint8_t(1u << q);
                  if (s[q] == 0 && rest[q] > 0) z |= uint8_t(1u << q);
                }
                out.push_back(SetChoice{{uint8_t(a), uint8_t(b), uint8_t(c), uint8_t(d)}, uint8_t(j),
                                        uint8_t(a + b + c + d + j), lf, z});
              }
      std::stable_sort(out.begin(), out.end(), [](const SetChoice& x, const SetChoice& y) { return x.tot > y.tot; });
    }
  }
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d)
          for (int j0 = 0; j0 < SJ; ++j0) {
            int s[4] = {a, b, c, d}, j = j0;
            SetTable::Split& sp = t.split[sidx(s, j)];
            sp.ok = t.feas[sidx(s, j)];
            while (sp.ok && (s[0] + s[1] + s[2] + s[3] > 0 || j > 0)) {
              bool done = false;
              for (auto [mask, jg] : t.groups) {
                int s2[4];
                bool neg = false;
                for (int q = 0; q < 4; ++q) { s2[q] = s[q] - ((mask >> q) & 1); if (s2[q] < 0) neg = true; }
                if (neg || jg > j) continue;
                if (!t.feas[sidx(s2, j - jg)]) continue;
                sp.mask[sp.cnt] = uint8_t(mask); sp.jg[sp.cnt++] = uint8_t(jg);
                for (int q = 0; q < 4; ++q) s[q] = s2[q];
                j -= jg;
                done = true;
                break;
              }
              if (!done || sp.cnt == 8) sp.ok = false;  // (neither happens: feas is closed so)
            }
          }
  t.any.assign(6561 * SJ, 0);
  for (int box = 0; box < 6561; ++box) {
    int lo[4], hi[4];
    bool ok = true;
    for (int c = 0, b = box; c < 4; ++c, b /= 9) {
      lo[c] = b % 9 / 3; hi[c] = b % 3;
      if (lo[c] > hi[c]) ok = false;
    }
    if (!ok) continue;
    for (int j = 0; j < SJ; ++j) {
      bool f = j > 0 && t.any[box * SJ + j - 1];
      for (int a = lo[0]; a <= hi[0] && !f; ++a)
        for (int b = lo[1]; b <= hi[1] && !f; ++b)
          for (int c = lo[2]; c <= hi[2] && !f; ++c)
            for (int d = lo[3]; d <= hi[3] && !f; ++d) {
              int sv[4] = {a, b, c, d};
              f = t.feas[sidx(sv, j)];
            }
      t.any[box * SJ + j] = f;
    }
  }
  return t;
}

const SetTable& set_table(int ratio) {
  static std::mutex mu;
  static std::array<SetTable*, 5> cache{};
  int r = std::min(ratio, 4);  // for sets of <= 4 tiles every ratio >= 4 is the same
  std::lock_guard<std::mutex> lock(mu);
  if (!cache[r]) cache[r] = new SetTable(build_set_table(r));
  return *cache[r];
}

// ---- memo: open addressing, reset per rack by a generation stamp ----------------------------
struct Key {
  uint64_t runs[4];
  uint32_t misc;
  bool operator==(const Key& o) const {
    return misc == o.misc && runs[0] == o.runs[0] && runs[1] == o.runs[1] && runs[2] == o.runs[2] &&
           runs[3] == o.runs[3];
  }
};

// a cheaper mix for the hash tables (one multiply; the xor-shift brings the high bits down to
// the low bits that index the table)
inline uint64_t hmix(uint64_t x) {
  x *= 0xbf58476d1ce4e5b9ULL;
  return x ^ (x >> 31) ^ (x >> 47);
}

inline uint64_t mix(uint64_t x) {
  x ^= x >> 31; x *= 0x7fb5d329728ea185ULL; x ^= x >> 27; x *= 0x81dadef4bc2dd44dULL; x ^= x >> 33;
  return x;
}

struct Memo {
  struct Slot { Key key; int value; bool exact; uint32_t gen; };
  std::vector<Slot> slots;
  uint32_t gen = 0;
  size_t used = 0;
  size_t mask = (1 << 12) - 1;  // slots.size() - 1
  Memo() : slots(1 << 12) { for (auto& s : slots) s.gen = 0; }
  void reset() {
    ++gen; used = 0;
    if (gen == 0) { for (auto& s : slots) s.gen = 0; gen = 1; }
  }
  // hash = hmix(sum of one term per field): a key that differs in one field has the sum less
  // that field's term plus its new one (best()'s dominance probes; fourteenth round)
  static uint64_t term(int c, uint64_t r) {
    switch (c) {
      case 0: return r * 0x9e3779b97f4a7c15ULL;
      case 1: return (r * 0xc2b2ae3d27d4eb4fULL) >> 7;
      case 2: return (r * 0x165667b19e3779f9ULL) >> 13;
      default: return (r * 0xd6e8feb86659fd93ULL) >> 19;
    }
  }
  static uint64_t pre_hash(const Key& k) {
    return term(0, k.runs[0]) + term(1, k.runs[1]) + term(2, k.runs[2]) + term(3, k.runs[3]) +
           (uint64_t(k.misc) << 32);
  }
  static uint64_t hash(const Key& k) { return hmix(pre_hash(k)); }
  const Slot* find(const Key& k) const { return find(k, hash(k)); }
  // h: hash(k), computed once by the caller for its find and put (ninth round)
  const Slot* find(const Key& k, uint64_t h) const {
    size_t at;
    return find(k, h, &at);
  }
  // find() that also gives the empty slot where its probe stopped (*at): best() puts its state
  // there if the slot is still empty and the table was not grown since (put_at: at_mask, the
  // mask when it probed), the first empty slot of the same probe (slots are never freed)
  const Slot* find(const Key& k, uint64_t h, size_t* at) const {
    size_t m = mask;
    for (size_t i = h & m;; i = (i + 1) & m) {
      const Slot& s = slots[i];
      if (s.gen != gen) { *at = i; return nullptr; }
      if (s.key == k) return &s;
    }
  }
  void put_at(size_t at, size_t at_mask, const Key& k, int v, bool exact, uint64_t h) {
    if (at_mask == mask && (used + 1) * 2 <= slots.size() && slots[at].gen != gen) {
      Slot& s = slots[at];
      s.key = k; s.value = v; s.exact = exact; s.gen = gen; ++used;
      return;
    }
    put(k, v, exact, h);
  }
  void put(const Key& k, int v, bool exact) { put(k, v, exact, hash(k)); }
  void put(const Key& k, int v, bool exact, uint64_t h) {
    if ((used + 1) * 2 > slots.size()) grow();
    size_t m = mask;
    for (size_t i = h & m;; i = (i + 1) & m) {
      Slot& s = slots[i];
      if (s.gen != gen) { s.key = k; s.value = v; s.exact = exact; s.gen = gen; ++used; return; }
      if (s.key == k) { s.value = v; s.exact = exact; return; }
    }
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots);
    slots.assign(old.size() * 2, Slot{});
    mask = slots.size() - 1;
    for (auto& s : slots) s.gen = 0;
    uint32_t g = gen;
    used = 0;
    for (auto& s : old)
      if (s.gen == g) put(s.key, s.value, s.exact);
  }
};

// ---- per-colour transitions, computed once per (number, colour, runs, jokers, reserved aces) --
// One transition of one colour at one number: the runs in progress after it, the real tiles left
// for sets (rest), the jokers it uses, whether it closes a run, and the value it places.
struct Trans {
  uint64_t packed;
  int gain;
  int key;  // gain + rest * w + jrest(n, j0, jr - jused): the part of the value-search bound it decides
  uint8_t rest, jused;
  bool closed;
  uint8_t need;  // jokers the runs in progress after it need at n+1 and n+2 (need_of)
  int needv;     // ... and their value there
};

// The order of two transitions by their outcome (runs after, rest, jokers used, run closed):
// negative, zero or positive. Equal outcomes are one transition to the rest of the search.
inline int outcome_cmp(const Trans& a, const Trans& b) {
  if (a.packed != b.packed) return a.packed < b.packed ? -1 : 1;
  if (a.rest != b.rest) return a.rest < b.rest ? -1 : 1;
  if (a.jused != b.jused) return a.jused < b.jused ? -1 : 1;
  return int(a.closed) - int(b.closed);
}

// An offset with this bit is into the cross-rack pool (RawTrans), else into the rack's (TransCache)
constexpr uint32_t RAW_LIST = 1u << 31;

struct TransCache {
  struct Slot { uint64_t runs; uint32_t meta; uint32_t gen; uint32_t off, len; };
  std::vector<Slot> slots;
  std::vector<Trans> pool;
  std::vector<Trans> scratch;
  uint32_t gen = 0;
  size_t used = 0;
  size_t mask = (1 << 9) - 1;  // slots.size() - 1
  TransCache() : slots(1 << 9) { for (auto& s : slots) s.gen = 0; }
  void reset() {
    ++gen; used = 0; pool.clear();
    if (gen == 0) { for (auto& s : slots) s.gen = 0; gen = 1; }
    new_direct();
  }
  // The lists of a colour with no run in progress (most lookups), by (number, colour, jokers
  // free on entering the state, jokers free), without hashing; valid for one reservation
  // (new_direct on every set_res), as the keys depend on it (eighth round).
  struct Direct { uint32_t gen, off, len; };
  std::array<Direct, 16 * 4 * SJ * SJ> direct{};
  uint32_t dgen = 1;
  static int dix(int n, int c, int j0, int jr) { return ((n * 4 + c) * SJ + j0) * SJ + jr; }
  void new_direct() {
    if (++dgen == 0) { for (auto& d : direct) d.gen = 0; dgen = 1; }
  }
  static size_t hash(uint64_t runs, uint32_t meta) { return size_t(hmix(runs ^ (uint64_t(meta) << 40) ^ meta)); }
  const Slot* find(uint64_t runs, uint32_t meta) const {
    size_t m = mask;
    for (size_t i = hash(runs, meta) & m;; i = (i + 1) & m) {
      const Slot& s = slots[i];
      if (s.gen != gen) return nullptr;
      if (s.runs == runs && s.meta == meta) return &s;
    }
  }
  void put(uint64_t runs, uint32_t meta, uint32_t off, uint32_t len) {
    if ((used + 1) * 2 > slots.size()) grow();
    size_t m = mask;
    for (size_t i = hash(runs, meta) & m;; i = (i + 1) & m) {
      Slot& s = slots[i];
      if (s.gen != gen) { s = Slot{runs, meta, gen, off, len}; ++used; return; }
    }
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots);
    slots.assign(old.size() * 2, Slot{});
    mask = slots.size() - 1;
    for (auto& s : slots) s.gen = 0;
    uint32_t g = gen;
    used = 0;
    for (auto& s : old)
      if (s.gen == g) put(s.runs, s.meta, s.off, s.len);
  }
};

// The transitions of one colour at one number depend on the rack only through a few local facts
// (the runs in progress, the tiles of that colour at n, n+1, n+2, which of n+1..n+jr hold one,
// the free jokers) and on the rule set; their deduplicated list (before the per-rack bound keys)
// is kept across racks, per thread and rule set (issue 11: generating it was ~20% of a typical
// rack). It changes no search order: the per-rack list is the same list, keyed and sorted as before.
template <class T>
struct ListCache {
  // ext: a second part of the key where a list depends on more than its tiles (KeyedTrans)
  struct Slot { uint64_t runs, rules; uint32_t sig, ext; uint32_t off, len; bool used; };
  std::vector<Slot> slots;
  std::vector<T> pool;
  size_t used = 0;
  size_t mask;  // slots.size() - 1
  explicit ListCache(size_t size = 1 << 10) : slots(size), mask(size - 1) {}
  void clear() { for (auto& sl : slots) sl.used = false; pool.clear(); used = 0; }
  static size_t hash(uint64_t runs, uint64_t rules, uint32_t sig, uint32_t ext) {
    return size_t(hmix(runs ^ (uint64_t(sig) << 40) ^ sig ^ rules ^ (uint64_t(ext) << 20)));
  }
  const Slot* find(uint64_t runs, uint64_t rules, uint32_t sig, uint32_t ext = 0) const {
    size_t m = mask;
    for (size_t i = hash(runs, rules, sig, ext) & m;; i = (i + 1) & m) {
      const Slot& sl = slots[i];
      if (!sl.used) return nullptr;
      if (sl.runs == runs && sl.sig == sig && sl.ext == ext && sl.rules == rules) return &sl;
    }
  }
  void put(uint64_t runs, uint64_t rules, uint32_t sig, uint32_t off, uint32_t len) {
    put(runs, rules, sig, 0, off, len);
  }
  void put(uint64_t runs, uint64_t rules, uint32_t sig, uint32_t ext, uint32_t off, uint32_t len) {
    if ((used + 1) * 2 > slots.size()) {
      std::vector<Slot> old;
      old.swap(slots);
      slots.assign(old.size() * 2, Slot{0, 0, 0, 0, 0, 0, false});
      mask = slots.size() - 1;
      used = 0;
      for (auto& sl : old)
        if (sl.used) put(sl.runs, sl.rules, sl.sig, sl.ext, sl.off, sl.len);
    }
    size_t m = mask;
    for (size_t i = hash(runs, rules, sig, ext) & m;; i = (i + 1) & m) {
      Slot& sl = slots[i];
      if (!sl.used) { sl = Slot{runs, rules, sig, ext, off, len, true}; ++used; return; }
    }
  }
};

using RawTrans = ListCache<Trans>;

// One choice of one colour at one number in the rebuild's walk (Solver::colour): the runs in
// progress of that colour after it, the value its runs place, what it does with each run in
// progress (0 extend with a real tile, 1 with a joker, 2 close), the new runs (real / joker),
// the tiles it gives to sets, the tiles it leaves on the rack and the jokers it uses.
// Eleventh round: besides, what the walk reads of an item, computed once per list: val (dgain +
// the value of its set tiles, which the list's rules and number fix), smax (the largest val of
// this item and the ones after it in its list) and the counts need_of reads of the runs after it.
struct RItem {
  uint64_t packed;
  int dgain;
  int val, smax;
  uint8_t acts[8];
  uint8_t nacts, a_new, b_new, s, lf, jused;
  uint8_t lead[2];  // the jokers laid before each new run's first tile (Solver::vafter_lead)
  bool closed;
  uint8_t k1, k2;  // runs after it that cannot close / of length 1 (need_of)
};
// The rebuild's lists, like RawTrans kept across racks per thread and rule set: a list depends
// on the rack only through the runs in progress of its colour, the tiles of that colour at its
// number, the jokers free and the must-use tile (see Solver::make_list). Eleventh round: the
// lists of a colour with no run in progress (most of them) are found by their signature in a
// table (direct), without hashing; an entry is valid for its rule set and until clear().
struct RebuildLists : ListCache<RItem> {
  struct Direct { uint64_t rules; uint32_t gen, off, len; };
  static constexpr int NSIG = 1 << 12;  // Solver::make_list's sig (n, jr, avail, mu, res) < 2^12
  // [1]: the relaxed twin's (its rule set differs from the search's, and both walk one rack)
  std::array<std::array<Direct, NSIG>, 2> direct{};
  uint32_t dgen = 1;
  void clear() {
    ListCache<RItem>::clear();
    if (++dgen == 0) {
      for (auto& t : direct)
        for (auto& d : t) d.gen = 0;
      dgen = 1;
    }
  }
};
// One object of type T per thread (the caches kept across racks below)
template <class T>
T& per_thread() {
  thread_local T t;
  return t;
}
RebuildLists& rebuild_cache() { return per_thread<RebuildLists>(); }

// The per-thread raw cache; every entry is keyed by the fingerprint of its rule set too (a solve
// may use two: the relaxed twin has no joker ratio).
RawTrans& raw_cache() { return per_thread<RawTrans>(); }

// The keyed lists (fifteenth round): a colour's list with the per-rack bound keys (Trans::key)
// set and sorted, kept across racks, per thread. Its keys depend on the rack only through the
// jokers free on entering the state (j0), whether a tile of the colour counts in the bound
// (Frame::w: 0 or tile_w(n)) and the row jb[n][0..J] of the joker chain bound, which few racks
// tell apart (interned exactly: JbIntern); so the list of (runs, rule set, sig, those) is the
// same list on every rack, and only its first asking makes it (a copy of the cross-rack list
// with the keys, and a sort). Before, every rack copied and sorted its own (~100 a rack on
// racks_20_plus_2_jokers openings) and kept the lists of colours with runs in a per-rack hash.
struct KeyedTrans : ListCache<Trans> {
  KeyedTrans() : ListCache<Trans>(1 << 12) {}
};

// The rows jb[n][0..J] of the joker chain bound, interned exactly (the id keys KeyedTrans; the
// entries past J hold a sentinel, so rows of racks with other joker counts differ)
struct JbIntern {
  struct Slot { std::array<int, SJ> row; bool used; };
  std::vector<Slot> slots;
  std::vector<uint32_t> ids;  // by slot
  size_t used = 0;
  size_t mask = (1 << 8) - 1;
  JbIntern() : slots(1 << 8), ids(1 << 8) {}
  void clear() { for (auto& sl : slots) sl.used = false; used = 0; }
  static size_t hash(const std::array<int, SJ>& r) {
    uint64_t h = 0;
    for (int x : r) h = (h + uint32_t(x)) * 0x9e3779b97f4a7c15ULL;
    return size_t(hmix(h));
  }
  uint32_t get(const std::array<int, SJ>& r) {
    if ((used + 1) * 2 > slots.size()) {
      std::vector<Slot> old;
      std::vector<uint32_t> oids;
      old.swap(slots);
      oids.swap(ids);
      slots.assign(old.size() * 2, Slot{{}, false});
      ids.assign(old.size() * 2, 0);
      mask = slots.size() - 1;
      for (size_t k = 0; k < old.size(); ++k)
        if (old[k].used)
          for (size_t i = hash(old[k].row) & mask;; i = (i + 1) & mask)
            if (!slots[i].used) { slots[i] = old[k]; ids[i] = oids[k]; break; }
    }
    for (size_t i = hash(r) & mask;; i = (i + 1) & mask) {
      Slot& sl = slots[i];
      if (!sl.used) { sl.row = r; sl.used = true; ids[i] = uint32_t(used++); return ids[i]; }
      if (sl.row == r) return ids[i];
    }
  }
};

KeyedTrans& keyed_cache() { return per_thread<KeyedTrans>(); }
JbIntern& jb_intern() { return per_thread<JbIntern>(); }

// padded_bound's values (sixteenth round): a direct-mapped table per thread, an entry valid for
// one Solver's own generation (taken at its first use, again after each reset_fresh) and its
// relaxed twin's num_epoch. A value depends only on the state and on fresh values already
// computed when it was first made, so a hit gives the same value and asks for no search.
struct PadCache {
  struct Slot { Key key; uint32_t gen, epoch; int value; };  // key: the memo's, by (m, jr, left)
  static constexpr size_t N = 1 << 12;
  std::array<Slot, N> slots{};
  uint32_t gen = 0;
  uint32_t next_gen() {
    if (++gen == 0) { for (auto& sl : slots) sl.gen = 0; gen = 1; }
    return gen;
  }
};

// Run statuses of one colour: sorted ascending, packed as bytes (status + 1), low byte first.
struct RunList {
  uint8_t st[8];
  int len;
};

inline uint64_t pack(const uint8_t* st, int len) {
  uint8_t tmp[8];
  if (len > 8) len = 8;  // callers never pass more (<= 2 real + 6 jokers per colour)
  for (int i = 0; i < len; ++i) {  // insertion sort: at most 8 small entries
    uint8_t v = st[i];
    int j = i;
    while (j > 0 && tmp[j - 1] > v) { tmp[j] = tmp[j - 1]; --j; }
    tmp[j] = v;
  }
  uint64_t k = 0;
  for (int i = 0; i < len; ++i) k |= uint64_t(tmp[i] + 1) << (8 * i);
  return k;
}

inline RunList unpack(uint64_t k) {
  RunList r{};
  r.len = 0;
  while (k) { r.st[r.len++] = uint8_t((k & 0xff) - 1); k >>= 8; }
  return r;
}

constexpr uint32_t NO_PICK = ~0u;
// kLeftMask[ridx], bit c: colour c has tiles left for sets, ridx being vsets' rest vector in base
// 3 (min(rest, 2) per colour, colour 0 the highest digit; twenty-sixth round: a table instead of
// a loop over F.rest per call)
struct LeftMasks {
  uint8_t m[81];
  constexpr LeftMasks() : m() {
    for (int r = 0; r < 81; ++r)
      m[r] = uint8_t((r / 27 > 0 ? 1 : 0) | ((r / 9) % 3 > 0 ? 2 : 0) | ((r / 3) % 3 > 0 ? 4 : 0) | (r % 3 > 0 ? 8 : 0));
  }
  constexpr uint8_t operator[](int r) const { return m[r]; }
};
constexpr LeftMasks kLeftMask{};
constexpr int IVL_P[4] = {1, 9, 81, 729};  // SetTable::any: the place of colour c in a box

// A meld of the rebuild before it becomes a MeldOut (codes in bytes), ordered as MeldOut is
// (kind, stand, tiles; each lexicographically, a prefix first). Every meld holds >= 3 of the
// <= 52 * SOLVER_MAX_COPIES + SOLVER_MAX_JOKERS tiles of a rack.
struct MeldRec {
  uint8_t kind, len;
  uint8_t tiles[15], stand[15];
  bool operator<(const MeldRec& o) const {
    if (kind != o.kind) return kind < o.kind;
    int c = lex(stand, len, o.stand, o.len);
    if (c) return c < 0;
    return lex(tiles, len, o.tiles, o.len) < 0;
  }
  static int lex(const uint8_t* a, int na, const uint8_t* b, int nb) {
    for (int i = 0, m = std::min(na, nb); i < m; ++i)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return na - nb;
  }
  MeldOut meld() const {
    return MeldOut{kind, std::vector<int>(tiles, tiles + len), std::vector<int>(stand, stand + len)};
  }
};
constexpr int MAX_MELDS = (52 * SOLVER_MAX_COPIES + SOLVER_MAX_JOKERS) / 3;

// (eleventh round: the choices by their index in the rebuild's pool, read when the arrangement
// is materialised, instead of copies of their actions; NO_PICK: the empty choice)
struct Decision {
  uint32_t pick[4];
  int sv[4];
  int js;
  uint64_t next_runs[4];
  int next_jr;
  bool next_left, next_ran;
  int gain;
};

struct Frame {
  int n;
  int stop;        // a value this state cannot exceed: once reached, its search ends (twelfth round)
  RunList lst[4];
  int avail[4];
  uint8_t ext[4][8];
  int acts[4][8];
  uint64_t new_runs[4];
  int sv[4];
  int lf[4];
  int jr_start[4];
  int rest[4], jused[4], cols_here;
  int w[4];        // value of one tile of colour c at this number in the bound (0: fits no meld)
  int avail_w[5];  // sum over colours >= c of avail * w
  int svw[5];      // rebuild: value of the set tiles of the colours < c
  uint64_t runs_in[4];  // the packed runs in progress of the state
  int one_lim[4];       // vcolour: the most jokers free with which colour c can start no run
  int one_lim0[4];      // ... with no run in progress (enumerate)
  int urp[4];           // ubs_run[n + 1][0][c] | ubs_run[n + 1][1][c] << 16 (0 past last): vcolour's rpk
  uint32_t sig0[4], sig_reach[4];  // parts of transitions_new's sig (enumerate)
  uint32_t num_epoch;   // avail, cols_here, w, one_lim0, ub_after, avail_w hold Solver::num_epoch's
  uint32_t tl_ok[4], tl_off[4][SJ], tl_len[4][SJ];  // transitions() of this state by (colour, jokers)
  int ub_after;    // ub_from(n + 1, 0)
  bool left_in;
  int j0;      // the jokers free when the state was entered (jrest)
  int best;
  int alpha;   // value mode: the caller only needs values > alpha
  int ub_cut;  // the largest upper bound of a branch cut so far (value mode)
  // rebuild
  bool found;
  int want;
  Decision dec;
  uint32_t rl_ok[4], rl_off[4][SJ], rl_len[4][SJ];  // the rebuild's choice lists by (colour, jokers)
  uint32_t pick[4];  // the rebuild's choice of each colour (index in rpool(); NO_PICK: the empty one)
  uint32_t trivial;  // bit c: colour c has no tile here and no run in progress (Solver::colour_in)
  int setv;          // the value of a set tile at this number
  // the box of SetTable::any with the colours < c decided (ivl[c]); colour c undecided adds
  // ivl_cap[c] (its tiles in [0, min(avail, 2)]), decided with s set tiles s * 4 * IVL_P[c]
  int ivl[5], ivl_cap[4];
};

// ---- the constants of a rule set ---------------------------------------------------------------
// What a Solver takes from its rule set alone: the joker values, the best value of a tile per
// number, the joker-tail bound ja and the fingerprint that keys the cross-rack lists. Computed
// once per rule set and thread instead of once per call (issue 11, tenth round: filling the
// 48-int fingerprint and searching for it was ~1,000 of the ~15,000 instructions of an empty rack).
struct RulesConst {
  CoreRules cr;          // the key: the rule set, whether its aces at 14 are optional (opt14), and
  bool opt14 = false;    // rcap, which depends on the jokers of the rack when a joker ratio applies
  int rcap = 0;
  uint64_t era = ~0ULL;  // fp is valid while era == fp_era() (the interning below starts over)
  uint64_t fp = 0;
  uint64_t stamp = 0;    // last use (0: empty slot)
  const SetTable* tab = nullptr;  // set_table(joker_ratio) (without its lock per call)
  int jrun[15], jset[14];
  int tile_ub[16];       // the best value of a tile of number n (1..13; 14: the high ace) in the bounds
  int jpos[16];          // the best value of a joker standing at number p (a run, or a set at <= 13)
  int ja[16][SJ];        // see Solver::ja
};

inline bool same_rules(const CoreRules& a, const CoreRules& b) {
  return a.high_ace == b.high_ace && a.joker_ratio == b.joker_ratio && a.joker_value == b.joker_value &&
         a.run_value == b.run_value && a.set_value == b.set_value;
}

uint64_t& fp_era() {
  thread_local uint64_t era = 0;  // a solver of an older era never meets a newer entry
  return era;
}

// The constants the cross-rack lists depend on, interned exactly: their index keys the cache
// entries (bounded: a full list starts a new era, where the lists are cleared)
uint64_t intern_rules(const std::array<int, 48>& k) {
  thread_local std::vector<std::array<int, 48>> seen;
  size_t i = 0;
  while (i < seen.size() && seen[i] != k) ++i;
  if (i == seen.size()) {
    if (seen.size() >= 64) { seen.clear(); raw_cache().clear(); ++fp_era(); i = 0; }
    seen.push_back(k);
  }
  return fp_era() << 8 | i;
}

// The thread's constants of a rule set, least recently used out. A solve has at most two solvers
// alive (the relaxed twin), each holding its entry: the two most recently used, so with four
// slots an entry is never replaced while its solver lives.
const RulesConst& rules_const(const CoreRules& cr, bool opt14, int rcap) {
  thread_local std::array<RulesConst, 4> slots;
  thread_local uint64_t clock = 0;
  RulesConst* e = nullptr;
  RulesConst* lru = &slots[0];
  for (RulesConst& s : slots) {
    if (s.stamp && s.opt14 == opt14 && s.rcap == rcap && same_rules(s.cr, cr)) { e = &s; break; }
    if (s.stamp < lru->stamp) lru = &s;
  }
  const int last = cr.high_ace ? 14 : 13;
  if (!e) {
    e = lru;
    e->cr = cr; e->opt14 = opt14; e->rcap = rcap; e->era = ~0ULL;
    e->tab = &set_table(cr.joker_ratio);
    for (int n = 0; n < 15; ++n) e->jrun[n] = cr.joker_value == -1 ? cr.run_value[n] : cr.joker_value;
    for (int n = 0; n < 14; ++n) e->jset[n] = cr.joker_value == -1 ? cr.set_value[n] : cr.joker_value;
    for (int m = 0; m < 16; ++m) e->tile_ub[m] = 0;
    for (int m = 1; m <= 13; ++m) e->tile_ub[m] = std::max(cr.run_value[m], cr.set_value[m]);
    if (cr.high_ace) e->tile_ub[1] = std::max(e->tile_ub[1], cr.run_value[14]);
    e->tile_ub[14] = cr.run_value[14];
    for (int p = 0; p < 16; ++p)
      e->jpos[p] = p > 14 ? 0 : p <= 13 ? std::max(e->jrun[p], e->jset[p]) : e->jrun[p];
    // ja[m][x]: x jokers of short tails at m are worth at most the sum over i < x of the best
    // joker value at m .. m + i + 1 (Solver::suffix_bound)
    for (int m = 1; m <= 15; ++m) {
      int acc = 0, pm = 0;
      e->ja[m][0] = 0;
      for (int x = 1; x < SJ; ++x) {
        int p = std::min(m + x, last);  // a joker of a short tail may stand at m + 1
        if (m <= last) pm = std::max(pm, e->jrun[p]);
        acc += pm;
        e->ja[m][x] = acc;
      }
    }
  }
  if (e->era != fp_era()) {
    // the constants the lists depend on; the set values fix tile_w with the run values, and the
    // lists' keys hold it; opt14's lists at 14 leave aces out
    std::array<int, 48> k{};
    int ratio = cr.joker_ratio;
    k[0] = ratio; k[1] = rcap; k[2] = 3 * (rcap + 1); k[3] = last;
    for (int n = 0; n < 15; ++n) { k[4 + n] = cr.run_value[n]; k[19 + n] = e->jrun[n]; }
    k[34] = opt14;
    for (int n = 1; n <= 13; ++n) k[34 + n] = cr.set_value[n];
    e->fp = intern_rules(k);
    e->era = fp_era();
  }
  e->stamp = ++clock;
  return *e;
}

// Can colour c's reserved aces have a run with jokers at both 12 and 13 under the joker ratio
// (RO-7)? Such a run holds >= 2 jokers, so it needs >= 2 * ratio real tiles: the ace and a real
// tile at every position of s..11 but the g more jokers there, for some s (twenty-sixth round:
// with two Jolys, 136 of racks_20_plus_2_jokers' 529 reservations fail it; their searches were
// short, but the relaxed twin held their aces at 14). Only ever says yes too often: the tiles of
// s..11 may be taken by other melds, and position 1 counts every ace.
bool both_jokers_fit(const CoreRules& cr, const Counts& cnt, int c) {
  const int J = cnt[JOKER];
  for (int s = 11, g = 0; s >= 1; --s) {
    g += cnt[c * 13 + s - 1] == 0;
    if (2 + g > J) return false;
    if (12 - s - g + 1 >= cr.joker_ratio * (2 + g)) return true;
  }
  return false;
}

// The reservations of a rack (Solver::solve; issue 11, eleventh round): how many aces of each
// colour are laid at the high end (RO-6), in the order searched. Each reserved ace closes its own
// run ...-12-13-14, and the 12s and 13s missing from those runs are jokers, all colours together.
// With a joker ratio, the runs that get neither a real 12 nor a real 13 must fit it
// (both_jokers_fit). Without a high ace the one reservation is none. Returns their number (1..81).
int reservations(const CoreRules& cr, const Counts& cnt, int resv[81][4]) {
  const int J = cnt[JOKER];
  int lim[4] = {0, 0, 0, 0};
  if (cr.high_ace)
    for (int c = 0; c < 4; ++c)
      lim[c] = std::min({cnt[c * 13], cnt[c * 13 + 12] + J, cnt[c * 13 + 11] + J});
  int nres = 0;
  for (int r0 = 0; r0 <= lim[0]; ++r0)
    for (int r1 = 0; r1 <= lim[1]; ++r1)
      for (int r2 = 0; r2 <= lim[2]; ++r2)
        for (int r3 = 0; r3 <= lim[3]; ++r3) {
          const int rr[4] = {r0, r1, r2, r3};
          int need = 0;
          bool fit = true;
          for (int c = 0; c < 4; ++c) {
            need += std::max(0, rr[c] - cnt[c * 13 + 11]) + std::max(0, rr[c] - cnt[c * 13 + 12]);
            // runs with jokers at both 12 and 13: those the real 12s and 13s cannot reach
            if (cr.joker_ratio > 0 && rr[c] > cnt[c * 13 + 11] + cnt[c * 13 + 12])
              fit = fit && both_jokers_fit(cr, cnt, c);
          }
          if (need <= J && fit) std::memcpy(resv[nres++], rr, sizeof rr);
        }
  return nres;
}

struct Solver {
  const CoreRules& cr;
  const Counts& cnt;
  int J;
  bool keep;
  int must_use;
  bool require_run;
  int ratio, jcap, rcap, last, jmul;
  int jrun[15], jset[14];
  int mu_c, mu_n;
  const RulesConst* rk;  // the rule set's constants (rules_const; alive while this solver is)
  const SetTable& tab;
  long long budget;
  long long own_nodes = 0;
  long long* nodes = &own_nodes;  // states expanded (best() calls not answered by the memo or a leaf)
  Memo& memo;
  TransCache& tc;
  RawTrans* raw = nullptr;  // the cross-rack transition lists (raw_cache)
  KeyedTrans* kc = nullptr;  // the keyed lists (keyed_cache; fifteenth round)
  JbIntern* jbi = nullptr;   // ... and the ids of the rows of jb that key them
  uint32_t jbid[16];         // jbi's id of jb[n] (valid for bit n of jbid_ok; reset_fresh)
  uint32_t jbid_ok = 0;
  uint64_t rules_fp = 0;    // the fingerprint of the rule-set constants they depend on
  int res[4] = {0, 0, 0, 0};
  uint32_t res_bits = 0;
  int res_value = 0;  // (res[0] + ... + res[3]) * run_value[14]: the reserved aces at their high end
  Frame frames[16];
  uint32_t num_epoch = 1;  // Frame::num_epoch (reset_fresh: the reservation changes avail and the bounds)
  // value-mode pruning (never used when rebuilding, so the arrangement keeps the canonical
  // first-optimum tie-break; the values stay exact because only transitions that cannot beat
  // the best one already found, or that are dominated, are skipped)
  bool dominance;          // joker worth its position, no "use a joker" constraint, no leading jokers
  bool jpad;               // a fixed joker value and no joker ratio (suffix_bound pads short tails)
  bool lead;               // no joker ratio, no high ace, jokers: no joker-only runs (vafter_lead)
  int jpre[16] = {};       // (lead) jpre[p]: the joker values at 1..p (a run's leading jokers)
  uint32_t pad_gen = 0;    // this solver's generation in PadCache (0: take one at the next use)
  // The tables below are filled for x <= J jokers only (no search asks for more)
  int tile_ub[16];         // best value of a useful tile at number n
  int ub_tiles[16];        // sum over numbers >= n of useful tiles * their best value
  int jb[16][SJ];          // the joker chain bound: the most x jokers placed at numbers >= n are worth
  int scratch_row[SJ];     // (ub_tiles_j[1] and [2], which nothing reads)
  int ubs_fresh[16][SJ], ubs_run[16][SJ][4];  // parts of ub_state by free jokers (init_ub_state)

  // The rack as bit masks and packed counts (tenth round: the tables are built from these, over
  // the tiles present, instead of over every number and colour, and avail() is one field)
  uint32_t pres[4];   // bit m: colour c has a tile at run position m (1..14; 14: the ace, with a high ace)
  uint64_t acnt0[4];  // 4-bit field m (m = 1..13): the tiles of colour c and number m
  uint64_t acnt[4];   // 4-bit field m (m = 1..14): avail(m, c) under the reservation (set_res_now)
  uint32_t avm[4];    // bit m: avail(m, c) > 0
  uint32_t ge[4];     // ge[k] (k = 1..3), bit m (1..13): >= k colours have a tile of number m
  // bit m (1..14): the tile fits some meld at all, with <= J jokers (useful) or none (u0)
  // ("w": bit 1 also when the ace fits at 14, as the bounds count it)
  uint32_t useful[4], usefw[4], u0w[4];

  // opt14: the relaxed twin's high aces (see solve_impl): the aces at 14 are optional, up to
  // the most any reservation holds, so that one search serves every reservation
  bool opt14;

  Solver(const CoreRules& cr_, const Counts& cnt_, bool keep_, int must_use_, bool require_run_, long long budget_,
         Memo& memo_, TransCache& tc_, bool opt14_ = false, const Solver* like = nullptr)
      : cr(cr_), cnt(cnt_), J(cnt_[JOKER]), keep(keep_), must_use(must_use_), require_run(require_run_),
        ratio(cr_.joker_ratio), rk(&rules_const(cr_, opt14_, rcap_of(cr_.joker_ratio, cnt_[JOKER]))),
        tab(*rk->tab), budget(budget_), memo(memo_), tc(tc_),
        opt14(opt14_) {
    jcap = ratio > 0 ? J : 0;
    rcap = rcap_of(ratio, J);
    last = cr.high_ace ? 14 : 13;
    jmul = 3 * (rcap + 1);
    std::memcpy(jrun, rk->jrun, sizeof jrun);
    std::memcpy(jset, rk->jset, sizeof jset);
    std::memcpy(tile_ub, rk->tile_ub, sizeof tile_ub);
    rules_fp = rk->fp;
    raw = &raw_cache();
    // bounded (6 MB): start over, here where no search holds an index into it
    if (raw->pool.size() > (1u << 18)) raw->clear();
    kc = &keyed_cache();
    jbi = &jb_intern();
    // the same for the keyed lists (~6 MB) and the rows that key them (whose ids they hold)
    if (kc->pool.size() > (1u << 18) || jbi->used > (1u << 14)) { kc->clear(); jbi->clear(); }
    if (must_use >= 0 && must_use < JOKER) { mu_c = must_use / 13; mu_n = must_use % 13 + 1; }
    else { mu_c = -1; mu_n = -1; }
    // no joker-only runs (vafter_lead): without a joker ratio or a high ace, with jokers
    lead = ratio == 0 && !cr.high_ace && J > 0;
    // (not with leading jokers: a joker laid below n cannot be swapped for a tile left at n)
    dominance = cr.joker_value == -1 && must_use != JOKER && !lead;
    // (only with >= 4 jokers: on racks_22 and racks_20_plus_2_jokers it cut no node and cost
    // +2.8% instructions per penalty rack)
    jpad = cr.joker_value >= 0 && ratio == 0 && J >= 4;
    if (lead)
      for (int p = 1; p < 16; ++p) jpre[p] = jpre[p - 1] + (p <= 14 ? jrun[p] : 0);
    for (Frame& f : frames) f.num_epoch = 0;
    if (like) {
      // the relaxed twin of the same rack (solve_impl): these tables depend on the tiles and
      // the values only, not on the joker ratio, keep, must_use or require_run, so copy them
      std::memcpy(pres, like->pres, sizeof pres);
      std::memcpy(acnt0, like->acnt0, sizeof acnt0);
      std::memcpy(ge, like->ge, sizeof ge);
      std::memcpy(useful, like->useful, sizeof useful);
      std::memcpy(usefw, like->usefw, sizeof usefw);
      std::memcpy(u0w, like->u0w, sizeof u0w);
      std::memcpy(ub_tiles, like->ub_tiles, sizeof ub_tiles);
      std::memcpy(ubs_fresh, like->ubs_fresh, sizeof ubs_fresh);
      std::memcpy(ubs_run, like->ubs_run, sizeof ubs_run);
      for (int c = 0; c < 4; ++c) { acnt[c] = acnt0[c]; avm[c] = pres[c] & 0x3ffe; }
    } else {
      init_tiles();
      init_bounds();
      init_ub_state();
    }
    // reset_fresh() (the joker chain bound, the keep bound, the fresh values) runs in set_res,
    // which solve() calls before every search
    // A tile that fits no meld stays on the rack in every arrangement, so "keep a tile" holds by
    // itself: drop the flag from the search (same values, fewer states).
    if (keep)
      for (int c = 0; c < 4; ++c)
        if (pres[c] & 0x3ffe & ~usefw[c]) keep = false;
  }

  // the most real tiles a run status counts (RO-7: real >= ratio * jokers)
  static int rcap_of(int ratio, int J) { return ratio > 0 ? std::max(1, ratio * J) : 1; }

  // the best value of a tile at number n in the bounds (14: the high ace at its run value)
  int tile_w(int n) const { return tile_ub[n]; }

  // The masks and packed counts of the rack, and which tiles fit a meld (useful): a run window
  // s..s+2 (1 <= s <= last - 2) of its colour holding it, with at most `jokers` of the other two
  // positions empty, or a set of its number with >= 3 - jokers colours (RO-6, RO-7: each
  // position counts one real tile, so the ratio is left to the search; necessary conditions)
  void init_tiles() {
    for (int c = 0; c < 4; ++c) {
      uint64_t a = pack_row(&cnt[c * 13]);
      acnt0[c] = acnt[c] = a;
      uint32_t p = nonzero_fields(a);
      if (last == 14) p |= (p >> 1 & 1) << 14;
      pres[c] = p;
      avm[c] = p & 0x3ffe;  // (no reservation yet)
    }
    uint32_t a = pres[0] & 0x3ffe, b = pres[1] & 0x3ffe, c = pres[2] & 0x3ffe, d = pres[3] & 0x3ffe;
    ge[0] = 0x3ffe;
    ge[1] = a | b | c | d;
    ge[2] = (a & b) | (c & d) | ((a | b) & (c | d));
    ge[3] = (a & b & (c | d)) | (c & d & (a | b));
    const uint32_t W = ((1u << (last - 1)) - 1) & ~1u;  // the window starts 1..last-2
    const uint32_t setJ = ge[std::max(0, 3 - J)];
    for (int k = 0; k < 4; ++k) {
      uint32_t u0 = run_cover(pres[k], 0, W) | ge[3];
      uint32_t uj = run_cover(pres[k], std::min(J, 2), W) | setJ;
      useful[k] = uj;
      usefw[k] = uj | (uj >> 13 & 2);
      u0w[k] = u0 | (u0 >> 13 & 2);
    }
  }
  // The 13 counts of a colour (0..2 each, check_solver_input) as the 4-bit fields 1..13: two
  // ints a load, v0 | v1 << 32 folded to v0 | v1 << 4 (tenth round: a third of the loop's cost)
  static uint64_t pack_row(const int* row) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t a = 0;
    for (int i = 0; i < 12; i += 2) {
      uint64_t x;
      std::memcpy(&x, row + i, sizeof x);
      a |= ((x | x >> 28) & 0xff) << (4 * i);
    }
    return (a | uint64_t(row[12]) << 48) << 4;
#else
    uint64_t a = 0;
    for (int m = 1; m <= 13; ++m) a |= uint64_t(row[m - 1]) << (4 * m);
    return a;
#endif
  }
  // bit i: the 4-bit field i of a (each 0..3) is not 0 (the field bits gathered in four steps)
  static uint32_t nonzero_fields(uint64_t a) {
    uint64_t t = (a | a >> 1) & 0x1111111111111111ULL;
    t = (t | t >> 3) & 0x0303030303030303ULL;
    t = (t | t >> 6) & 0x000f000f000f000fULL;
    t = (t | t >> 12) & 0x000000ff000000ffULL;
    return uint32_t(t | t >> 24) & 0xffff;
  }
  // bit m: a window s..s+2 (a bit of W) holding m has at most j of its other two positions empty
  static uint32_t run_cover(uint32_t p, int j, uint32_t W) {
    uint32_t p1 = p >> 1, p2 = p >> 2;
    if (j >= 2) return W | W << 1 | W << 2;
    if (j == 1) return ((p1 | p2) & W) | ((p | p2) & W) << 1 | ((p | p1) & W) << 2;
    return (p1 & p2 & W) | ((p & p2) & W) << 1 | ((p & p1) & W) << 2;
  }

  // Bounds: a tile that can be melded without jokers counts at its best value; a tile that
  // needs a joker sits in a meld with a joker, and a meld with k jokers holds at most 4k such
  // tiles (<= 2 real tiles on each side of every joker in a run, <= 3 in a set), so only the
  // 4 * J most valuable of those count.
  // ub_tiles_j[m][x], ub_tiles with x jokers free (only 4x of the joker-needing tiles count), is
  // the part of ubs_fresh[m - 2][x] at >= m (init_ub_state): written there directly.
  // (Rows of SJ entries, a constant count the compiler stores in a few moves; tenth round)
  void init_bounds() {
    ub_tiles[14] = ub_tiles[15] = 0;
    for (int n = 12; n <= 14; ++n)
      for (int x = 0; x < SJ; ++x) ubs_fresh[n][x] = 0;  // (ub_tiles_j[14] and [15]: nothing)
    const int k = 4 * J;
    // values of joker-needing tiles at numbers >= m, descending: the first ntop (<= k) of them
    // (zeroed past ntop: the sums below read them under a mask)
    int top[4 * SJ] = {};
    int ntop = 0, sure = 0;
    // Thirtieth round: the tiles' counts added under masks, and the sums below in fixed strides
    // of four, instead of tests per tile and loops whose trip counts change from number to
    // number (cachegrind: init_bounds had ~80 mispredicted branches a joker rack, 3.5% of all)
    for (int m = 13; m >= 1; --m) {
      const int v = tile_ub[m];
      int need = 0;  // the tiles at m that need a joker (all worth v)
      for (int c = 0; c < 4; ++c) {
        const int n_t = cnt[c * 13 + m - 1];
        sure += n_t * v & -int(u0w[c] >> m & 1);
        need += n_t & -int((usefw[c] & ~u0w[c]) >> m & 1);
      }
      for (int x = 0; x < need; ++x) {
        int pos = ntop;
        while (pos > 0 && top[pos - 1] < v) --pos;
        if (pos >= k) break;  // (and so for the other copies of v)
        int end = std::min(ntop, k - 1);
        for (int q = end; q > pos; --q) top[q] = top[q - 1];
        top[pos] = v;
        ntop = std::min(ntop + 1, k);
      }
      int* utj = m >= 3 ? ubs_fresh[m - 2] : scratch_row;  // ub_tiles_j[m]
      // utj[x]: sure + the 4x most valuable of them (min(4x, ntop)); x > J: all, as 4x > k >= ntop
      int extra = 0;
      utj[0] = sure;
      if (!ntop) {  // (no tile that needs a joker yet: ntop only grows, so this flips once a rack)
        for (int x = 1; x < SJ; ++x) utj[x] = sure;
      } else {
        for (int x = 1; x < SJ; ++x) {
          for (int q = 4 * x - 4; q < 4 * x; ++q) extra += top[q] & -int(q < ntop);
          utj[x] = sure + extra;
        }
      }
      ub_tiles[m] = sure + extra;  // (ntop <= 4J <= 4 (SJ - 1): every kept tile)
    }
  }

  // The joker chain bound (per reservation: a reserved ace is a real tile at 14, RO-6). Let R be
  // the highest number >= n holding a real tile (at least n - 1,
  // where the runs in progress hold theirs). A joker at a number in [n, R] is worth at most VL, the
  // best joker value there; a joker above R sits in a run whose part above R is jokers only, a
  // chain R+1, R+2, ... So the i-th joker of a chain is worth at most
  // U_i = max(VL, jrun[R+1..min(R+i, last)]), U is non-decreasing, and x jokers in any number of
  // chains are worth at most U_1 + ... + U_x = jb[n][x].
  void init_jb() {
    const uint32_t nums = avm[0] | avm[1] | avm[2] | avm[3];  // the numbers holding a real tile
    // T: the highest of them (<= last); sm[p]: the best joker value at p..T (fifteenth round:
    // one suffix maximum instead of a loop per n)
    const int T = nums ? 31 - __builtin_clz(nums) : 0;
    const int Tl = std::min(T, last);
    int sm[17];
    sm[Tl + 1] = 0;
    for (int p = Tl; p >= 1; --p) sm[p] = std::max(sm[p + 1], rk->jpos[p]);
    for (int n = 1; n <= 15; ++n) {
      jb[n][0] = 0;
      if (!J) continue;
      const bool below = n <= last && T >= n;  // a real tile at >= n: the highest is T
      int top = below ? T : n - 1;
      int pm = below ? sm[n] : 0;
      for (int i = 1; i <= J; ++i) {
        if (top + i <= last) pm = std::max(pm, jrun[top + i]);
        jb[n][i] = jb[n][i - 1] + pm;
      }
    }
  }
  // The x jokers still free at number n when j0 were free on entering it: each joker takes its
  // own index i of U_1..U_j0 (chains one after another), so x of them are worth at most the x
  // largest U_i (the jokers placed at n already may hold the small ones).
  int jrest(int n, int j0, int x) const { return jb[n][j0] - jb[n][j0 - x]; }
  // jrest when `need` of those x jokers are known to stand in runs at n + 1 and n + 2 (need_of),
  // worth needv there: the others take the x - need largest U's (any subset of the jokers placed
  // at >= n is bounded that way, as each joker keeps its own index), so the forced ones count at
  // their value instead of the chain's (issue 11: a joker that must extend a run at a low number
  // is worth that number, not the best joker value above it). need > x: no child (cut anyway).
  int jfree(int n, int j0, int x, int need, int needv) const {
    if (need > x) return jrest(n, j0, x);
    return needv + jb[n][j0] - jb[n][j0 - x + need];
  }

  // A sharper bound for a state about to be entered at number n: a tile at n or n+1 of a colour
  // with no run in progress can only join a run starting at n or later (or a set).
  // Its tile part depends on the jokers free, jr: such a tile's meld has its jokers at >= n, so
  // it fits some meld with jr jokers (init_ub_state); and a tile at >= n + 2 that needs a joker has a
  // free one within 2 positions in its run (every window holding it lies in n..), or in its set,
  // so only 4 * jr of them count (ub_tiles_j). A colour with a run in progress (which may hold
  // placed jokers) counts its tiles at n, n + 1 as before, when they fit a meld at all (useful).
  int ub_state(int n, const uint64_t* runs, int jr) const {
    if (n > last) return 0;
    return ub_state_j(n, ub_state_runs(n, runs, jr), jr);
  }
  // ub_state in two steps: the tiles and reserved aces (n <= last), then the jokers.
  int ub_state_runs(int n, const uint64_t* runs, int jr) const {
    int u = ubs_fresh[n][jr];
    if (n >= 2 || opt14) u += res_value;  // (ub_from)
    const int* ur = ubs_run[n][jr];
    for (int c = 0; c < 4; ++c) u += ur[c] & -int(runs[c] != 0);
    return u;
  }
  int ub_state_j(int n, int base, int jr) const {
    if (n > last) return 0;
    return std::min(base + jb[n][jr], ub_from(n, jr));
  }

  // ub_state without the jokers and reserved aces when no colour has a run in progress
  // (ubs_fresh), and what a run in progress of colour c adds (ubs_run).
  // A tile (c, m) counts in the states at n = m and n = m - 1, with its run starting at >= n:
  // a tile fits more melds as the jokers x grow, so for x >= its fewest jokers x0
  // (in a set, or a run window starting at >= n) it counts in ubs_fresh, and below x0 in ubs_run
  // when it fits a meld at all
  // (a tile that fits none has x0 = J + 1). Tenth round: a loop over the tiles present, not
  // over every number and colour.
  void init_ub_state() {
    // (ubs_fresh[n] holds ub_tiles_j[n + 2] already: init_bounds)
    for (int n = 1; n <= 14; ++n)
      for (int x = 0; x <= J; ++x) std::memset(ubs_run[n][x], 0, sizeof ubs_run[n][x]);
    const uint32_t W = ((1u << (last - 1)) - 1) & ~1u;  // the window starts 1..last-2
    for (int c = 0; c < 4; ++c) {
      const uint32_t p = pres[c];
      if (!(p & 0x3ffe)) continue;
      // bit m: a run window holding m, starting at m (a) or at m - 1 or m (b), lacks at most
      // 0 / 1 / 2 of its other two positions: the fewest jokers of a run starting at >= n for
      // every tile at once (n is m or m - 1; tenth round: one window test per tile, no loop)
      const uint32_t p1 = p >> 1, p2 = p >> 2, q = p << 1;
      const uint32_t a0 = p1 & p2 & W, a1 = (p1 | p2) & W, a2 = W;
      const uint32_t b0 = a0 | (q & p1 & W << 1), b1 = a1 | ((q | p1) & W << 1), b2 = W | W << 1;
      // (lead) bit m: some window holding m lacks at most 0 / 1 / 2 of its other two positions
      // (twenty-sixth round: three masks per colour instead of a loop over the windows per tile)
      const uint32_t l0 = run_cover(p, 0, W), l1 = run_cover(p, 1, W), l2 = run_cover(p, 2, W);
      for (uint32_t b = p & 0x3ffe; b; b &= b - 1) {
        const int m = __builtin_ctz(b);
        const int v = cnt[c * 13 + m - 1] * tile_ub[m];
        const int vu = v & -int(useful[c] >> m & 1);
        // The fewest jokers as counts of nested masks (ge[3] within ge[2]; a0 within a1 within
        // a2, the same for b and l), and the tile added under masks below, not chains of tests
        // and loops whose outcome changes from tile to tile (thirtieth round: they were ~70
        // mispredicted branches a joker rack in cachegrind)
        const int xs = 2 - int(ge[2] >> m & 1) - int(ge[3] >> m & 1);  // a set: 3 - colours at m
        // (lead) the fewest of the other two positions missing, any window holding m
        const int xlead = 3 - int(l0 >> m & 1) - int(l1 >> m & 1) - int(l2 >> m & 1);
        // n = m, then n = m - 1 (an ace, m = 1, counts at 1 only)
        for (int i = 0; i < 2 - (m == 1); ++i) {
          const int n = m - i;
          int xr = i == 0 ? 3 - int(a0 >> m & 1) - int(a1 >> m & 1) - int(a2 >> m & 1)
                          : 3 - int(b0 >> m & 1) - int(b1 >> m & 1) - int(b2 >> m & 1);
          if (lead) xr = xlead;  // its run may start below n with jokers (vafter)
          // x0 <= 2: the tile counts in ubs_fresh for x >= x0 and in ubs_run below (x <= 1)
          const int x0 = std::min(std::min(xs, xr), J + 1);
          for (int x = 0; x <= J; ++x) ubs_fresh[n][x] += v & -int(x >= x0);
          ubs_run[n][0][c] += vu & -int(x0 > 0);
          if (J >= 1) ubs_run[n][1][c] += vu & -int(x0 > 1);
        }
      }
    }
  }

  // Upper bound of the value placed at numbers >= n with jr jokers unused (reserved aces are
  // counted at number 1 for n == 1, and at their high position afterwards).
  int ub_from(int n, int jr) const {
    if (n > last) return 0;
    int u = ub_tiles[n] + jb[n][jr];
    if (n >= 2 || opt14) u += res_value;  // (the twin's aces are at 1 and at 14: set_res_now)
    return u;
  }

  // ---- the suffix bound ------------------------------------------------------------------
  // fresh(m, j, left, ran): the exact value of the state at m with no run in progress (computed
  // once per reservation, by the search itself). A state at m with runs in progress is bounded
  // by splitting every run at m: a tail of >= 3 positions holding a real tile is a meld of the
  // fresh suffix; what is left are tails of 1-2 positions (real tiles at m and m+1, at most one
  // per run, a joker among them at m or m + 1) and joker-only tails starting at m: x such jokers
  // are worth at most ja[m][x] = sum over i < x of the best joker value at m .. m + i + 1
  // (rules only: RulesConst::ja).
  Solver* relax = this;  // the solver whose fresh values bound this one (must_use: without it)
  // the fresh values that bound a state are this search's own with a tile left and a run made
  // (flags that only lift conditions of the terminal), whatever its flags: one value, not four
  // (one Joly, solve_impl)
  bool own_relax = false;
  // the relaxed twin differs from this search only by must_use, keep and require_run (no joker
  // ratio, no high ace: the same rules, so the same states, keyed alike with its flags unset);
  // such a state is worth at least as much there, and suffix_bound takes the twin's memoized
  // value of the state as a bound too (solve_impl; eighteenth round)
  bool twin_states = false;
  bool twin = false;  // this is a relaxed twin (solve_impl; its rebuild lists' direct table, the profiling counters)
  // tail_v[m][c][k >= 2]: min(k, avail(m, c)) * run_value[m] + the same at m + 1 <= last (the
  // real tiles of the short tails of k runs in progress of colour c at m; suffix_bound), per
  // reservation (reset_fresh; twenty-sixth round: instead of counting the runs per call)
  int tail_v[16][4][2];
  uint32_t tail_ok = 0;  // bit m: tail_v[m] is set for this reservation
  void init_tail(int m) {
    static_assert(SOLVER_MAX_COPIES == 2, "tail_v counts the runs of a colour up to 2");
    for (int c = 0; c < 4; ++c)
      for (int k = 1; k <= 2; ++k)
        tail_v[m][c][k - 1] = std::min(k, avail(m, c)) * cr.run_value[m] +
                              (m + 1 <= last ? std::min(k, avail(m + 1, c)) * cr.run_value[m + 1] : 0);
    tail_ok |= 1u << m;
  }
  int fresh_v[16][SJ][2][2];
  uint8_t fresh_ok[16][SJ][2][2];
  int g_v[16][SJ][2];
  uint8_t g_ok[16][SJ][2];
  // keep (R101-12): with nothing left on the rack yet, one item at >= m stays: every tile and
  // joker at its best value (all_v) less the cheapest of them
  int all_v[16], min_v[16];

  // require_run (RO-8): run_need[n] is the fewest jokers that a run lying wholly at numbers >= n
  // needs (a window of >= 3 positions of one colour, one real tile per position that holds one,
  // jokers elsewhere, real >= ratio * jokers, RO-7; J + 1 when none fits). A state with no run
  // made and none in progress has its runs at >= n, so with fewer jokers free its value is NEG:
  // it is answered before the memo (issue 11, eighth round: 12% of Remi's nodes on racks_22 were
  // such states, each searched to the end). A window's jokers only grow with its end, so the
  // scan of a start stops at the best count so far.
  int run_need[16];
  void init_run_need() {
    run_need[last + 1] = J + 1;
    if (lead) { init_run_need_lead(); return; }
    for (int n = last; n >= 1; --n) {
      int b = run_need[n + 1];
      for (int c = 0; c < 4 && b > 0; ++c) {
        int real = 0;
        for (int e = n; e <= last; ++e) {
          real += avm[c] >> e & 1;
          int len = e - n + 1, jk = len - real;
          if (jk >= b) break;
          if (len >= 3 && real >= 1 && real >= ratio * jk) b = jk;
        }
      }
      run_need[n] = b;
    }
  }
  // with leading jokers (vafter_lead; no joker ratio): a run whose real tiles lie at >= n may
  // have jokers below n; its fewest jokers are those of a window holding its real tiles,
  // wherever it starts
  void init_run_need_lead() {
    for (int n = last; n >= 1; --n) {
      int b = J + 1;
      for (int c = 0; c < 4; ++c)
        for (int s0 = 1; s0 <= last - 2; ++s0) {
          int real = 0;
          for (int e = s0; e <= last; ++e) {
            if (e >= n) real += avm[c] >> e & 1;
            if (e - s0 + 1 >= 3 && real >= 1) b = std::min(b, e - s0 + 1 - real);
          }
        }
      run_need[n] = b;
    }
  }

  // Reserved high aces (RO-6): each closes its own run ...-12-13-14 of its colour, so a state at
  // n <= 13 needs a joker for every such run that the real tiles at 12 and 13 (those at >= n)
  // do not cover (res_need[n]), and at 13 and 14 a run in progress for every reserved ace of its
  // colour; otherwise its value is NEG, answered before the memo (eighth round, ~1% of Remi's nodes).
  int res_need[16];
  void init_res_need() {
    for (int n = 1; n <= 15; ++n) {
      int need = 0;
      for (int c = 0; c < 4; ++c)
        for (int m = 12; m <= 13; ++m)
          if (m >= n && res[c] > 0) need += std::max(0, res[c] - avail(m, c));
      res_need[n] = need;
    }
  }

  void reset_fresh() {
    ++num_epoch;  // (every frame's per-number fields: enumerate)
    init_jb();
    jbid_ok = 0;
    if (require_run) init_run_need();
    if (res_bits) init_res_need();  // (read only with reserved aces)
    tail_ok = 0;
    std::memset(fresh_ok, 0, sizeof fresh_ok);
    std::memset(g_ok, 0, sizeof g_ok);
    if (jpad) { std::memset(h_n, 0, sizeof h_n); pad_gen = 0; }  // (read only with jpad)
    all_v[last + 1] = 0;
    min_v[last + 1] = 1 << 29;
    const uint64_t sum = acnt[0] + acnt[1] + acnt[2] + acnt[3];  // (4-bit fields: <= 8 tiles each)
    for (int m = last; m >= 1; --m) {
      int v = tile_w(m), a = int(sum >> (4 * m) & 15);
      all_v[m] = all_v[m + 1] + a * v;
      min_v[m] = a > 0 ? std::min(min_v[m + 1], v) : min_v[m + 1];
    }
  }
  int keep_bound(int m, int jr) const {
    int b = NEG;  // a tile stays, or a joker stays
    if (min_v[m] < (1 << 29)) b = all_v[m] - min_v[m] + jb[m][jr];
    if (jr > 0) b = std::max(b, all_v[m] + jb[m][jr - 1]);
    return b;
  }
  int fresh(int m, int j, bool l, bool r) {
    // without keep (or require_run) the flag changes no value: one search serves both; with
    // own_relax both are set (upper bounds of the other three, eleventh round)
    l = keep && (l || own_relax);
    r = require_run && (r || own_relax);
    uint8_t& ok = fresh_ok[m][j][l][r];
    if (!ok) {
      static const uint64_t empty[4] = {0, 0, 0, 0};
      SOLVER_STAT(++g_fresh_depth);
      fresh_v[m][j][l][r] = best(m, empty, j, l, r, NEG);
      SOLVER_STAT(--g_fresh_depth);
      ok = 1;
    }
    return fresh_v[m][j][l][r];
  }
  // An upper bound of the state (m, runs, jr, left, ran) for m <= last (exact with no runs).
  int suffix_bound(int m, const uint64_t* runs, int jr, bool left, bool ran) {
    Solver& s = *relax;
    if (!(runs[0] | runs[1] | runs[2] | runs[3])) return s.fresh(m, jr, left, ran);
    // aces reserved for the high end must be laid; from 13 on a short tail may hold them, which
    // the fresh suffix (that has to lay them itself) does not allow: no bound there
    if (m >= 13 && (res[0] | res[1] | res[2] | res[3])) return 1 << 29;
    int& g0 = g_v[m][jr][left];
    if (!g_ok[m][jr][left]) {
      bool rr = require_run;  // the runs in progress close: the suffix has a run
      g0 = NEG;
      for (int x = 0; x <= jr; ++x) {
        int f = s.fresh(m, jr - x, left, rr);
        if (f > NEG) g0 = std::max(g0, f + rk->ja[m][x]);
      }
      g_ok[m][jr][left] = 1;
    }
    int g = g0;
    if (g <= NEG) return NEG;
    if (jpad && m + 2 <= last && !res_bits && jr < s.J) {
      g = padded_bound(m, runs, jr, left);
    } else {
      // (tail_v: the colour's tiles at m and m + 1 that its k runs' short tails may take, by
      // whether k >= 2, as no colour has more than SOLVER_MAX_COPIES = 2 tiles of a number)
      if (!(tail_ok >> m & 1)) init_tail(m);
      const int(*tv)[2] = tail_v[m];
      for (int c = 0; c < 4; ++c) g += tv[c][(runs[c] >> 8) != 0] & -int(runs[c] != 0);  // (no branch: twenty-eighth round)
    }
    // The same state in the relaxed twin (twin_states): its memoized value, exact or a fail-soft
    // upper bound, bounds this one too (eighteenth round)
    if (twin_states)
      if (const Memo::Slot* e = s.memo.find(s.state_key(m, runs, jr, false, false))) g = std::min(g, e->value);
    return g;
  }
  // (out of line: the racks it serves are few, and suffix_bound stays small for the others)
  __attribute__((noinline)) int padded_bound(int m, const uint64_t* runs, int jr, bool left) {
    // the same states come back from many parents: on the worst racks known this bound was
    // over a third of the instructions (sixteenth round)
    PadCache& pc = per_thread<PadCache>();
    if (!pad_gen) pad_gen = pc.next_gen();
    const Key key{{runs[0], runs[1], runs[2], runs[3]}, uint32_t(m) | uint32_t(jr) << 4 | uint32_t(left) << 8};
    PadCache::Slot& sl = pc.slots[Memo::hash(key) & (PadCache::N - 1)];
    if (sl.gen == pad_gen && sl.epoch == relax->num_epoch && sl.key == key) return sl.value;
    const int v = padded_value(m, runs, jr, left);
    if (!pad_gen) pad_gen = pc.next_gen();  // (a search it asked for may have reset this solver)
    sl = PadCache::Slot{key, pad_gen, relax->num_epoch, v};
    return v;
  }
  int padded_value(int m, const uint64_t* runs, int jr, bool left) {
    Solver& s = *relax;
    // A fixed joker value and no joker ratio (issue 11, ninth round): a short tail holding a
    // real tile, padded with jokers after it (at most m + 2 <= last), is a run of the fresh
    // suffix, so a completion of this state is worth at most v * jr + max over j <= jr + p of
    // (fresh(m, j) - v * j) (hpad) plus the real tiles of the tails not padded, p the padding
    // jokers. Per colour the tails of r of its k runs are padded (at most pc jokers: a tail of
    // one position, which only a run of length >= 2 may have, takes two and holds a tile at m)
    // and the others' tiles count as above (tc); cost[p]: the least sum of tc with p jokers.
    constexpr int INF = 1 << 29;
    const int room = s.J - jr;
    int cost[SJ], nxt[SJ];
    cost[0] = 0;
    for (int p = 1; p <= room; ++p) cost[p] = INF;
    for (int c = 0; c < 4; ++c) {
      if (!runs[c]) continue;
      int k = 0, k1 = 0;
      for (uint64_t r = runs[c]; r; r >>= 8) {
        ++k;
        if ((int(r & 0xFF) - 1) % 3 == 0) ++k1;
      }
      const int am = avail(m, c), am1 = avail(m + 1, c);
      for (int p = 0; p <= room; ++p) nxt[p] = INF;
      for (int r = 0; r <= k; ++r) {
        const int a1 = std::min(std::min(am, r), k - k1);
        const int pc = 2 * a1 + std::min(r - a1, am + am1 - a1);
        const int tcv = std::min(k - r, am) * cr.run_value[m] + std::min(k - r, am1) * cr.run_value[m + 1];
        for (int p = 0; p + pc <= room; ++p)
          if (cost[p] + tcv < nxt[p + pc]) nxt[p + pc] = cost[p] + tcv;
      }
      for (int p = 0; p <= room; ++p) cost[p] = nxt[p];
    }
    const int v = cr.joker_value;
    int b = NEG;
    for (int p = 0; p <= room; ++p) {
      if (cost[p] >= INF) continue;
      const int h = s.hpad(m, left, jr + p);
      const int u = h <= NEG ? NEG : v * jr + h + cost[p];
      if (b == NEG || u < b) b = u;
    }
    return b;
  }
  // hpad(m, left, j): the most fresh(m, j') - v * j' over j' <= j (fixed joker value v), computed
  // on demand in order of j (the fresh values it asks for may search: the same order in both twins)
  int h_v[16][2][SJ];
  int h_n[16][2];
  int hpad(int m, bool left, int j) {
    int* lst = h_v[m][left];
    int& len = h_n[m][left];
    const int v = cr.joker_value;
    while (len <= j) {
      const int i = len;
      const int f = fresh(m, i, left, require_run);
      int h = f > NEG ? f - v * i : NEG;
      if (i > 0 && lst[i - 1] > h) h = lst[i - 1];
      lst[i] = h;
      len = i + 1;
    }
    return lst[j];
  }

  int st_real(int st) const { return (st / 3) % (rcap + 1); }
  int st_jok(int st) const { return st / jmul; }
  bool closable(int st) const {
    int real = st_real(st);
    return st % 3 == 2 && real >= 1 && real >= ratio * st_jok(st);
  }
  int ext_real(int st) const {
    int ln = std::min(st % 3 + 1, 2);
    int real = std::min(st_real(st) + 1, rcap);
    return ln + 3 * real + jmul * st_jok(st);
  }
  int ext_joker(int st) const {
    int ln = std::min(st % 3 + 1, 2);
    int jk = st_jok(st) + (ratio > 0 ? 1 : 0);
    return ln + 3 * st_real(st) + jmul * jk;
  }
  int new_joker() const { return ratio > 0 ? jmul : 0; }

  // The jokers that the runs of colour c in progress at n + 1 (packed) need, at least, to be
  // completed: a run that cannot close there (shorter than 3 positions, no real tile yet, or
  // short of real tiles for the joker ratio, RO-7) takes a tile at n + 1, one of length 1 a tile
  // at n + 2 too, each tile (real or joker) in one run; the real tiles of colour c there cover
  // some of them, jokers the rest (past the last number: none can, 99). A state whose runs need
  // more jokers than it has free has the value NEG, so a transition into it is cut (issue 11:
  // ~89% of the nodes of the 70,873-node dense rack were such states, searched to a leaf).
  // *val: what those jokers are worth there (they stand at n + 1 and n + 2 in runs: jrun).
  int need_of(int n, int c, uint64_t packed, int* val) const {
    *val = 0;
    int k1 = 0, k2 = 0;
    for (uint64_t r = packed; r; r >>= 8) {
      int st = int(r & 0xff) - 1;
      if (!closable(st)) ++k1;
      if (st % 3 == 0) ++k2;  // length 1 (never closable)
    }
    if (!k1) return 0;
    int m = n + 1;
    if (m > last) return 99;
    int need = std::max(0, k1 - avail(m, c));
    *val = need * jrun[m];
    if (k2) {
      if (m + 1 > last) { *val = 0; return 99; }
      int n2 = std::max(0, k2 - avail(m + 1, c));
      need += n2;
      *val += n2 * jrun[m + 1];
    }
    return need;
  }

  // need_of's count from the two counts of the runs (the rebuild's items carry them, RItem)
  int need_from(int n, int c, int k1, int k2) const {
    if (!k1) return 0;
    int m = n + 1;
    if (m > last) return 99;
    int need = std::max(0, k1 - avail(m, c));
    if (k2) {
      if (m + 1 > last) return 99;
      need += std::max(0, k2 - avail(m + 1, c));
    }
    return need;
  }

  // the real tiles of colour c at number n (1..last) for runs and sets: the reserved aces
  // (RO-6) are at 14, not at 1 (one field of acnt, set_res_now)
  int avail(int n, int c) const { return int(acnt[c] >> (4 * n) & 15); }

  int terminal(const uint64_t* runs, int jr, bool left, bool ran) const {
    for (int c = 0; c < 4; ++c) {
      RunList l = unpack(runs[c]);
      for (int i = 0; i < l.len; ++i) {
        if (!closable(l.st[i])) return NEG;
        ran = true;
      }
    }
    if (keep && !left && jr == 0) return NEG;
    if (require_run && !ran) return NEG;
    if (must_use == JOKER && jr == J) return NEG;
    return 0;
  }

  // The value of a state at 14 (the high ace, RO-6; issue 11, eleventh round): no run starts
  // there and no set forms, so each run in progress takes an ace of its colour, takes a joker
  // or closes, the aces at 14 are all laid (the relaxed twin: any of them), and every run then
  // closes (terminal). Its exact value is computed here, a leaf like terminal(), instead of
  // searched as a node: per colour the (aces, jokers) its runs can take, then the colours
  // together by jokers (at most 8 runs, 2 aces, J jokers).
  __attribute__((noinline)) int leaf14(const uint64_t* runs, int jr, bool left, bool ran) const {
    int tot[SJ];  // tot[u]: the most value with u jokers at 14 over the colours so far (NEG: none)
    tot[0] = 0;
    for (int u = 1; u <= jr; ++u) tot[u] = NEG;
    const int rv = cr.run_value[14], jv = jrun[14];
    bool any = false;
    for (int c = 0; c < 4; ++c) {
      const int t = avail(14, c);
      if (!runs[c]) {
        if (t > 0 && !opt14) return NEG;  // aces with no run to take them
        continue;
      }
      any = true;
      // f[a]: bit u when the runs so far can take a aces and u jokers
      uint32_t f[3] = {1u, 0u, 0u};
      const uint32_t jm = (2u << jr) - 1;  // u <= jr
      for (uint64_t r = runs[c]; r; r >>= 8) {
        const int st = int(r & 0xff) - 1;
        const bool cl = closable(st), er = closable(ext_real(st)), ej = closable(ext_joker(st));
        uint32_t g[3] = {0u, 0u, 0u};
        for (int a = 0; a <= std::min(t, 2); ++a) {
          if (!f[a]) continue;
          if (cl) g[a] |= f[a];
          if (ej) g[a] |= (f[a] << 1) & jm;
          if (er && a + 1 <= std::min(t, 2)) g[a + 1] |= f[a];
        }
        f[0] = g[0]; f[1] = g[1]; f[2] = g[2];
      }
      int cv[SJ];
      for (int u = 0; u <= jr; ++u) cv[u] = NEG;
      for (int a = opt14 ? 0 : t; a <= std::min(t, 2); ++a)
        for (uint32_t b = f[a]; b; b &= b - 1) {
          const int u = __builtin_ctz(b);
          cv[u] = std::max(cv[u], a * rv + u * jv);
        }
      int nt[SJ];
      for (int u = 0; u <= jr; ++u) nt[u] = NEG;
      for (int u1 = 0; u1 <= jr; ++u1) {
        if (tot[u1] <= NEG) continue;
        for (int u2 = 0; u1 + u2 <= jr; ++u2)
          if (cv[u2] > NEG) nt[u1 + u2] = std::max(nt[u1 + u2], tot[u1] + cv[u2]);
      }
      for (int u = 0; u <= jr; ++u) tot[u] = nt[u];
    }
    // the terminal's conditions on what is left (a run in progress closes: the run is made)
    int b = NEG;
    for (int u = 0; u <= jr; ++u) {
      if (tot[u] <= NEG) continue;
      const int j2 = jr - u;
      if (keep && !left && j2 == 0) continue;
      if (require_run && !(ran || any)) continue;
      if (must_use == JOKER && j2 == J) continue;
      b = std::max(b, tot[u]);
    }
    return b;
  }

  // A state's memo key (best(); suffix_bound reads the relaxed twin's memo with it)
  Key state_key(int n, const uint64_t* runs, int jr, bool left, bool ran) const {
    return Key{{runs[0], runs[1], runs[2], runs[3]},
               uint32_t(n) | uint32_t(jr) << 4 | uint32_t(left) << 8 | uint32_t(ran) << 9 | res_bits << 10};
  }

  // The value of a state: exact when it is > alpha; otherwise an upper bound <= alpha (the state
  // cannot help the caller). The memo remembers which (exact value or upper bound).
  int best(int n, const uint64_t* runs, int jr, bool left, bool ran, int alpha, int beta = STOP) {
    // (one test on the path of every call: n >= 14 is past the last number, or 14 with a high ace)
    if (n >= 14) return n > last ? terminal(runs, jr, left, ran) : leaf14(runs, jr, left, ran);
    // Every completion closes the runs in progress (terminal), so with one the run is made: one
    // state, not two by the flag (same value; issue 11, seventh round: -6% of Remi's nodes)
    ran |= require_run & ((runs[0] | runs[1] | runs[2] | runs[3]) != 0);  // (no branch; sixteenth round)
    const Key key = state_key(n, runs, jr, left, ran);
    const uint64_t kpre = Memo::pre_hash(key);
    const uint64_t kh = hmix(kpre);
    size_t at = 0;
    const size_t at_mask = memo.mask;
    if (const Memo::Slot* e = memo.find(key, kh, &at)) {
      if (e->exact || e->value <= alpha) return e->value;
      at = SIZE_MAX;  // (an entry of the key: put() updates it)
    }
    // States whose value is NEG by a count of jokers (eighth round; never memoized, so tested
    // here, past the memo hits): no run can be made any more (run_need), or the reserved aces
    // cannot all close their runs (res_need)
    if (require_run && !ran && jr < run_need[n]) return NEG;
    if (res_bits && !opt14) {
      if (jr < res_need[n]) return NEG;
      if (n >= 13)
        for (int c = 0; c < 4; ++c) {
          int k = 0;
          for (uint64_t r = runs[c]; r; r >>= 8) ++k;
          if (k < res[c]) return NEG;
        }
    }
    // Flag dominance (issue 11, seventh round): a tile already left (keep) or a run already made
    // (require_run) only lifts a condition of the terminal, so the same state with the flag set
    // is worth at least as much; its memoized value (exact or an upper bound) at or below alpha
    // bounds this state too. Probed in this order on both backends; no node. It probes only
    // where jokers are free and without a joker ratio: the racks it pays on (~6,000 of the
    // seventh round's worst rack's nodes) are rummy101 joker racks; elsewhere (racks without jokers,
    // Remi: no node saved on the dense set) it would only cost (callgrind, with the seventh
    // round's closable-run dominance, dropped in the nineteenth: +1.6-2.8% on Remi). Nor in Remi's
    // relaxed twin (opt14; eleventh round): there the two saved 29 of its ~20,000 nodes on
    // racks_20_plus_2_jokers and cost four memo probes a node (-2.3% instructions off).
    bool dom = ratio == 0 && jr > 0 && !opt14;
    bool l_up = dom && keep && !left, r_up = dom && require_run && !ran;
    if (l_up || r_up) {
      for (int f = 1; f <= 3; ++f) {
        if (((f & 1) && !l_up) || ((f & 2) && !r_up)) continue;
        Key k2 = key;
        k2.misc |= uint32_t(f & 1) << 8 | uint32_t(f >> 1) << 9;
        if (const Memo::Slot* e = memo.find(k2, hmix(kpre + (uint64_t(k2.misc - key.misc) << 32))))
          if (e->value <= alpha) return e->value;
      }
    }
    if (++*nodes > budget) throw BudgetExceeded(budget);  // the node count of the work budget
    Frame& F = frames[n];
    F.alpha = alpha;
    // Stop values (issue 11, twelfth round): beta bounds this state's value from above (a
    // parent's stop less the gain of the transition into it, or the suffix bound of the state,
    // vsets). A search that finds beta (above alpha, so exactly) has its value: the rest of its
    // transitions are not tried (found()).
    F.stop = beta;
    SOLVER_STAT(++g_states);
    SOLVER_STAT(g_twin_states += twin);
    SOLVER_STAT(g_fresh_states += g_fresh_depth > 0);
    int v = enumerate(F, n, runs, jr, left, ran);
    const bool exact = v > alpha;
    if (!exact) v = std::max(F.best, F.ub_cut);  // fail-soft upper bound
    if (at != SIZE_MAX) memo.put_at(at, at_mask, key, v, exact || v <= NEG, kh);
    else memo.put(key, v, exact || v <= NEG, kh);
    return v;
  }

  int enumerate(Frame& F, int n, const uint64_t* runs, int jr, bool left, bool ran) {
    F.n = n;
    F.best = NEG;
    F.ub_cut = NEG;
    F.found = false;
    // what depends on the number alone (and the reservation): once per frame and reservation
    // (fifteenth round; frames[n] serves every state at n, and the rebuild writes the same)
    if (F.num_epoch != num_epoch) {
      F.num_epoch = num_epoch;
      for (int c = 0; c < 4; ++c) F.avail[c] = avail(n, c);
      F.cols_here = 0;
      for (int c = 0; c < 4; ++c) F.cols_here += F.avail[c] > 0;
      int tv = tile_w(n);
      for (int c = 0; c < 4; ++c) F.w[c] = (usefw[c] >> n & 1) ? tv : 0;
      // vcolour: colour c with no run in progress can start no run with up to one_lim0[c]
      // jokers free (-1: it may with none). No tile here: jokers start a run only where a tile
      // of its colour lies within their reach, n + 1 .. n + jr (vafter), so up to its distance
      // - 1; tiles here: none free and no tile of its colour at n + 1 or n + 2
      const bool start = n <= last - 2 && n <= 13;
      // (both cases computed and one selected, not tests per colour: they flip from colour to
      // colour and number to number; thirtieth round)
      for (int c = 0; c < 4; ++c) {
        const uint32_t above = avm[c] >> (n + 1);
        const int none = start && above ? __builtin_ctz(above) : SJ;  // no tile here
        const int some = -int(start && (above & 3) == 3);               // tiles here
        F.one_lim0[c] = some + ((none - some) & -int(F.avail[c] == 0));
      }
      F.ub_after = ub_from(n + 1, 0);
      for (int c = 0; c < 4; ++c)  // (ubs_run[m][x] is set for x <= J only)
        F.urp[c] = n + 1 <= last ? ubs_run[n + 1][0][c] | (J >= 1 ? ubs_run[n + 1][1][c] << 16 : 0) : 0;
      F.avail_w[4] = 0;
      for (int c = 3; c >= 0; --c) F.avail_w[c] = F.avail_w[c + 1] + F.avail[c] * F.w[c];
      // transitions_new's sig but for the jokers: the number, the tiles of the colour at n,
      // n + 1, n + 2, and where runs may start which of n + 1 .. hold one (sig_reach)
      for (int c = 0; c < 4; ++c) {
        F.sig0[c] = uint32_t(n) | uint32_t(acnt[c] >> (4 * n) & 0xfff) << 7;
        F.sig_reach[c] = start ? avm[c] >> (n + 1) : 0;
      }
      F.j0 = -1;  // (the lists asked below: none yet)
    }
    // the lists asked by the last state at n (F.tl_*) serve this one for the colours whose runs
    // in progress are the same, with the same jokers on entering (they fix the lists and keys)
    // (F.one_lim follows F.runs_in: set where it changes, here and in the rebuild; twenty-sixth
    // round)
    // (without a branch per colour: whether its runs changed flips from state to state;
    // one_lim0 >= -1, so | -1 is -1; twenty-eighth round)
    const uint32_t same_j0 = -uint32_t(F.j0 == jr);
    F.j0 = jr;
    for (int c = 0; c < 4; ++c) {
      F.tl_ok[c] &= same_j0 & -uint32_t(F.runs_in[c] == runs[c]);
      F.runs_in[c] = runs[c];
      F.one_lim[c] = F.one_lim0[c] | -int(runs[c] != 0);
    }
    F.left_in = left;
    if (!fits(F, F.ub_after + jb[n][jr] + F.avail_w[0])) return F.best;
    vcolour<0>(F, jr, 0, ran, 0, 0, 0, 0, 0);
    return F.best;
  }

  // ---- value search: runs per colour first, then the sets of this number from a table ------
  // Same optimum as the canonical enumeration below (which the rebuild walks); only the order
  // differs and transitions that cannot beat the best found so far, or are dominated, are cut.
  static int thr(const Frame& F) { return std::max(F.best, F.alpha); }
  // the stop value of a child reached with gain g (best(), twelfth round)
  static int sub_stop(const Frame& F, int g) { return F.stop == STOP ? STOP : F.stop - g; }
  // a value found: the best so far; at the stop value (and above alpha, so exact) no other
  // transition is tried (every bound fails against an alpha of STOP)
  static void found(Frame& F, int v) {
    if (v <= F.best) return;
    F.best = v;
    if (v >= F.stop && v > F.alpha) F.alpha = STOP;
  }
  // Can a branch with this upper bound beat thr? If not it is cut, and its bound is kept: the
  // largest cut bound (with the best value found) bounds the state when it fails low, which
  // is tighter than alpha and lets later visits with a lower alpha reuse the memo entry.
  static bool fits(Frame& F, int bound) {
    if (bound > thr(F)) return true;
    F.ub_cut = std::max(F.ub_cut, bound);
    return false;
  }

  // The transitions of colour c at this number with jr jokers free, best bound first.
  __attribute__((always_inline)) std::pair<uint32_t, uint32_t> transitions(Frame& F, int c, int jr) {
    if (F.tl_ok[c] >> jr & 1) return {F.tl_off[c][jr], F.tl_len[c][jr]};  // asked in this state
    if (F.runs_in[c]) return transitions_new(F, c, jr);
    // with no joker free the list does not depend on the jokers free on entering (jfree is 0
    // for every item): one entry for every j0 (fourteenth round)
    TransCache::Direct& d = tc.direct[TransCache::dix(F.n, c, jr ? F.j0 : 0, jr)];
    if (d.gen != tc.dgen) {
      std::pair<uint32_t, uint32_t> r = transitions_new(F, c, jr);
      d = TransCache::Direct{tc.dgen, r.first, r.second};
      return r;
    }
    F.tl_ok[c] |= 1u << jr; F.tl_off[c][jr] = d.off; F.tl_len[c][jr] = d.len;
    return {d.off, d.len};
  }
  __attribute__((noinline)) std::pair<uint32_t, uint32_t> transitions_new(Frame& F, int c, int jr) {
    int n = F.n;
    int tv = tile_w(n);
    // no joker free: jfree is 0 and the key gain + rest * F.w[c], which is the cross-rack list's
    // gain + rest * tile_w(n) when the tile counts at tile_w(n) or the colour has no tile here
    // (rest 0; tenth round: no per-rack copy for the colours absent at n either)
    const bool raw_is_list = jr == 0 && (F.w[c] == tv || F.avail[c] == 0);
    // what the list depends on besides the runs in progress (see RawTrans)
    // the number, the tiles of the colour at n, n + 1, n + 2 (acnt's fields), and where runs may
    // start which of n + 1 .. n + jr hold one (avm; bit m - n - 1)
    // (F.sig0, F.sig_reach: once per frame and reservation, enumerate)
    const uint32_t sig = F.sig0[c] | uint32_t(jr) << 4 | (F.sig_reach[c] & ((1u << jr) - 1)) << 19;
    uint32_t off, len;
    if (raw_is_list) {
      // the cross-rack list is this rack's list, in its order (eighth round: no per-rack copy,
      // sort or lookup)
      if (const RawTrans::Slot* e = raw->find(F.runs_in[c], rules_fp, sig)) {
        off = e->off; len = e->len;
      } else {
        off = raw_list_new(F, c, jr, sig);
        len = uint32_t(raw->pool.size()) - off;
      }
      F.tl_ok[c] |= 1u; F.tl_off[c][0] = off | RAW_LIST; F.tl_len[c][0] = len;
      return {off | RAW_LIST, len};
    }
    // the keyed list (KeyedTrans): with no joker free its keys depend on w alone (jfree is 0)
    const uint32_t ext = jr == 0 ? uint32_t(F.w[c] != 0)
                                 : uint32_t(F.w[c] != 0) | uint32_t(F.j0) << 1 | jb_id(n) << 4;
    if (const KeyedTrans::Slot* e = kc->find(F.runs_in[c], rules_fp, sig, ext)) {
      off = e->off; len = e->len;
    } else {
      off = keyed_list_new(F, c, jr, sig, ext);
      len = uint32_t(kc->pool.size()) - off;
    }
    F.tl_ok[c] |= 1u << jr; F.tl_off[c][jr] = off; F.tl_len[c][jr] = len;
    return {off, len};
  }
  // jbi's id of the row jb[n][0..J] (once per reservation and number)
  uint32_t jb_id(int n) {
    if (!(jbid_ok >> n & 1)) {
      std::array<int, SJ> row;
      for (int x = 0; x < SJ; ++x) row[x] = x <= J ? jb[n][x] : NEG;
      jbid[n] = jbi->get(row);
      jbid_ok |= 1u << n;
    }
    return jbid[n];
  }
  // A keyed list not yet made: the cross-rack list with this rack's keys, sorted by them
  // (out of line: past the first racks it is rare)
  __attribute__((noinline)) uint32_t keyed_list_new(Frame& F, int c, int jr, uint32_t sig, uint32_t ext) {
    const int n = F.n;
    uint32_t roff, rlen;
    if (const RawTrans::Slot* e = raw->find(F.runs_in[c], rules_fp, sig)) {
      roff = e->off; rlen = e->len;
    } else {
      roff = raw_list_new(F, c, jr, sig);
      rlen = uint32_t(raw->pool.size()) - roff;
    }
    std::vector<Trans>& pool = kc->pool;
    const uint32_t off = uint32_t(pool.size());
    for (uint32_t i = 0; i < rlen; ++i) {
      Trans u = raw->pool[roff + i];
      u.key = u.gain + u.rest * F.w[c] + jfree(n, F.j0, jr - u.jused, u.need, u.needv);
      pool.push_back(u);
    }
    auto by_key = [](const Trans& a, const Trans& b) { return a.key != b.key ? a.key > b.key : outcome_cmp(a, b) < 0; };
    if (rlen > 1 && !std::is_sorted(pool.begin() + off, pool.end(), by_key))
      std::sort(pool.begin() + off, pool.end(), by_key);
    kc->put(F.runs_in[c], rules_fp, sig, ext, off, rlen);
    return off;
  }

  // A cross-rack list not yet made (transitions_new): its offset in raw->pool. Out of line
  // (fourteenth round): past the first racks it is rare, and without it the hot path of
  // transitions_new saves and restores fewer registers.
  __attribute__((noinline, cold)) uint32_t raw_list_new(Frame& F, int c, int jr, uint32_t sig) {
    const int n = F.n;
    const int tv = tile_w(n);
    uint32_t roff, rlen;
    auto& out = tc.scratch;
    out.clear();
    F.lst[c] = unpack(F.runs_in[c]);
    F.jr_start[c] = jr;
    vrun(F, c, 0, 0, jr, 0, false);
    // keep the best gain of equal outcomes (the rest of the search sees only the outcome)
    std::sort(out.begin(), out.end(), [](const Trans& a, const Trans& b) {
      int o = outcome_cmp(a, b);
      return o ? o < 0 : a.gain > b.gain;
    });
    roff = uint32_t(raw->pool.size());
    for (size_t i = 0; i < out.size(); ++i) {
      const Trans& t = out[i];
      if (i > 0 && outcome_cmp(out[i - 1], t) == 0) continue;
      Trans u = t;
      u.need = uint8_t(need_of(n, c, u.packed, &u.needv));
      // its runs need more jokers than it leaves free: vcolour skips it whatever the other
      // colours need, so it is left out (eighth round: fewer items to step over)
      if (u.need > jr - u.jused) continue;
      u.key = u.gain + u.rest * tv;
      raw->pool.push_back(u);
    }
    rlen = uint32_t(raw->pool.size()) - roff;
    // in the order of the per-rack keys with no joker free (below), whose keys they hold: such
    // a list is then the per-rack list itself (transitions_new), and the others are nearly
    // sorted (the per-rack order is total, so this order changes nothing but the work)
    std::sort(raw->pool.begin() + roff, raw->pool.end(), [](const Trans& a, const Trans& b) {
      return a.key != b.key ? a.key > b.key : outcome_cmp(a, b) < 0;
    });
    raw->put(F.runs_in[c], rules_fp, sig, roff, rlen);
    return roff;
  }

  // need: the jokers that the runs in progress of the colours < c need at n+1 and n+2 (need_of);
  // restw: the sum of F.rest[c2] * F.w[c2] over those colours; rix: their min(F.rest[c2], 2) as
  // base-3 digits, vsets' row of the set table (nineteenth round: read back from F.rest, the four
  // 4-byte stores just made were loaded as one 16-byte vector, which the store buffer cannot
  // forward: ~7% of vsets' samples on the joker racks). The colour is a template argument
  // (ninth round: the four nested loops are one function, no call per transition)
  template <int c>
  __attribute__((always_inline)) void vcolour(Frame& F, int jr, int gain, bool ran, int need, int needv, int restw,
                                              int rix, int rpk) {
    if constexpr (c == 4) {
      vsets(F, jr, gain, ran, need, needv, rix, rpk);
    } else {
      vcolour_body<c>(F, jr, gain, ran, need, needv, restw, rix, rpk);
    }
  }
  template <int c>
  __attribute__((always_inline)) void vcolour_body(Frame& F, int jr, int gain, bool ran, int need, int needv, int restw,
                                                   int rix, int rpk) {
    // bound of a child: gain + its key + (everything that does not depend on the child)
    int fixed = gain + F.ub_after + F.avail_w[c + 1] + restw;
    // Fourteenth round: a colour with no run in progress that can start none has one
    // transition, its tiles all for sets (gain 0, rest avail, no joker, no need, not closing;
    // key rest * w + jfree(n, j0, jr, 0, 0)): with no tile here, when its jokers cannot start a
    // run (none free, no run starts at n, or no tile of its colour at n + 1 .. n + jr: vafter's
    // reach), and with no joker free, when a run of its tiles cannot start (no run starts at n,
    // or no tile of its colour at n + 1 or n + 2). It is stepped here as vcolour steps a list,
    // without the list (~45% of the colours entered on joker racks, most of them lists new to
    // the rack: transitions_new); the same bound, cut and child.
    // (F.one_lim[c]: the most jokers free for which that holds, -1 for none; enumerate)
    if (jr <= F.one_lim[c]) {
      {
        const int n = F.n;
        const int a = F.avail[c];
        if (need > jr) return;
        if (!fits(F, fixed + a * F.w[c] + jb[n][F.j0] - jb[n][F.j0 - jr])) return;
        F.new_runs[c] = 0;
        F.rest[c] = a;
        F.jused[c] = 0;
        vcolour<c + 1>(F, jr, gain, ran, need, needv, restw + a * F.w[c], rix * 3 + std::min(a, 2), rpk);
        return;
      }
    }
    auto [off, len] = transitions(F, c, jr);
    // the list is this rack's (tc.pool) or the cross-rack one (RAW_LIST); either pool may
    // grow, and move, in the recursion below, so it is indexed afresh each time
    const std::vector<Trans>& pool = (off & RAW_LIST) ? raw->pool : kc->pool;
    off &= ~RAW_LIST;
    for (uint32_t i = 0; i < len; ++i) {
      const Trans& t = pool[off + i];
      if (need + t.need > jr - t.jused) continue;  // no child can be completed (its value is NEG)
      if (!fits(F, fixed + t.key)) break;  // sorted by key, and thr only grows
      F.new_runs[c] = t.packed;
      F.rest[c] = t.rest;
      F.jused[c] = t.jused;
      int g2 = gain + t.gain;
      int jr2 = jr - t.jused;
      bool ran2 = ran | t.closed;  // (| not ||: no branch on t.closed; sixteenth round)
      vcolour<c + 1>(F, jr2, g2, ran2, need + t.need, needv + t.needv, restw + t.rest * F.w[c],
                     rix * 3 + std::min(int(t.rest), 2), rpk + (F.urp[c] & -int(t.packed != 0)));
    }
  }

  void vrun(Frame& F, int c, int i, int used_r, int jr, int gain, bool ran) {
    // value order: extend with a real tile, close, extend with a joker (jokers last finds good
    // arrangements sooner); equal statuses take actions in non-decreasing rank (multisets once)
    static constexpr int kOrder[3] = {0, 2, 1};
    static constexpr int kRank[3] = {0, 2, 1};
    const RunList& lst = F.lst[c];
    if (i == lst.len) { vafter(F, c, used_r, jr, gain, ran); return; }
    int st = lst.st[i];
    int lo = (i > 0 && lst.st[i - 1] == st) ? kRank[F.acts[c][i - 1]] : 0;
    int n = F.n;
    int t = F.avail[c];
    for (int r = lo; r < 3; ++r) {
      int a = kOrder[r];
      if (a == 0) {
        if (used_r < t) {
          F.acts[c][i] = 0;
          F.ext[c][i] = uint8_t(ext_real(st));
          vrun(F, c, i + 1, used_r + 1, jr, gain + cr.run_value[n], ran);
        }
      } else if (a == 1) {
        if (jr > 0) {
          F.acts[c][i] = 1;
          F.ext[c][i] = uint8_t(ext_joker(st));
          vrun(F, c, i + 1, used_r, jr - 1, gain + jrun[n], ran);
        }
      } else if (closable(st)) {
        F.acts[c][i] = 2;
        F.ext[c][i] = 0xff;
        vrun(F, c, i + 1, used_r, jr, gain, true);
      }
    }
  }

  void vafter(Frame& F, int c, int used_r, int jr, int gain, bool ran) {
    int n = F.n;
    int t = F.avail[c];
    const RunList& lst = F.lst[c];
    uint8_t base[16];
    int nb = 0;
    for (int i = 0; i < lst.len; ++i)
      if (F.ext[c][i] != 0xff) base[nb++] = F.ext[c][i];
    if (n == 14) {
      if (used_r != t && !opt14) return;  // reserved aces are laid (the relaxed twin: may be)
      tc.scratch.push_back(Trans{pack(base, nb), gain, 0, 0, uint8_t(F.jr_start[c] - jr), ran, 0, 0});
      return;
    }
    int used_j = F.jr_start[c] - jr;
    if (lead) { vafter_lead(F, c, used_r, jr, gain, ran, base, nb, used_j); return; }
    bool can_start = n <= last - 2 && n <= 13;
    int max_a = can_start ? t - used_r : 0;
    for (int a_new = max_a; a_new >= 0; --a_new) {
      if (a_new > 0) {  // the new runs need tiles (or jokers) at n+1 and n+2
        int miss = std::max(0, a_new - avail(n + 1, c)) + std::max(0, a_new - avail(n + 2, c));
        if (miss > jr) continue;
      }
      int rest = t - used_r - a_new;
      int max_b = can_start ? jr : 0;
      for (int b_new = 0; b_new <= max_b; ++b_new) {
        if (b_new > 0) {  // a joker-only run must reach a real tile of its colour
          bool reach = false;
          for (int m = n + 1; m <= std::min(last, n + jr) && !reach; ++m) reach = avail(m, c) > 0;
          if (!reach) continue;
        }
        int k = nb;
        if (k + a_new + b_new > 8) continue;
        uint8_t tmp[16];
        std::memcpy(tmp, base, nb);
        for (int x = 0; x < a_new; ++x) tmp[k++] = 3;
        for (int x = 0; x < b_new; ++x) tmp[k++] = uint8_t(new_joker());
        tc.scratch.push_back(Trans{pack(tmp, k), gain + a_new * cr.run_value[n] + b_new * jrun[n], 0,
                                   uint8_t(rest), uint8_t(used_j + b_new), ran, 0, 0});
      }
    }
  }

  // vafter without a joker ratio or a high ace (`lead`; seventeenth round): no run starts with
  // a joker. A run starts at its first real tile and takes there k jokers laid before it, at
  // n - k .. n - 1 (k <= n - 1; a run starting at 12 or 13 needs 1 or 2 of them), worth their
  // values there (lead_value): the same arrangements as joker-only runs in progress that reach
  // the tile, whose states are gone. Each new run: k = 0, 1 or >= 2 gives its length 1, 2, 3+
  // (status 3 + k). The joker bounds hold as before: a joker below n is worth no more than at n
  // (run values do not decrease; test_solve_value_guard.py).
  void vafter_lead(Frame& F, int c, int used_r, int jr, int gain, bool ran, const uint8_t* base, int nb,
                   int used_j) {
    const int n = F.n;
    const int t = F.avail[c];
    const int max_a = n <= 13 ? t - used_r : 0;
    const int a1 = avail(n + 1, c), a2 = avail(n + 2, c);
    uint8_t ks[LEAD_MAX][2];
    for (int a_new = max_a; a_new >= 0; --a_new) {
      const int rest = t - used_r - a_new;
      if (nb + a_new > 8) continue;
      for (int i = 0, nk = lead_choices(n, a_new, jr, ks); i < nk; ++i) {
        const int k1 = ks[i][0], k2 = ks[i][1], kk = k1 + k2;
        // the new runs need tiles (or jokers) at n + 1 (length < 3) and n + 2 (length 1)
        int m1 = 0, m2 = 0;
        if (a_new >= 1) { m1 += k1 < 2; m2 += k1 < 1; }
        if (a_new >= 2) { m1 += k2 < 2; m2 += k2 < 1; }
        const int miss = std::max(0, m1 - a1) + std::max(0, m2 - a2);
        if (miss > jr - kk) continue;
        tc.scratch.push_back(Trans{lead_packed(base, nb, a_new, ks[i]), gain + a_new * cr.run_value[n] + lead_value(n, a_new, ks[i]),
                                   0, uint8_t(rest), uint8_t(used_j + kk), ran, 0, 0});
      }
    }
  }
  static constexpr int LEAD_MAX = 32;  // (a_new 2, jr 6: 16 pairs)
  // the value of the jokers laid before a_new new runs at n, k[x] of them at n - k[x] .. n - 1
  int lead_value(int n, int a_new, const uint8_t* k) const {
    int v = 0;
    for (int x = 0; x < a_new; ++x) v += jpre[n - 1] - jpre[n - 1 - k[x]];
    return v;
  }
  // The leading jokers (k1, k2), k1 <= k2, of a_new <= 2 new runs at n with jr jokers free, in
  // the order both searches take them (vafter_lead, list_after_lead); returns how many
  int lead_choices(int n, int a_new, int jr, uint8_t (*ks)[2]) const {
    const int kmin = std::max(0, n - (last - 2)), kmax = std::min(jr, n - 1);
    int cnt = 0;
    for (int k1 = a_new >= 1 ? kmin : 0; k1 <= (a_new >= 1 ? kmax : 0); ++k1)
      for (int k2 = a_new >= 2 ? std::max(k1, kmin) : 0; k2 <= (a_new >= 2 ? kmax - k1 : 0); ++k2) {
        ks[cnt][0] = uint8_t(k1);
        ks[cnt][1] = uint8_t(k2);
        ++cnt;
      }
    return cnt;
  }
  // the runs of a colour after the base ones and a_new new runs with leading jokers k (packed)
  static uint64_t lead_packed(const uint8_t* base, int nb, int a_new, const uint8_t* k) {
    uint8_t tmp[16];
    std::memcpy(tmp, base, size_t(nb));
    for (int x = 0; x < a_new; ++x) tmp[nb + x] = uint8_t(3 + std::min(int(k[x]), 2));
    return pack(tmp, nb + a_new);
  }

  // The colours' part of ub_next (ubs_run of the colours with runs in progress at n + 1) for
  // j = 0 and 1 jokers: ubs_run[n][x] is zero for x >= 2 (init_ub_state: a tile counts there
  // below x0 <= 2 jokers). vcolour adds each colour's as it decides it (Frame::urp: both
  // counts in one int, j = 1 in the high half), so vsets reads it (rpk; twenty-sixth round)
  struct RunPart { int v[2]; };
  // ubj of vsets for one count of jokers j: ub_state of the next state (n + 1, F.new_runs, j),
  // with the jokers the runs in progress need at n + 1, n + 2 at their value there (jfree)
  __attribute__((always_inline)) int ub_next(const Frame& F, int n, int j, int need, int needv,
                                             const RunPart& rp) const {
    if (n + 1 > last) return 0;
    int base = ubs_fresh[n + 1][j] + res_value + (j < 2 ? rp.v[j] : 0);  // (n + 1 >= 2: ub_from's aces)
    if (need > 0 && j >= need) {
      int jv = needv + jb[n + 1][j] - jb[n + 1][need];
      return std::min(base + jv, F.ub_after + jv);
    }
    // ub_state_j(n + 1, base, j) = min(base + jb, ub_from(n + 1, j)), ub_from's jb taken out of
    // the min, so that its tiles' part is the same for every j (twenty-sixth round)
    return jb[n + 1][j] + std::min(base, ub_tiles[n + 1] + res_value);
  }

  // with dominance: does a colour with tiles left on the rack (lfm) use a joker? (all four
  // colours tested, not a loop over lfm's bits: its exit flips with lfm; twenty-eighth round)
  static bool jused_left(const Frame& F, uint32_t lfm) {
    uint32_t d = 0;
    for (int c = 0; c < 4; ++c) d |= (lfm >> c) & uint32_t(F.jused[c] > 0);
    return d != 0;
  }
  void vsets(Frame& F, int jr, int gain, bool ran, int need, int needv, int ridx, int rpk) {
    const RunPart rp{{rpk & 0xffff, rpk >> 16}};
    int n = F.n;
    bool ran2 = ran & require_run;
    if (n == 14) {
      if (!fits(F, gain + ub_state(n + 1, F.new_runs, jr))) return;
      SOLVER_STAT(++g_leaves);
      int sub = best(n + 1, F.new_runs, jr, F.left_in, ran2, thr(F) - gain, sub_stop(F, gain));
      if (sub > NEG) found(F, gain + sub);
      return;
    }
    if (F.cols_here + jr < 3) {
      // No set can form at this number: the list would be the one empty choice (every
      // colour's rest stays on the rack, no joker), taken here without it, with the same tests
      // in the same order (fifteenth round: most calls on the shared racks)
      if (jr < need) return;  // the runs in progress need those jokers at n+1 and n+2
      const int u = gain + ub_next(F, n, jr, need, needv, rp);
      if (u <= thr(F) && u <= F.ub_cut) return;
      const uint32_t lfm = kLeftMask[ridx];  // the colours with tiles left (F.rest[c] > 0)
      if (dominance && jused_left(F, lfm)) return;
      if (n == mu_n && F.avail[mu_c] - F.rest[mu_c] + (n == 1 ? res[mu_c] : 0) < 1) return;
      const bool left = F.left_in || (keep && lfm);
      if (!fits(F, u)) return;
      ChildBounds cbs;
      set_child(F, n, gain, jr, left, ran2, cbs);
      return;
    }
    const int jsmax = jr;
    const auto& list = tab.choices[ridx * SJ + jsmax];
    int sval = cr.set_value[n], jval = jset[n];
    // ubj[j]: the first bound of the next state with j jokers; the others in cbs (set_child)
    int ubj[SJ];
    ChildBounds cbs;
    for (int j = 0; j <= jr; ++j) ubj[j] = ub_next(F, n, j, need, needv, rp);
    // the first bound of a choice of tot tiles, js of them jokers, is tot * sval + term[js]
    // with term[js] = js * (jval - sval) + ubj[jr - js]; pm[k] = max of term[0..k] (ninth
    // round: one pass per call instead of one loop per size)
    int pm[SJ];
    for (int js = 0; js <= jsmax; ++js) {
      int t = js * (jval - sval) + ubj[jr - js];
      pm[js] = js == 0 ? t : std::max(pm[js - 1], t);
    }
    int cur_tot = -1;
    for (const SetChoice& ch : list) {
      // A choice that the first bound cuts without raising ub_cut changes nothing: skip it. The
      // list runs by tiles (real + jokers) descending, so once no choice of this size passes,
      // none after it does (thr only grows).
      if (ch.tot != cur_tot) {
        cur_tot = ch.tot;
        int bm = ch.tot * sval + pm[std::min(int(ch.tot), jsmax)] + gain;
        if (bm <= thr(F) && bm <= F.ub_cut) break;
      }
      int j2 = jr - ch.js;
      if (j2 < need) continue;  // the runs in progress need those jokers at n+1 and n+2
      int g = gain + (ch.tot - ch.js) * sval + ch.js * jval;
      if (g + ubj[j2] <= thr(F) && g + ubj[j2] <= F.ub_cut) continue;
      // the colours whose tiles it leaves on the rack (ch.lf), of which those it leaves whole
      // (ch.z), are fixed by the list (fifteenth round): with dominance, a choice that leaves a
      // tile of a colour that used a joker, or real tiles while it gives a joker to a set, is
      // dominated
      const uint32_t lfm = ch.lf;
      if (dominance && lfm) {
        if (ch.js > 0 && ch.z) continue;
        if (jused_left(F, lfm)) continue;
      }
      if (n == mu_n && F.avail[mu_c] - (F.rest[mu_c] - ch.sv[mu_c]) + (n == 1 ? res[mu_c] : 0) < 1) continue;
      const bool left = F.left_in || (keep && lfm);
      if (!fits(F, g + ubj[j2])) continue;
      set_child(F, n, g, j2, left, ran2, cbs);
    }
  }

  // The bounds of vsets' next states, which depend on a set choice only through the jokers it
  // leaves (j2) and the tile-left flag: each computed once per vsets call, when first needed
  // (kb_ok bit j2, sb_ok bit 2 * j2 + left; suffix_bound may search, so the order is the same)
  struct ChildBounds {
    int kb[SJ], sb[SJ][2];
    uint32_t kb_ok = 0, sb_ok = 0;
  };
  // Is the suffix bound of the next state (runs, left, ran) its value? So for a state with no
  // run in progress whose flags are those fresh() searched it with (this search's own fresh
  // values): a fresh value > NEG was expanded and memoized exactly under the state's own key, so
  // best() would answer it from the memo without a node. set_child and the rebuild's sets() take
  // the bound instead of that call (twenty-sixth round: ~57 calls a joker rack; the same nodes)
  bool bound_is_value(const uint64_t* runs, bool left, bool ran) const {
    return (biv_flags >> (2 * left + ran) & 1) && !(runs[0] | runs[1] | runs[2] | runs[3]);
  }
  // bit 2 * left + ran: fresh() searches the flags (left, ran) as they are, and with this
  // search's own fresh values (set by solve(), once relax and own_relax are)
  uint32_t biv_flags = 0;
  // (out of line: inlined into solve_impl it moved the hot path's inlining, +0.3% instructions)
  __attribute__((noinline)) void init_biv_flags() {
    biv_flags = 0;
    if (relax != this) return;
    for (int l = 0; l < 2; ++l)
      for (int r = 0; r < 2; ++r)
        if (bool(l) == (keep && (l || own_relax)) && bool(r) == (require_run && (r || own_relax)))
          biv_flags |= 1u << (2 * l + r);
  }
  // The last tests of one set choice (gain g so far, j2 jokers left, left) and the search of its
  // child: the keep bound, the suffix bound (the child's stop value too), then best(); shared by
  // vsets' loop over the choices and its no-set shortcut
  __attribute__((always_inline)) void set_child(Frame& F, int n, int g, int j2, bool left, bool ran2,
                                                ChildBounds& cbs) {
    int cb = STOP;
    if (n + 1 <= last) {
      if (keep && !left) {
        if (!(cbs.kb_ok >> j2 & 1)) { cbs.kb[j2] = keep_bound(n + 1, j2); cbs.kb_ok |= 1u << j2; }
        if (!fits(F, g + cbs.kb[j2])) return;
      }
      int& sbv = cbs.sb[j2][left];
      const uint32_t sbit = 1u << (2 * j2 + left);
      if (!(cbs.sb_ok & sbit)) { sbv = suffix_bound(n + 1, F.new_runs, j2, left, ran2); cbs.sb_ok |= sbit; }
      if (!fits(F, g + sbv)) return;
      cb = sbv;
      if (sbv > NEG && bound_is_value(F.new_runs, left, ran2)) {
        SOLVER_STAT(++g_leaves);
        found(F, g + sbv);
        return;
      }
    }
    SOLVER_STAT(++g_leaves);
    int sub = best(n + 1, F.new_runs, j2, left, ran2, thr(F) - g, std::min(cb, sub_stop(F, g)));
    if (sub > NEG) found(F, g + sub);
  }

  // ---- canonical enumeration (the rebuild; line for line the order of the Python twin) ------
  // Only transitions that cannot reach the optimum (upper bound < wanted value) are cut, so the
  // first transition attaining the optimum is the same as in the unpruned Python enumeration.
  // The choices of one colour (run actions, new runs, set tiles) depend on the state only
  // through the jokers free when that colour is decided, yet the walk meets colour c once per
  // choice of the colours before it: each (colour, jokers) list is made once per number, in
  // the canonical order, and walked with the same cuts (which change nothing but the work: the
  // children searched, best() calls and their node counts included, are the same ones in the
  // same order; callgrind: the walk was ~22% of a greedy-round solve).
  // the thread's rebuild lists (rebuild_cache), fetched once per rebuild (eleventh round: the
  // thread_local behind it cost a __tls_get_addr call per use in the Python module)
  RebuildLists* rl = nullptr;
  std::vector<RItem>& rpool() const { return rl->pool; }

  // The walk of one number: colour 0's choices, for each of them colour 1's, ..., then sets()
  // (the leaves), depth first in the canonical order, until sets() finds the optimum. A choice
  // is walked past when it cannot reach the wanted value: the bound of the colours after it,
  // gain + ub_from(n + 1, 0) + jrest(n, j0, jr) + the sets chosen so far (F.svw) + the best
  // value of the tiles of the colours still to decide (F.avail_w), fails, or (eleventh round)
  // when no leaf below it can pass sets()'s first tests: the runs in progress of the colours
  // decided need more jokers than are left (sets() tries js <= jr - need), or no split into sets
  // is feasible for any set tiles of the colours still to decide and any js <= jr - need
  // (SetTable::any). Neither cut calls anything: the leaves that reach a bound with a call
  // (suffix_bound, best) are the same, in the same order. Each choice's part of the bound is
  // read from its list (RItem::val; smax: when no choice from one on can pass, the rest of the
  // list is skipped).
  void colour(Frame& F, int jr, bool left, bool ran) {
    if (F.ub_after + jrest(F.n, F.j0, jr) + F.avail_w[0] < F.want) return;
    colour_in<0>(F, jr, 0, left, ran, 0);
  }

  // colour() past its bound; need: the jokers the runs in progress of the colours < c need at
  // n + 1 and n + 2 (need_of; eighth round). The colour is a template argument (eleventh round:
  // the four levels are one function, no call per choice).
  template <int c>
  void colour_in(Frame& F, int jr, int gain, bool left, bool ran, int need) {
    if constexpr (c == 4) {
      sets(F, jr, gain, left, ran, need);
    } else {
      // a colour with no tile here, no run in progress and no joker free has one choice, the
      // empty one (val 0, no joker, no need, no set tile), which passes when the bound below
      // does with val 0 and jused 0: taken without its list (eleventh round; F.pick: NO_PICK)
      if (jr == 0 && (F.trivial >> c & 1)) {
        if (gain + F.ub_after + F.svw[c] + F.avail_w[c + 1] < F.want) return;
        F.new_runs[c] = 0;
        F.sv[c] = 0;
        F.svw[c + 1] = F.svw[c];
        F.ivl[c + 1] = F.ivl[c];  // (ivl_cap[c] = 0)
        F.pick[c] = NO_PICK;
        colour_in<c + 1>(F, jr, gain, left, ran, need);
        return;
      }
      colour_list<c>(F, jr, gain, left, ran, need);
    }
  }
  template <int c>
  void colour_list(Frame& F, int jr, int gain, bool left, bool ran, int need) {
    if (!(F.rl_ok[c] >> jr & 1)) make_list(F, c, jr);
    const uint32_t off = F.rl_off[c][jr], end = off + F.rl_len[c][jr];
    const int n = F.n;
    const int setv = F.setv;
    // a choice passes when gain + dgain + ub_after + svw[c] + s * setv + avail_w[c + 1] +
    // jrest(n, j0, jr - jused) >= want, that is val - jbr[jused] >= lim
    const int* jbr = &jb[n][F.j0 - jr];  // jrest(n, j0, jr - jused) = jb[n][j0] - jbr[jused]
    const int lim = F.want - gain - F.ub_after - F.svw[c] - F.avail_w[c + 1] - jb[n][F.j0];
    const int jtop = jbr[0];  // (jbr[jused] >= jbr[0])
    const std::vector<RItem>& pool = rpool();
    for (uint32_t i = off; i < end; ++i) {
      const RItem& it = pool[i];  // not used after the call below, which may grow the pool
      if (it.smax - jtop < lim) break;
      if (it.val - jbr[it.jused] < lim) continue;
      const int jr2 = jr - it.jused;
      const int need2 = it.k1 ? need + need_from(n, c, it.k1, it.k2) : need;
      if (need2 > jr2) continue;
      const int ivl = F.ivl[c] - F.ivl_cap[c] + it.s * 4 * IVL_P[c];  // colour c's: exactly it.s
      if (!tab.any[ivl * SJ + std::min(jr2 - need2, SJ - 1)]) continue;
      F.new_runs[c] = it.packed;
      F.sv[c] = it.s;
      F.svw[c + 1] = F.svw[c] + it.s * setv;
      F.ivl[c + 1] = ivl;
      F.pick[c] = i;
      colour_in<c + 1>(F, jr2, gain + it.dgain, left || (it.lf > 0 && keep), ran || it.closed, need2);
      if (F.found) return;
    }
  }

  // The choices of colour c with jr jokers free, in the order of the Python twin's walk. Besides
  // the runs in progress and the rule set (rules_fp) they depend on the number (its values, and
  // whether runs may start or it is the high ace), the tiles of the colour there, the jokers, and
  // whether the must-use tile is this one (with the reserved aces that count as using it).
  // (the lookups inline, the making out of line: build_list)
  void make_list(Frame& F, int c, int jr) {
    RebuildLists& rc = *rl;
    int n = F.n;
    bool mu = c == mu_c && n == mu_n;
    uint32_t sig = uint32_t(n) | uint32_t(jr) << 4 | uint32_t(F.avail[c]) << 7 | uint32_t(mu) << 9 |
                   uint32_t(mu && n == 1 ? res[c] : 0) << 10;
    uint32_t off, len;
    RebuildLists::Direct* d = F.runs_in[c] || sig >= RebuildLists::NSIG ? nullptr : &rc.direct[twin][sig];
    const RebuildLists::Slot* e;
    if (d && d->gen == rc.dgen && d->rules == rules_fp) {
      off = d->off; len = d->len;
    } else if (!d && (e = rc.find(F.runs_in[c], rules_fp, sig))) {
      off = e->off; len = e->len;
    } else {
      off = build_list(F, c, jr);
      len = uint32_t(rc.pool.size()) - off;
      if (d) *d = RebuildLists::Direct{rules_fp, rc.dgen, off, len};
      else rc.put(F.runs_in[c], rules_fp, sig, off, len);
    }
    F.rl_ok[c] |= 1u << jr;
    F.rl_off[c][jr] = off;
    F.rl_len[c][jr] = len;
  }

  // appends the list of make_list to the pool, returns its offset
  __attribute__((noinline)) uint32_t build_list(Frame& F, int c, int jr) {
    std::vector<RItem>& pool = rl->pool;
    const uint32_t off = uint32_t(pool.size());
    F.lst[c] = unpack(F.runs_in[c]);
    RItem it{};
    it.nacts = uint8_t(F.lst[c].len);
    list_i(F, c, 0, 0, jr, jr, it, pool);
    // the parts of the walk's bound and of need_of that the list fixes (eleventh round)
    const int setv = F.setv;  // (set by rebuild() for this number)
    int smax = NEG;
    for (uint32_t i = uint32_t(pool.size()); i-- > off;) {
      RItem& x = pool[i];
      x.val = x.dgain + x.s * setv;
      smax = std::max(smax, x.val);
      x.smax = smax;
      x.k1 = x.k2 = 0;
      for (uint64_t r = x.packed; r; r >>= 8) {
        int st = int(r & 0xff) - 1;
        if (!closable(st)) ++x.k1;
        if (st % 3 == 0) ++x.k2;  // length 1 (never closable)
      }
    }
    return off;
  }

  void list_i(Frame& F, int c, int i, int used_r, int jr0, int jr, RItem& it, std::vector<RItem>& out) {
    const RunList& lst = F.lst[c];
    if (i == lst.len) { list_after(F, c, used_r, jr0, jr, it, out); return; }
    int st = lst.st[i];
    int lo = (i > 0 && lst.st[i - 1] == st) ? it.acts[i - 1] : 0;
    int n = F.n;
    int t = F.avail[c];
    int dg = it.dgain;
    bool closed = it.closed;
    for (int a = lo; a < 3; ++a) {
      if (a == 0) {
        if (used_r < t) {
          it.acts[i] = 0;
          F.ext[c][i] = uint8_t(ext_real(st));
          it.dgain = dg + cr.run_value[n];
          list_i(F, c, i + 1, used_r + 1, jr0, jr, it, out);
        }
      } else if (a == 1) {
        if (jr > 0) {
          it.acts[i] = 1;
          F.ext[c][i] = uint8_t(ext_joker(st));
          it.dgain = dg + jrun[n];
          list_i(F, c, i + 1, used_r, jr0, jr - 1, it, out);
        }
      } else {
        if (closable(st)) {
          it.acts[i] = 2;
          F.ext[c][i] = 0xff;  // closed
          it.dgain = dg;
          it.closed = true;
          list_i(F, c, i + 1, used_r, jr0, jr, it, out);
        }
      }
      it.dgain = dg;
      it.closed = closed;
    }
  }

  void list_after(Frame& F, int c, int used_r, int jr0, int jr, const RItem& it0, std::vector<RItem>& out) {
    int n = F.n;
    int t = F.avail[c];
    const RunList& lst = F.lst[c];
    uint8_t base[16];
    int nb = 0;
    for (int i = 0; i < lst.len; ++i)
      if (F.ext[c][i] != 0xff) base[nb++] = F.ext[c][i];
    RItem it = it0;
    if (n == 14) {
      if (used_r != t && !opt14) return;  // (the relaxed twin's aces at 14 are optional: leaf14)
      it.packed = pack(base, nb);
      it.a_new = 0; it.b_new = 0; it.s = 0; it.lf = 0;
      it.jused = uint8_t(jr0 - jr);
      out.push_back(it);
      return;
    }
    if (lead) { list_after_lead(F, c, used_r, jr0, jr, it, base, nb, out); return; }
    bool can_start = n <= last - 2 && n <= 13;
    int max_a = can_start ? t - used_r : 0;
    for (int a_new = 0; a_new <= max_a; ++a_new) {
      int max_b = can_start ? jr : 0;
      for (int b_new = 0; b_new <= max_b; ++b_new) {
        int rest = t - used_r - a_new;
        if (nb + a_new + b_new > 8) continue;  // unreachable: <= 2 real + 6 jokers per colour
        uint8_t tmp[16];
        int k = nb;
        std::memcpy(tmp, base, nb);
        for (int x = 0; x < a_new; ++x) tmp[k++] = 3;
        for (int x = 0; x < b_new; ++x) tmp[k++] = uint8_t(new_joker());
        it.packed = pack(tmp, k);
        it.dgain = it0.dgain + a_new * cr.run_value[n] + b_new * jrun[n];
        it.a_new = uint8_t(a_new);
        it.b_new = uint8_t(b_new);
        it.jused = uint8_t(jr0 - jr + b_new);
        int smax = std::min(rest, 2);
        for (int s = 0; s <= smax; ++s) {
          int lf = rest - s;
          if (c == mu_c && n == mu_n) {
            int used = t - lf + (n == 1 ? res[c] : 0);
            if (used < 1) continue;
          }
          it.s = uint8_t(s);
          it.lf = uint8_t(lf);
          out.push_back(it);
        }
      }
    }
  }

  // list_after without a joker ratio or a high ace: the walk's twin of vafter_lead, in
  // the walk's order (fewest new runs first, then fewest leading jokers, then sets)
  void list_after_lead(Frame& F, int c, int used_r, int jr0, int jr, RItem& it, const uint8_t* base, int nb,
                       std::vector<RItem>& out) {
    const int n = F.n;
    const int t = F.avail[c];
    const int max_a = n <= 13 ? t - used_r : 0;
    const int dg0 = it.dgain;
    uint8_t ks[LEAD_MAX][2];
    for (int a_new = 0; a_new <= max_a; ++a_new) {
      const int rest = t - used_r - a_new;
      if (nb + a_new > 8) continue;
      for (int i = 0, nk = lead_choices(n, a_new, jr, ks); i < nk; ++i) {
        // (the jokers the new runs need next are the walk's need_from; no cut by the colour's
        // tiles at n + 1, n + 2 here: the lists are kept by a key without them)
        const int kk = ks[i][0] + ks[i][1];
        it.packed = lead_packed(base, nb, a_new, ks[i]);
        it.dgain = dg0 + a_new * cr.run_value[n] + lead_value(n, a_new, ks[i]);
        it.a_new = uint8_t(a_new);
        it.b_new = 0;
        it.lead[0] = ks[i][0];
        it.lead[1] = ks[i][1];
        it.jused = uint8_t(jr0 - jr + kk);
        for (int sv = 0, smax = std::min(rest, 2); sv <= smax; ++sv) {
          const int lf = rest - sv;
          if (c == mu_c && n == mu_n && t - lf < 1) continue;  // (no reserved aces: no high ace)
          it.s = uint8_t(sv);
          it.lf = uint8_t(lf);
          out.push_back(it);
        }
      }
    }
    it.dgain = dg0;
  }

  void sets(Frame& F, int jr, int gain, bool left, bool ran, int need) {
    int n = F.n;
    int tot = F.sv[0] + F.sv[1] + F.sv[2] + F.sv[3];
    const int max_js = jr & -int(n <= 13 && tot > 0);  // (a mask: tot > 0 flips from leaf to leaf)
    // js > jr - need leaves the runs in progress without their jokers (value NEG): not tried
    for (int js = 0, top = std::min(max_js, jr - need); js <= top; ++js) {
      if (!tab.feas[sidx(F.sv, js)]) continue;
      int g = n <= 13 ? gain + tot * cr.set_value[n] + js * jset[n] : gain;
      bool ran2 = ran && require_run;
      if (g + ub_state(n + 1, F.new_runs, jr - js) < F.want) continue;
      int sb = NEG;
      if (n + 1 <= last) {
        if (keep && !left && g + keep_bound(n + 1, jr - js) < F.want) continue;
        sb = suffix_bound(n + 1, F.new_runs, jr - js, left, ran2);
        if (g + sb < F.want) continue;
      }
      const int sub = sb > NEG && bound_is_value(F.new_runs, left, ran2)
                          ? sb
                          : best(n + 1, F.new_runs, jr - js, left, ran2, F.want - g - 1);
      if (sub <= NEG || g + sub != F.want) continue;
      Decision& d = F.dec;
      for (int c = 0; c < 4; ++c) {
        d.pick[c] = F.pick[c];
        d.sv[c] = F.sv[c];
        d.next_runs[c] = F.new_runs[c];
      }
      d.js = js;
      d.next_jr = jr - js;
      d.next_left = left;
      d.next_ran = ran2;
      d.gain = g;
      F.found = true;
      return;
    }
  }

  // ---- roots -------------------------------------------------------------------------------
  // a run being built by the rebuild (fixed arrays: no allocation until it becomes a MeldOut)
  // (codes in bytes: a Run is copied and sorted per number, eighth round)
  struct Run {
    int st, start, seq, len;
    uint8_t tiles[15], stand[15];
    MeldRec rec() const {
      MeldRec r;
      r.kind = uint8_t(KIND_RUN); r.len = uint8_t(len);
      std::memcpy(r.tiles, tiles, sizeof tiles);
      std::memcpy(r.stand, stand, sizeof stand);
      return r;
    }
  };
  static Run new_run(int st, int start, int seq, int tile, int stand) {
    Run r;
    r.st = st; r.start = start; r.seq = seq; r.len = 1; r.tiles[0] = uint8_t(tile); r.stand[0] = uint8_t(stand);
    return r;
  }

  // resv[0..nres): the rack's reservations (reservations(), made once by solve_impl); melds:
  // rebuild the arrangement (false: the value alone, solve_melds_value); floor >= 0 (the value
  // alone): only a value above floor is asked for, so the root's alpha starts at floor (a state
  // that cannot pass it is cut at once, nothing is searched below it) and a rack whose value
  // does not pass it answers -1 (forty-second round)
  SolveResult solve(const int (*resv)[4], int nres, bool melds, int floor = -1) {
    int bestv = floor >= 0 ? floor : NEG;
    int best_res[4] = {-1, -1, -1, -1};
    // (twelfth round) the relaxed twin's value of the whole rack, top, bounds the search from
    // above, every reservation's (its aces at 1 stay there as well as at 14: set_res_now of
    // opt14); asked for once the first reservation is set (which sets up the twin without a high
    // ace). Each reservation is then searched once, in order, with top as its stop value, and
    // the first that attains top ends the search: no later one is worth more, and an earlier
    // one would have been kept only if worth more (forty-fifth round: once the twin's own
    // arrangement answers the racks that attain top most cheaply, a first pass that asked every
    // reservation for top alone, alpha top - 1, before a second searched them all below it, cost
    // more on the 38 of racks_20_plus_2_jokers' 66 racks left that attain no top than it saved on
    // the 28 that do).
    const uint64_t empty[4] = {0, 0, 0, 0};
    init_biv_flags();
    set_res(resv[0][0], resv[0][1], resv[0][2], resv[0][3]);
    const int top = relax != this ? relax->fresh(1, J, false, false) : STOP;
    const bool asp = top > NEG && top < STOP;
    if (floor >= 0 && top <= floor) return SolveResult{};  // (top bounds every reservation)
    if (asp) {
      // (thirty-sixth round) the twin's own first arrangement of top: when it is one of this
      // search's (the rack's tiles, each ace once, at 1 or at 14; the joker ratio; a tile kept,
      // the must-use tile laid, a run), no arrangement is worth more, and the passes below are
      // not needed (they found the same value, often another arrangement of it)
      SolveResult out;
      relax->rebuild(top, out.melds);
      if (arrangement_fits(out.melds)) {
        out.value = top;
        if (!melds) out.melds.clear();
        return out;
      }
    }
    for (int i = 0; i < nres; ++i) {
      const int* r = resv[i];
      if (i > 0) set_res(r[0], r[1], r[2], r[3]);  // (resv[0] is set)
      const int v = best(1, empty, J, false, false, bestv, top);
      if (v > bestv) {
        bestv = v;
        std::memcpy(best_res, r, sizeof best_res);
        if (v >= top) break;  // (top bounds every reservation)
      }
    }
    SolveResult out;
    if (bestv <= NEG || bestv <= floor) return out;
    if (!melds) { out.value = bestv; return out; }
    // (the fresh values of the reservation searched last stay valid when it is the best one)
    if (best_res[0] != res[0] || best_res[1] != res[1] || best_res[2] != res[2] || best_res[3] != res[3])
      set_res(best_res[0], best_res[1], best_res[2], best_res[3]);
    out.value = bestv;
    rebuild(bestv, out.melds);
    return out;
  }

  // Is an arrangement of the relaxed twin one of this search's (solve)? The twin lays the rack
  // without the joker ratio, keep, must_use and require_run, and holds its reservable aces at 1
  // and at 14 at once; everything else (runs, sets, values) is the search's own.
  bool arrangement_fits(const std::vector<MeldOut>& ms) const {
    int used[NUM_CODES] = {};
    int laid = 0;
    bool run = false;
    for (const MeldOut& m : ms) {
      int jk = 0;
      for (int code : m.tiles) { ++used[code]; jk += code == JOKER; }
      if (int(m.tiles.size()) - jk < ratio * jk) return false;  // RO-7
      laid += int(m.tiles.size());
      run |= m.kind == KIND_RUN;
    }
    int total = 0;
    for (int code = 0; code < NUM_CODES; ++code) {
      if (used[code] > cnt[code]) return false;  // (an ace laid both at 1 and at 14)
      total += cnt[code];
    }
    if (keep && laid >= total) return false;
    if (must_use >= 0 && used[must_use] == 0) return false;
    return !require_run || run;
  }

  void set_res(int r0, int r1, int r2, int r3) {
    if (opt14) return;  // the relaxed twin keeps its aces (set_res_now in solve_impl)
    set_res_now(r0, r1, r2, r3);
    if (relax != this) relax->set_res(r0, r1, r2, r3);
  }
  void set_res_now(int r0, int r1, int r2, int r3) {
    res[0] = r0; res[1] = r1; res[2] = r2; res[3] = r3;
    res_bits = uint32_t(r0) | uint32_t(r1) << 2 | uint32_t(r2) << 4 | uint32_t(r3) << 6;
    res_value = (r0 + r1 + r2 + r3) * cr.run_value[14];
    // the reserved aces move from 1 to 14; the relaxed twin's (opt14) stay at 1 as well, so that
    // its value of the whole rack bounds every reservation (solve; its states at >= 2, the
    // fresh values, do not see the tiles at 1)
    for (int c = 0; c < 4; ++c) {
      acnt[c] = acnt0[c] - (opt14 ? 0 : uint64_t(res[c]) << 4) + (uint64_t(res[c]) << 56);
      avm[c] = (pres[c] & 0x3ffc) | uint32_t(avail(1, c) > 0) << 1 | uint32_t(res[c] > 0) << 14;
    }
    tc.new_direct();
    reset_fresh();
  }

  void rebuild(int total, std::vector<MeldOut>& melds) {
    uint64_t runs[4] = {0, 0, 0, 0};
    Run conc[4][16];
    int nconc[4] = {0, 0, 0, 0};
    // the melds as they are made, sorted and turned into MeldOuts at the end (eleventh round: the
    // sort compares bytes in place instead of vectors, and each MeldOut is made once, in order)
    MeldRec recs[MAX_MELDS];
    int nrec = 0;
    // bounded (~4 MB); cleared only here, where no walk holds an index into it
    rl = &rebuild_cache();
    if (rl->pool.size() > (1u << 17)) rl->clear();
    int seq = 0;
    int jr = J;
    bool left = false, ran = false;
    int want = total;
    for (int n = 1; n <= last; ++n) {
      Frame& F = frames[n];
      F.want = want;
      F.n = n;
      F.j0 = jr;
      F.found = false;
      const int tv = tile_w(n);
      F.avail_w[4] = 0;
      F.trivial = 0;
      F.ivl[0] = 0;
      for (int c = 3; c >= 0; --c) {
        const int a = avail(n, c);
        F.runs_in[c] = runs[c]; F.avail[c] = a; F.rl_ok[c] = 0; F.tl_ok[c] = 0;  // (F.lst: make_list)
        // (masks, not tests whose outcome changes from colour to colour; thirtieth round)
        F.one_lim[c] = F.one_lim0[c] | -int(runs[c] != 0);  // (enumerate's: -1 with a run; one_lim0 >= -1)
        F.avail_w[c] = F.avail_w[c + 1] + (a * tv & -int(usefw[c] >> n & 1));
        F.trivial |= uint32_t((runs[c] | uint64_t(a)) == 0) << c;
        F.ivl_cap[c] = std::min(a, 2) * IVL_P[c];
        F.ivl[0] += F.ivl_cap[c];
      }
      if (n == mu_n) F.trivial &= ~(1u << mu_c);  // (the must-use tile's list may be empty)
      F.svw[0] = 0;
      F.ub_after = ub_from(n + 1, 0);
      F.setv = cr.set_value[n <= 13 ? n : 1];
      colour(F, jr, left, ran);
      if (!F.found) throw std::logic_error("solve_melds: rebuild lost the optimum");
      const Decision& d = F.dec;  // frames[n] is not written again in this walk
      int num = n <= 13 ? n : 1;
      for (int c = 0; c < 4; ++c) {
        if (d.pick[c] == NO_PICK) continue;  // (no run in progress, none started)
        const RItem& it = rpool()[d.pick[c]];
        if (!it.nacts && !it.a_new && !it.b_new) continue;  // no run (nconc[c] is 0)
        Run keep_list[16];
        int nk = 0;
        for (int i = 0; i < it.nacts; ++i) {
          Run& run = conc[c][i];
          int a = it.acts[i];
          if (a == 2) { recs[nrec++] = run.rec(); continue; }
          int code = c * 13 + num - 1;
          run.tiles[run.len] = uint8_t(a == 0 ? code : JOKER);
          run.stand[run.len++] = uint8_t(code);
          run.st = a == 0 ? ext_real(run.st) : ext_joker(run.st);
          keep_list[nk++] = run;
        }
        int code = c * 13 + num - 1;
        if (lead) {
          // a new run with k jokers laid before its first tile (vafter_lead): at n - k .. n - 1
          for (int x = 0; x < it.a_new; ++x) {
            const int k = it.lead[x];
            Run r = new_run(3 + std::min(k, 2), n - k, seq++, k ? JOKER : code, code - k);
            for (int q = 1; q <= k; ++q) {
              r.tiles[r.len] = uint8_t(q < k ? JOKER : code);
              r.stand[r.len++] = uint8_t(code - k + q);
            }
            keep_list[nk++] = r;
          }
        } else {
          for (int x = 0; x < it.a_new; ++x) keep_list[nk++] = new_run(3, n, seq++, code, code);
        }
        for (int x = 0; x < it.b_new; ++x) keep_list[nk++] = new_run(new_joker(), n, seq++, JOKER, code);
        // (st, start, seq) is a total order (seq is unique)
        if (nk > 1)
          std::sort(keep_list, keep_list + nk, [](const Run& a, const Run& b) {
            if (a.st != b.st) return a.st < b.st;
            if (a.start != b.start) return a.start < b.start;
            return a.seq < b.seq;
          });
        std::copy(keep_list, keep_list + nk, conc[c]);
        nconc[c] = nk;
      }
      if (n <= 13) nrec = split_sets(n, d.sv, d.js, recs, nrec);
      for (int c = 0; c < 4; ++c) runs[c] = d.next_runs[c];
      jr = d.next_jr;
      left = d.next_left;
      ran = d.next_ran;
      want -= d.gain;
    }
    for (int c = 0; c < 4; ++c)
      for (int i = 0; i < nconc[c]; ++i) recs[nrec++] = conc[c][i].rec();
    std::sort(recs, recs + nrec);
    melds.reserve(size_t(nrec));
    for (int i = 0; i < nrec; ++i) melds.push_back(recs[i].meld());
  }

  // appends the sets of n to out[k..], returns the new count
  int split_sets(int n, const int* sv, int js, MeldRec* out, int k_out) const {
    const SetTable::Split& sp = tab.split[sidx(sv, js)];
    if (!sp.ok) throw std::logic_error("solve_melds: set split failed");
    for (int x = 0; x < sp.cnt; ++x) {
      const int mask = sp.mask[x];
      MeldRec& r = out[k_out++];
      int k = 0;
      int left_j = sp.jg[x];
      for (int c = 0; c < 4; ++c) {
        uint8_t code = uint8_t(c * 13 + n - 1);
        if ((mask >> c) & 1) { r.tiles[k] = code; r.stand[k++] = code; }
        else if (left_j > 0) { r.tiles[k] = uint8_t(JOKER); r.stand[k++] = code; --left_j; }
      }
      r.kind = uint8_t(KIND_SET);
      r.len = uint8_t(k);
    }
    return k_out;
  }
};

}  // namespace

BudgetExceeded::BudgetExceeded(long long b) : std::runtime_error(budget_message(b)), budget(b) {}

std::string budget_message(long long budget) {
  return "the rack is too dense to solve within " + std::to_string(budget) +
         " search nodes; give the search more nodes (rummy101.solve.work_budget) or ask about a "
         "smaller rack";
}

void check_budget(long long budget) {
  if (budget < 1)
    throw std::invalid_argument("budget must be a whole number of search nodes >= 1, got " + std::to_string(budget));
}

void check_solver_input(const CoreRules& cr, const Counts& cnt, int must_use) {
  int bad = 0;  // (one pass without a branch per code; the message names the first such code)
  for (int code = 0; code < JOKER; ++code) bad |= cnt[code] > SOLVER_MAX_COPIES;
  for (int code = 0; code < JOKER && bad; ++code)
    if (cnt[code] > SOLVER_MAX_COPIES)
      throw std::invalid_argument("the solver takes at most " + std::to_string(SOLVER_MAX_COPIES) +
                                  " copies of a tile; code " + std::to_string(code) + " has " +
                                  std::to_string(cnt[code]));
  if (cnt[JOKER] > SOLVER_MAX_JOKERS)
    throw std::invalid_argument("the solver takes at most " + std::to_string(SOLVER_MAX_JOKERS) +
                                " jokers; got " + std::to_string(cnt[JOKER]));
  if (must_use < -1 || must_use >= NUM_CODES)
    throw std::invalid_argument("must_use must be -1 or a code 0..52, got " + std::to_string(must_use));
  if (cr.joker_ratio > 0) {
    long rcap = std::max<long>(1, long(cr.joker_ratio) * cnt[JOKER]);
    long top = 2 + 3 * rcap + 3 * (rcap + 1) * cnt[JOKER];
    if (top > 254)
      throw std::invalid_argument("joker_ratio " + std::to_string(cr.joker_ratio) + " with " +
                                  std::to_string(cnt[JOKER]) + " jokers is beyond the solver's limits");
  }
  if (cnt[JOKER] > 0 && cr.joker_value == -1) {
    // The joker bounds and dominance take a joker worth its position to be worth no less further
    // up a run. Every rule set's values hold it (python/rummy101/rules.py); arbitrary ones may
    // not (random decreasing values gave wrong optima on 75 of 6,000 small racks, checked by
    // brute force), so they are refused, by the pure twin too (issue 11, tenth round).
    int last = cr.high_ace ? 14 : 13;
    for (int n = 1; n < last; ++n)
      if (cr.run_value[n] > cr.run_value[n + 1])
        throw std::invalid_argument(
            "a joker worth the tile it stands for (joker_value -1) needs run values that never decrease "
            "from 1 to " + std::to_string(last) + "; run_value[" + std::to_string(n) + "] = " +
            std::to_string(cr.run_value[n]) + " > run_value[" + std::to_string(n + 1) + "] = " +
            std::to_string(cr.run_value[n + 1]));
  }
}

namespace {
// Can the tile `code` be in any meld at all (RO-6: a run window of its colour holding its
// position, the ace also at 14 with a high ace, or a set of its number; RO-7: at most J jokers,
// and real tiles >= ratio * jokers)? Each position counts one real tile, so this only ever says
// yes too often. A must_use tile that fits no meld is never laid: the rack has no arrangement,
// known before any search (sixth round, issue 11: proving it by search took up to 68k nodes).
bool meldable(const CoreRules& cr, const Counts& cnt, int code) {
  int J = cnt[JOKER], ratio = cr.joker_ratio, c = code / 13, m = code % 13 + 1;
  auto ok = [&](int real, int jokers) { return jokers <= J && real >= ratio * jokers; };
  int cols = 0;
  for (int k = 0; k < 4; ++k) cols += cnt[k * 13 + m - 1] > 0;
  for (int real = 1; real <= cols; ++real)
    for (int js = 0; js <= 3; ++js)
      if (real + js >= 3 && real + js <= 4 && ok(real, js)) return true;
  int last = cr.high_ace ? 14 : 13;
  int spots[2] = {m, m == 1 && cr.high_ace ? 14 : -1};
  for (int pos : spots) {
    if (pos < 0) continue;
    for (int s = 1; s <= pos; ++s)
      for (int e = std::max(pos, s + 2); e <= last; ++e) {
        int real = 0;
        for (int p = s; p <= e; ++p) real += cnt[c * 13 + (p <= 13 ? p : 1) - 1] > 0;
        if (ok(real, e - s + 1 - real)) return true;
      }
  }
  return false;
}

// solve_impl's per-rack tables of the calling thread: the search's memo and transition lists and
// the relaxed twin's, reset per rack by their generation stamps
struct RackTables { Memo memo, memo2; TransCache tc, tc2; };
RackTables& rack_tables() { return per_thread<RackTables>(); }

// solve_impl's per-rack tables: a fresh one in place of one grown past these (see there)
constexpr size_t KEEP_SLOTS = 1 << 16, KEEP_TRANS = 1 << 16;
void release_if_big(Memo& m) {
  if (m.slots.size() > KEEP_SLOTS) m = Memo();
}
void release_if_big(TransCache& t) {
  if (t.slots.size() > KEEP_SLOTS || t.pool.capacity() > KEEP_TRANS || t.scratch.capacity() > KEEP_TRANS)
    t = TransCache();
}

SolveResult solve_impl(const CoreRules& cr, const Counts& counts, bool keep, int must_use, bool require_run,
                       long long budget, bool melds, int floor = -1) {
  check_solver_input(cr, counts, must_use);
  check_budget(budget);
  if (must_use >= 0 && counts[must_use] == 0) return SolveResult{};
  if (must_use >= 0 && must_use < JOKER && !meldable(cr, counts, must_use)) return SolveResult{};
  RackTables& rt = rack_tables();
  Memo &memo = rt.memo, &memo2 = rt.memo2;
  TransCache &tc = rt.tc, &tc2 = rt.tc2;
  // A rack's memo and transition lists only grow (a generation stamp resets them), so they kept
  // the size of the hardest rack the thread ever solved: one Remi rack in ~2,000 greedy,random
  // games grew the memo to 2^18 slots, 14 MB of a sim worker's RSS for the rest of its run. Past
  // 2^16 slots (3.5 MB; 33 of the 4.4 million solves of 20,000 such games grew it past that, the
  // twin's stayed at 2^15) or 2^16 transitions they start afresh, here where no solver holds
  // them; a hash table's answers do not depend on its size, so the search is the same.
  release_if_big(memo);
  release_if_big(memo2);
  release_if_big(tc);
  release_if_big(tc2);
  memo.reset();
  tc.reset();
  Solver s(cr, counts, keep, must_use, require_run, budget, memo, tc);
  // must_use the joker (issue 11, seventh round): the search's own fresh values bound it. A fresh
  // suffix at m with j < J jokers free has a joker laid before m, so must_use holds in it; with
  // j = J none is laid before m, the runs in progress hold no joker, and a joker of their short
  // tails leaves fewer than J to the fresh suffix (ja's x >= 1), while one in a long tail is a
  // joker of the fresh suffix's own arrangement. So the bound stays an upper bound, and the
  // relaxed twin, which searched the fresh suffixes once more without must_use, is not needed
  // (the worst rack known, a penalty rack that must use the joker: 138,940 -> 88,165 nodes).
  // Several reservations of high aces (RO-6; twenty-first round): each is a search of its own
  // with its own exact fresh values (a rack with two of them cost 2.1x the rummy101 opening's
  // nodes on racks_22). The relaxed twin, one search that holds every reservable ace at 14
  // (opt14), bounds them all and gives top, which the first pass asks for; so such racks take
  // the twin whatever their jokers (Remi lay-down nodes: racks_22 -10%, racks_14 -2%).
  int resv[81][4];
  const int nres = reservations(cr, counts, resv);
  const bool many_res = nres >= 2;
  if (!many_res && (must_use < 0 || must_use == JOKER) && (cr.joker_ratio == 0 || counts[JOKER] == 0)) {
    // With jokers on the rack, the suffix bound takes the fresh values with a tile left and a
    // run made (own_relax, as for one Joly below): upper bounds of the other three, and one
    // fresh search per (m, jokers) instead of up to four (issue 11, eleventh round; nodes on the
    // rummy101 opening: racks_22 -1.9%, racks_20_plus_2_jokers -10.6%, the dense set -3.3%; on
    // racks without a joker it cost more nodes than it saved, so they keep the exact four).
    s.own_relax = counts[JOKER] > 0;
    return s.solve(resv, nres, melds, floor);
  }
  // One joker and a ratio <= 2 (Remi's Joly, RO-7; issue 11, eleventh round): a meld of >= 3
  // tiles with one joker has >= 2 real tiles, so the ratio forbids no meld and the tail of a run
  // in progress is a meld of this search's own fresh suffix. No relaxed twin then: the suffix
  // bound takes this search's fresh values with a tile left and a run made (own_relax), one per
  // (m, jokers) as the twin's were, and they are states of this search (its memo), not a second
  // search of the rack.
  if (!many_res && must_use < 0 && counts[JOKER] == 1 && cr.joker_ratio <= 2) {
    s.own_relax = true;
    return s.solve(resv, nres, melds, floor);
  }
  // The suffix bounds come from the same rack without must_use (a run in progress may hold the
  // tile) and without the joker ratio (the tail of a run in progress may break it, RO-7; with no
  // joker on the rack the ratio changes nothing, and the search bounds itself). Without keep and
  // require_run too: still an upper bound, and its fresh values no longer split four ways by
  // (left, ran), which was most of Remi's search (issue 11: relaxed twin 72% of the nodes on
  // racks_22, 89% on racks_20_plus_2_jokers; now -37% / -45% nodes in all).
  memo2.reset();
  tc2.reset();
  CoreRules cr0 = cr;
  cr0.joker_ratio = 0;
  // With a high ace (RO-6) the twin holds, at 14, every ace that any reservation may reserve,
  // and lays any number of them: an upper bound for every reservation at once, so its fresh
  // values and memo serve them all instead of being searched again per reservation (issue 11,
  // seventh round: 40% of Remi's nodes on racks_20_plus_2_jokers).
  Solver r(cr0, counts, false, -1, false, budget, memo2, tc2, cr.high_ace, &s);
  // (twenty-sixth round: the most aces of each colour that a reservation reserves, not the most
  // a colour's 12s, 13s and jokers alone allow: reservations() also counts the jokers of all
  // colours together and the ratio, so an ace that no reservation can reserve stays at 1; with
  // both_jokers_fit, Remi lay-down nodes on racks_20_plus_2_jokers 28,980 -> 27,600)
  if (cr.high_ace) {
    int lim[4] = {0, 0, 0, 0};
    for (int i = 0; i < nres; ++i)
      for (int c = 0; c < 4; ++c) lim[c] = std::max(lim[c], resv[i][c]);
    r.set_res_now(lim[0], lim[1], lim[2], lim[3]);
  }
  r.nodes = s.nodes;
  r.twin = true;
  r.init_biv_flags();  // (the twin's own fresh values bound it; solve() sets the search's)
  s.relax = &r;
  // must_use of a tile with the rules unchanged in the twin (eighteenth round): on the worst
  // racks known the search's own nodes were ~40% of all (9,329 of 23,172 on the worst); with
  // the twin's values of its states as bounds, 148 of 13,991
  s.twin_states = cr.joker_ratio == 0 && !cr.high_ace;
  return s.solve(resv, nres, melds, floor);
}
}  // namespace

SolveResult solve_melds(const CoreRules& cr, const Counts& counts, bool keep, int must_use, bool require_run,
                        long long budget) {
  return solve_impl(cr, counts, keep, must_use, require_run, budget, true);
}

int solve_melds_value(const CoreRules& cr, const Counts& counts, bool keep, int must_use, bool require_run,
                      long long budget, int floor) {
  return solve_impl(cr, counts, keep, must_use, require_run, budget, false, floor).value;
}

std::vector<std::pair<std::string, size_t>> solver_table_bytes() {
  std::vector<std::pair<std::string, size_t>> out;
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  const RackTables& rt = rack_tables();
  out.emplace_back("memo", bytes(rt.memo.slots));
  out.emplace_back("memo2", bytes(rt.memo2.slots));
  out.emplace_back("tc", bytes(rt.tc.slots) + bytes(rt.tc.pool) + bytes(rt.tc.scratch));
  out.emplace_back("tc2", bytes(rt.tc2.slots) + bytes(rt.tc2.pool) + bytes(rt.tc2.scratch));
  const RawTrans& raw = raw_cache();
  out.emplace_back("raw", bytes(raw.slots) + bytes(raw.pool));
  const KeyedTrans& kc = keyed_cache();
  const JbIntern& jb = jb_intern();
  out.emplace_back("keyed", bytes(kc.slots) + bytes(kc.pool) + bytes(jb.slots) + bytes(jb.ids));
  const RebuildLists& rl = rebuild_cache();
  out.emplace_back("rebuild", bytes(rl.slots) + bytes(rl.pool) + sizeof(rl.direct));
  return out;
}

}  // namespace rummy101
