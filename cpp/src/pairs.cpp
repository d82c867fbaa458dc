// Most pairs from a rack (R101-5, R101-8): a pair is two equal real tiles or a real tile + joker;
// two jokers are no pair; several pairs may stand for the same tile (R5+*, R5+*).
// Twin of max_pairs in python/rummy101/_pure/solver.py (same construction, same order).
#include <algorithm>

#include "rummy101/solver.hpp"

namespace rummy101 {
namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }
long count_of(const std::vector<int>& v, int x) { return std::count(v.begin(), v.end(), x); }

// The canonical arrangement with exactly x joker pairs and as many real pairs as allowed;
// false when the constraints cannot be met with x joker pairs.
bool pairs_with(const Counts& cnt, int x, bool keep, int must_use, std::vector<std::pair<int, int>>& out) {
  int rem[JOKER];
  for (int c = 0; c < JOKER; ++c) rem[c] = cnt[c];
  std::vector<int> jp, rp;
  int need = x;
  if (need > 0 && must_use >= 0 && must_use < JOKER && rem[must_use] % 2 == 1) {
    jp.push_back(must_use); rem[must_use] -= 1; need -= 1;
  }
  for (int code = 0; code < JOKER && need > 0; ++code)
    if (rem[code] % 2 == 1) { jp.push_back(code); rem[code] -= 1; need -= 1; }
  for (int code = 0; code < JOKER; ++code)
    while (need > 0 && rem[code] > 0) { jp.push_back(code); rem[code] -= 1; need -= 1; }
  if (need > 0) return false;
  for (int code = 0; code < JOKER; ++code)
    for (int k = 0; k < rem[code] / 2; ++k) rp.push_back(code);
  int used = 2 * int(jp.size() + rp.size());
  int total = 0;
  for (int c = 0; c < NUM_CODES; ++c) total += cnt[c];
  if (keep && used >= total) {
    bool dropped = false;
    for (int i = int(rp.size()) - 1; i >= 0; --i) {
      if (rp[i] == must_use && count_of(rp, must_use) == 1 && !contains(jp, must_use)) continue;
      rp.erase(rp.begin() + i);
      dropped = true;
      break;
    }
    if (!dropped)
      for (int i = int(jp.size()) - 1; i >= 0; --i) {
        if (jp[i] == must_use && count_of(jp, must_use) == 1 && !contains(rp, must_use)) continue;
        jp.erase(jp.begin() + i);
        dropped = true;
        break;
      }
    if (!dropped) return false;
  }
  if (must_use == JOKER && jp.empty()) return false;
  if (must_use >= 0 && must_use < JOKER && !contains(jp, must_use) && !contains(rp, must_use)) return false;
  out.clear();
  for (int c : rp) out.emplace_back(c, c);
  for (int c : jp) out.emplace_back(c, JOKER);
  std::sort(out.begin(), out.end());
  return true;
}

}  // namespace

PairsResult max_pairs(const Counts& cnt, bool keep, int must_use, long long budget) {
  CoreRules plain;  // the pairs solver has no joker ratio
  check_solver_input(plain, cnt, must_use);
  check_budget(budget);
  long long nodes = 0;  // one node per joker-pair count tried (at most SOLVER_MAX_JOKERS + 1)
  int J = cnt[JOKER];
  int T = 0;
  for (int c = 0; c < JOKER; ++c) T += cnt[c];
  PairsResult best;
  std::vector<std::pair<int, int>> cur;
  for (int x = std::min(J, T); x >= 0; --x) {
    if (++nodes > budget) throw BudgetExceeded(budget);
    if (pairs_with(cnt, x, keep, must_use, cur) && int(cur.size()) > best.n_pairs) {
      best.n_pairs = int(cur.size());
      best.pairs = cur;
    }
  }
  if (best.n_pairs < 0) best.pairs.clear();
  return best;
}

}  // namespace rummy101
