// rummy101 — relaxed_cover (see rummy101/relax.hpp): a depth-first search over the table's
// numbers, one colour at a time, memoising the states that fail. Twin of
// python/rummy101/_pure/relax.py (same states, same answers).
//
// A state: the number (1..last) and colour about to be placed; per colour the runs open at the
// number before, each (length 1, 2 or 3+, the number it must reach, 0 if none), as a sorted
// list; per colour the 1s kept for the high end (high_ace); the Jolys left; whether the kept tile
// is used; the tiles put into sets at this number so far and the most of one colour.
#include "rummy101/relax.hpp"

#include <algorithm>
#include <cstdint>

namespace rummy101 {
namespace {

constexpr int MAXR = 4;  // open runs of one colour: at most 2 copies + 2 Jolys at a number

struct Runs {
  int n = 0;
  std::array<std::uint8_t, MAXR> r{};  // (length << 4) | must-reach number, sorted descending
};

inline std::uint32_t pack(const Runs& x) {
  std::uint32_t v = 0;
  for (int i = 0; i < x.n; ++i) v = v << 6 | x.r[i];
  return v;
}

// a state in 16 bytes: each word two colours' runs (24 bits each) and, in its top 16 bits, part
// of the rest (see go)
struct Key {
  std::uint64_t a, b;
  bool operator==(const Key& o) const { return a == o.a && b == o.b; }
};

// The failed states: per state without (Jolys left, kept tile used), a bit per failed
// (jl, disc) as bit jl * 2 + disc (jl <= 2: 6 bits). Fewer Jolys or the kept tile used can only
// fail too. 17 bytes a slot, at most half of them used (a search of 1,000,000 states: <= 36 MB,
// 54 MB while the table grows; was 28 bytes a slot)
class Failed {
 public:
  Failed() : keys_(1 << 12), bits_(1 << 12, 0) {}
  std::uint8_t* find(const Key& k, bool add) {
    if (add && 2 * (used_ + 1) > keys_.size()) grow();
    std::size_t mask = keys_.size() - 1;
    for (std::size_t i = hash(k) & mask;; i = (i + 1) & mask) {
      if (!bits_[i]) {
        if (!add) return nullptr;
        keys_[i] = k;
        ++used_;
        return &bits_[i];
      }
      if (keys_[i] == k) return &bits_[i];
    }
  }

 private:
  static std::size_t hash(const Key& k) {
    // splitmix64's finaliser over both words: every bit (the top ones too) reaches the low ones
    std::uint64_t h = k.a ^ (k.b * 0x9E3779B97F4A7C15ULL + (k.b >> 32));
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
  void grow() {
    std::vector<Key> ok;
    std::vector<std::uint8_t> ob;
    ok.swap(keys_);
    ob.swap(bits_);
    keys_.assign(ok.size() * 2, Key{});
    bits_.assign(ob.size() * 2, 0);
    used_ = 0;
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (ob[i]) *find(ok[i], true) = ob[i];
  }
  std::vector<Key> keys_;
  std::vector<std::uint8_t> bits_;   // 0: an empty slot (a stored state has a bit)
  std::size_t used_ = 0;
};

// the (jl, disc) bits a failure of (jl, disc) implies: jl' <= jl, disc' >= disc
inline std::uint8_t implied(int jl, int disc) {
  unsigned out = 0;
  for (int j = 0; j <= jl; ++j)
    for (int d = disc; d <= 1; ++d) out |= 1u << (j * 2 + d);
  return static_cast<std::uint8_t>(out);
}

struct Search {
  int cnt[4][15] = {};
  int later[15][4] = {};   // the tiles of the colours after col at a number
  bool high = false;
  int last = 13;
  std::vector<int> starts[15][4];  // the must-reach numbers of the runs starting here
  int jolys = 0;
  Failed failed;
  long long nodes = 0, budget = 0;   // states expanded; past budget the search gives up
  bool gave_up = false;

  bool setup(const std::vector<int>& counts, bool high_ace, const std::vector<std::array<int, 3>>& runs);
  // the search from the root with budget states in all (a search that gave up goes on: its
  // failed states stay proven); 1 covered, 0 refuted, -1 gave up
  int run(long long cap) {
    budget = cap;
    gave_up = false;
    std::array<Runs, 4> none{};
    bool got = go(1, 0, none, 0, jolys, 0, 0, 0);
    return gave_up ? -1 : got ? 1 : 0;
  }

  int next_count(int pos, int col, int saved) const { return count_at(pos + 1, col, saved); }
  // the tiles of colour col at number p (the 1s kept for the high end at 14), 0 past the last
  int count_at(int p, int col, int saved) const {
    if (p > last) return 0;
    return p == 14 ? (saved >> (2 * col) & 3) : cnt[col][p];
  }

  bool go(int pos, int col, std::array<Runs, 4> runs, int saved, int jl, int disc, int q_sum, int q_max);
  bool place(int pos, int col, std::array<Runs, 4>& runs, Runs ext, std::size_t si, int saved, int jl,
             int disc, int q_sum, int q_max);
};

inline int saved_of(int saved, int col) { return saved >> (2 * col) & 3; }

// ext (the runs of colour col after this number) gets the must-reach numbers of the runs that
// start here, one unlocked run each (by distinct length), then the search goes on
bool Search::place(int pos, int col, std::array<Runs, 4>& runs, Runs ext, std::size_t si, int saved,
                   int jl, int disc, int q_sum, int q_max) {
  const std::vector<int>& his = starts[pos][col];
  if (si == his.size()) {
    // canonical: sorted; runs of 3+ with nothing to reach beyond what the next number can extend
    for (int i = 1; i < ext.n; ++i)   // sorted descending (at most MAXR entries)
      for (int k = i; k > 0 && ext.r[k - 1] < ext.r[k]; --k) std::swap(ext.r[k - 1], ext.r[k]);
    int cap = next_count(pos, col, saved) + jl;
    int free3 = 0;
    Runs out;
    for (int i = 0; i < ext.n; ++i) {
      if (ext.r[i] == (3 << 4)) {
        if (free3 >= cap) continue;
        ++free3;
      }
      out.r[out.n++] = ext.r[i];
    }
    std::array<Runs, 4> nr = runs;
    nr[col] = out;
    return go(pos, col + 1, nr, saved, jl, disc, q_sum, q_max);
  }
  int seen = 0;
  for (int i = 0; i < ext.n; ++i) {
    int len = ext.r[i] >> 4, reach = ext.r[i] & 15;
    if (reach || (seen >> len & 1)) continue;
    seen |= 1 << len;
    Runs e = ext;
    e.r[i] = static_cast<std::uint8_t>(len << 4 | his[si]);
    if (place(pos, col, runs, e, si + 1, saved, jl, disc, q_sum, q_max)) return true;
  }
  return false;
}

bool Search::go(int pos, int col, std::array<Runs, 4> runs, int saved, int jl, int disc, int q_sum,
                int q_max) {
  if (col == 4) {
    if (q_sum) {   // m sets of 3-4 tiles, each colour at most once in a set
      int m = std::max(q_max, (q_sum + 3) / 4);
      if (3 * m > q_sum) return false;
    }
    if (pos == last) {
      for (const Runs& x : runs)
        for (int i = 0; i < x.n; ++i)
          if ((x.r[i] >> 4) < 3) return false;
      return true;
    }
    ++pos;
    col = 0;
    q_sum = q_max = 0;
  }
  // the rest: number (4 bits), colour (2), the kept 1s (8), the set tiles so far (<= 10: 6) and the
  // most of one colour (<= 4: 3), 23 bits, split 16 / 7 over the two words' top bits
  const std::uint64_t rest = static_cast<std::uint64_t>(pos | col << 4 | saved << 6 | q_sum << 14 | q_max << 20);
  Key key{static_cast<std::uint64_t>(pack(runs[0])) | static_cast<std::uint64_t>(pack(runs[1])) << 24 |
              (rest & 0xFFFF) << 48,
          static_cast<std::uint64_t>(pack(runs[2])) | static_cast<std::uint64_t>(pack(runs[3])) << 24 |
              (rest >> 16) << 48};
  if (const std::uint8_t* f = failed.find(key, false); f && (*f >> (jl * 2 + disc) & 1)) return false;
  if (++nodes > budget) {   // gives up: true unwinds the search and proves nothing
    gave_up = true;
    return true;
  }
  const Runs& cur = runs[col];
  Runs must;
  int nopt = 0;
  for (int i = 0; i < cur.n; ++i) {
    int len = cur.r[i] >> 4, reach = cur.r[i] & 15;
    if (len < 3 || reach >= pos) must.r[must.n++] = cur.r[i];
    else ++nopt;
  }
  int a = pos == 14 ? saved_of(saved, col) : cnt[col][pos];
  int hmax = (pos == 1 && high) ? a : 0;
  for (int h = 0; h <= hmax; ++h) {
    int aa = a - h;
    int nsaved = saved | h << (2 * col);
    for (int v = 0; v <= jl; ++v) {
      for (int d = 0; d <= ((!disc && aa + v >= 1) ? 1 : 0); ++d) {
        int rest = aa + v - d - must.n;
        if (rest < 0) continue;
        for (int e3 = std::min(nopt, rest); e3 >= 0; --e3) {
          for (int s = rest - e3; s >= 0; --s) {
            int q = rest - e3 - s;
            if (pos == 14 && (q || s)) continue;
            if (must.n + e3 + s > MAXR) continue;
            // a set needs 3 tiles, one colour at most once in each: the later colours' tiles
            // (and the Jolys left) must make up what this number's sets lack
            int nq = q_sum + q, nm = std::max(q_max, q);
            if (nq && nq + later[pos][col] + jl - v < std::max(3, 3 * nm)) continue;
            Runs ext;
            for (int i = 0; i < must.n; ++i) {
              int len = must.r[i] >> 4, reach = must.r[i] & 15;
              ext.r[ext.n++] = static_cast<std::uint8_t>(std::min(len + 1, 3) << 4 | (reach > pos ? reach : 0));
            }
            for (int i = 0; i < e3; ++i) ext.r[ext.n++] = 3 << 4;
            for (int i = 0; i < s; ++i) ext.r[ext.n++] = 1 << 4;
            // the runs that must go on need as many tiles (or Jolys left) at the next number,
            // and those of one tile or to reach further at the one after
            int need1 = 0, need2 = 0;
            for (int i = 0; i < ext.n; ++i) {
              int len = ext.r[i] >> 4, reach = ext.r[i] & 15;
              need1 += len < 3 || reach;
              need2 += len == 1 || reach > pos + 1;
            }
            if (std::max(0, need1 - count_at(pos + 1, col, nsaved)) +
                    std::max(0, need2 - count_at(pos + 2, col, nsaved)) > jl - v)
              continue;
            if (place(pos, col, runs, ext, 0, nsaved, jl - v, disc | d, q_sum + q, std::max(q_max, q)))
              return true;
          }
        }
      }
    }
  }
  *failed.find(key, true) |= implied(jl, disc);
  return false;
}

bool Search::setup(const std::vector<int>& counts, bool high_ace,
                   const std::vector<std::array<int, 3>>& runs) {
  high = high_ace;
  last = high_ace ? 14 : 13;
  jolys = counts[52];
  for (int col = 0; col < 4; ++col)
    for (int n = 1; n <= 13; ++n) cnt[col][n] = counts[col * 13 + n - 1];
  for (int n = 1; n <= 13; ++n)
    for (int col = 2; col >= 0; --col) later[n][col] = later[n][col + 1] + cnt[col + 1][n];
  for (const auto& r : runs) {
    int col = r[0], lo = r[1], hi = r[2];
    if (col < 0 || col > 3 || lo < 1 || hi > last || hi - lo < 2) return false;
    starts[lo][col].push_back(hi);
  }
  return true;
}

}  // namespace

bool relaxed_cover(const std::vector<int>& counts, bool high_ace, const std::vector<std::array<int, 3>>& runs,
                   long long budget) {
  if (counts.size() != 53) return true;
  for (int c = 0; c < 52; ++c)
    if (counts[c] < 0 || counts[c] > 2) return true;
  if (counts[52] < 0 || counts[52] > 2) return true;
  // the same question with the numbers mirrored (n -> 14 - n; with the high 1, 2..13 -> 15 - n
  // and the 1 kept, low and high trading ends): runs, sets and the kept runs map onto each other,
  // so its answer is the same, but a search (low numbers first) meets what makes a vector fail
  // from the other end. The two go in turn, each with kFirst, kGrow times more, ... states in all
  // up to budget each, so the one that answers sooner answers.
  Search fw, bw;
  if (!fw.setup(counts, high_ace, runs)) return true;
  std::vector<int> mc(counts);
  for (int col = 0; col < 4; ++col)
    for (int n = 1; n <= 13; ++n)
      mc[col * 13 + ((high_ace ? (n >= 2 ? 15 - n : 1) : 14 - n)) - 1] = counts[col * 13 + n - 1];
  std::vector<std::array<int, 3>> mr;
  const int end = high_ace ? 15 : 14;
  for (const auto& r : runs) mr.push_back({r[0], end - r[2], end - r[1]});
  bw.setup(mc, high_ace, mr);
  constexpr long long kFirst = 2000, kGrow = 4;
  for (long long cap = kFirst;; cap *= kGrow) {
    long long c = std::min(cap, budget);
    for (Search* s : {&fw, &bw}) {
      int got = s->run(c);
      if (got >= 0) return got == 1;
    }
    if (c >= budget) return true;
  }
}

}  // namespace rummy101
