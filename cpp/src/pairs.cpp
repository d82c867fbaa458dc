// Most pairs from a rack (R101-5, R101-8): a pair is two equal real tiles or a real tile + joker;
// two jokers are no pair; several pairs may stand for the same tile (R5+*, R5+*). Among the
// arrangements with the most pairs, the one that leaves the least penalty on the rack (R101-6,
// R101-13: face values, a joker 101; the tile kept for the discard counts too); ties broken by
// the lexicographically smallest sorted pair list.
// Twin of max_pairs in python/rummy101/_pure/solver.py (same construction, same order).
#include <algorithm>
#include <array>

#include "rummy101/solver.hpp"

namespace rummy101 {
namespace {

constexpr long long NEG = -(1LL << 40);
constexpr long long PAIRS_JOKER_PENALTY = 101;
constexpr long long PAIRS_SCALE = 10000;  // score = pairs * scale - penalty

// (real pairs, joker pairs) of one code holding r tiles with at most j jokers, in the tie-break
// order: more real pairs first, then more joker pairs.
template <class F>
void for_options(int r, int j, F&& f) {
  for (int p = r / 2; p >= 0; --p)
    for (int q = std::min(r - 2 * p, j); q >= 0; --q)
      if (f(p, q)) return;
}

// The best arrangement with exactly x jokers laid: false when the constraints cannot be met.
// Over the codes on the rack (an absent code changes nothing), best[i][j][l]: the optimum of
// codes[i..] with j jokers still to lay, l = a tile already left.
bool pairs_with(const Counts& cnt, int x, bool keep, int must_use, long long& score,
                std::vector<std::pair<int, int>>& out) {
  if ((must_use == JOKER && x == 0) || (must_use >= 0 && must_use < JOKER && cnt[must_use] == 0))
    return false;
  std::vector<int> codes;
  for (int c = 0; c < JOKER; ++c)
    if (cnt[c]) codes.push_back(c);
  const int k = int(codes.size());
  const int left0 = cnt[JOKER] > x ? 1 : 0;
  const long long base = -PAIRS_JOKER_PENALTY * (cnt[JOKER] - x);
  std::vector<std::array<long long, 2>> best(size_t(k + 1) * (x + 1), {NEG, NEG});
  auto at = [&](int i, int j) -> std::array<long long, 2>& { return best[size_t(i) * (x + 1) + j]; };
  at(k, 0)[1] = 0;
  if (!keep) at(k, 0)[0] = 0;
  for (int i = k - 1; i >= 0; --i) {
    const int c = codes[i];
    const int r = cnt[c];
    const long long value = c % NUM_NUMBERS + 1;
    for (int j = 0; j <= x; ++j)
      for (int lf = 0; lf < 2; ++lf) {
        long long top = NEG;
        for_options(r, j, [&](int p, int q) {
          if (c == must_use && p + q == 0) return false;
          const int loose = r - 2 * p - q;
          const long long sub = at(i + 1, j - q)[(lf || loose) ? 1 : 0];
          if (sub == NEG) return false;
          top = std::max(top, sub + (p + q) * PAIRS_SCALE - loose * value);
          return false;
        });
        at(i, j)[lf] = top;
      }
  }
  if (at(0, x)[left0] == NEG) return false;
  out.clear();
  int j = x, lf = left0;
  for (int i = 0; i < k; ++i) {
    const int c = codes[i];
    const int r = cnt[c];
    const long long value = c % NUM_NUMBERS + 1;
    const long long want = at(i, j)[lf];
    for_options(r, j, [&](int p, int q) {
      if (c == must_use && p + q == 0) return false;
      const int loose = r - 2 * p - q;
      const int nl = (lf || loose) ? 1 : 0;
      const long long sub = at(i + 1, j - q)[nl];
      if (sub == NEG || sub + (p + q) * PAIRS_SCALE - loose * value != want) return false;
      for (int n = 0; n < p; ++n) out.emplace_back(c, c);
      for (int n = 0; n < q; ++n) out.emplace_back(c, JOKER);
      j -= q;
      lf = nl;
      return true;
    });
  }
  score = at(0, x)[left0] + base;
  return true;
}

}  // namespace

PairsResult max_pairs(const Counts& cnt, bool keep, int must_use, long long budget) {
  CoreRules plain;  // the pairs solver has no joker ratio
  check_solver_input(plain, cnt, must_use);
  check_budget(budget);
  long long nodes = 0;  // one node per joker-pair count tried (at most SOLVER_MAX_JOKERS + 1)
  int J = cnt[JOKER];
  int T = 0, F = 0;
  for (int c = 0; c < JOKER; ++c) T += cnt[c], F += cnt[c] / 2;
  PairsResult best;
  long long best_score = NEG;
  std::vector<std::pair<int, int>> cur;
  for (int x = std::min(J, T); x >= 0; --x) {
    if (++nodes > budget) throw BudgetExceeded(budget);
    // x jokers laid cannot make as many pairs (each joker adds one at most)
    if (std::min(F + x, x + (T - x) / 2) < best.n_pairs) continue;
    long long score = NEG;
    if (!pairs_with(cnt, x, keep, must_use, score, cur)) continue;
    if (score > best_score || (score == best_score && cur < best.pairs)) {
      best_score = score;
      best.pairs = cur;
      best.n_pairs = int(cur.size());
    }
  }
  if (best.n_pairs < 0) best.pairs.clear();
  return best;
}

}  // namespace rummy101
