// rummy101 — Remi closing on the rack (tabla, RULES.md RO-11). Twin of
// python/rummy101/_pure/tabla.py: every enumeration runs in the same order so that both
// backends return the same arrangements.
#include "rummy101/tabla.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rummy101 {
namespace {

constexpr int ROW_LEN = 14;

inline int row_number(int i) { return i == 13 ? 1 : i + 1; }  // RO-11: 1-2-...-13-1
inline int tile_code(int colour, int number) {
  return colour * NUM_NUMBERS + (number == 14 ? 1 : number) - 1;
}

Counts rack(const std::vector<int>& counts, int size, const char* fn) {
  Counts c = to_counts(counts);
  int n = 0;
  for (int v : c) n += v;
  if (n != size)
    throw std::invalid_argument(std::string(fn) + " needs a rack of " + std::to_string(size) +
                                " tiles, got " + std::to_string(n));
  return c;
}

// ---- simple close: runs and sets (RO-6, RO-7) ---------------------------------------------

struct Cand {
  int kind = KIND_INVALID;
  int len = 0;
  int tiles[ROW_LEN];
  int stand[ROW_LEN];
};

// Backtracking over the smallest remaining real tile: it joins a meld (runs first, then sets)
// or, when maximising, stays uncovered with all its copies.
class Cover {
 public:
  Cover(const CoreRules& cr, const Counts& counts) : high_(cr.high_ace), ratio_(cr.joker_ratio) {
    left_ = 0;
    for (int i = 0; i < JOKER; ++i) { cnt_[i] = counts[i]; left_ += counts[i]; }
    j_ = counts[JOKER];
    left_ += j_;
  }

  // Can every remaining tile be put in melds (with a run overall)? Fills melds().
  bool close(bool has_run) {
    int t = first();
    if (t < 0) return j_ == 0 && has_run;
    auto f = [&](const Cand& c) {
      stack_.push_back(c);
      if (close(has_run || c.kind == KIND_RUN)) return true;
      stack_.pop_back();
      return false;
    };
    return melds_with(t, f);
  }

  // Raises best() to the most tiles coverable by melds holding at least one run.
  void most(int covered, bool has_run) {
    if (covered + left_ <= best_) return;
    int t = first();
    if (t < 0) {
      if (has_run) best_ = covered;
      return;
    }
    auto f = [&](const Cand& c) {
      left_ -= c.len;
      most(covered + c.len, has_run || c.kind == KIND_RUN);
      left_ += c.len;
      return false;
    };
    melds_with(t, f);
    int k = cnt_[t];
    cnt_[t] = 0;
    left_ -= k;
    most(covered, has_run);
    left_ += k;
    cnt_[t] = k;
  }

  int best() const { return best_; }

  std::vector<TablaMeld> melds() const {
    std::vector<TablaMeld> out;
    out.reserve(stack_.size());
    for (const Cand& c : stack_)
      out.push_back(TablaMeld{c.kind, std::vector<int>(c.tiles, c.tiles + c.len),
                              std::vector<int>(c.stand, c.stand + c.len)});
    return out;
  }

 private:
  bool ok(int reals, int jokers) const {
    return reals >= 1 && reals >= static_cast<long long>(ratio_) * jokers;  // no overflow
  }

  int first() const {
    for (int t = 0; t < JOKER; ++t)
      if (cnt_[t]) return t;
    return -1;
  }

  // Every meld holding t and otherwise only remaining tiles of codes > t and Jolys, applied to
  // the state while f sees it; f returns true to stop. Order: low runs by leading Jolys then
  // length (a real tile before a Joly at each position), high-ace runs, then sets by size.
  template <class F>
  bool melds_with(int t, F& f) {
    const int colour = t / NUM_NUMBERS, number = t % NUM_NUMBERS + 1;
    const int top = high_ ? 14 : 13;
    int tl[15], sf[15];  // indexed by run position 1..14
    --cnt_[t];
    const int p = number;
    const int maxlead = std::min(j_, p - 1);
    for (int lead = 0; lead <= maxlead; ++lead) {
      const int s = p - lead;
      j_ -= lead;
      for (int q = s; q < p; ++q) { tl[q] = JOKER; sf[q] = tile_code(colour, q); }
      tl[p] = t;
      sf[p] = tile_code(colour, p);
      bool stop = extend_right(colour, s, p, tl, sf, 1, lead, top, f);
      j_ += lead;
      if (stop) { ++cnt_[t]; return true; }
    }
    if (number == 1 && high_) {
      tl[14] = t;
      sf[14] = tile_code(colour, 14);
      if (extend_left(colour, 14, tl, sf, 1, 0, f)) { ++cnt_[t]; return true; }
    }
    int higher[3], nh = 0;
    for (int c = colour + 1; c < NUM_COLOURS; ++c)
      if (cnt_[c * NUM_NUMBERS + number - 1]) higher[nh++] = c;
    for (int size = 3; size <= 4; ++size) {
      for (int mask = 0; mask < (1 << nh); ++mask) {
        int k = 0;
        bool real[NUM_COLOURS] = {false, false, false, false};
        real[colour] = true;
        for (int i = 0; i < nh; ++i)
          if (mask >> i & 1) { real[higher[i]] = true; ++k; }
        const int jk = size - 1 - k;
        if (jk < 0 || jk > j_ || !ok(1 + k, jk)) continue;
        Cand c;
        c.kind = KIND_SET;
        int missing_left = jk;
        for (int col = 0; col < NUM_COLOURS; ++col) {
          const int code = col * NUM_NUMBERS + number - 1;
          if (real[col]) {
            c.tiles[c.len] = code; c.stand[c.len] = code; ++c.len;
          } else if (missing_left > 0) {
            --missing_left;
            c.tiles[c.len] = JOKER; c.stand[c.len] = code; ++c.len;
          }
        }
        for (int i = 0; i < nh; ++i)
          if (mask >> i & 1) --cnt_[higher[i] * NUM_NUMBERS + number - 1];
        j_ -= jk;
        const bool stop = f(c);
        j_ += jk;
        for (int i = 0; i < nh; ++i)
          if (mask >> i & 1) ++cnt_[higher[i] * NUM_NUMBERS + number - 1];
        if (stop) { ++cnt_[t]; return true; }
      }
    }
    ++cnt_[t];
    return false;
  }

  template <class F>
  bool emit(int s, int e, const int* tl, const int* sf, F& f) {
    Cand c;
    c.kind = KIND_RUN;
    for (int q = s; q <= e; ++q) { c.tiles[c.len] = tl[q]; c.stand[c.len] = sf[q]; ++c.len; }
    return f(c);
  }

  template <class F>
  bool extend_right(int colour, int s, int q, int* tl, int* sf, int reals, int jokers, int top,
                    F& f) {
    if (q - s + 1 >= 3 && ok(reals, jokers) && emit(s, q, tl, sf, f)) return true;
    if (q + 1 > top) return false;
    const int code = tile_code(colour, q + 1);
    sf[q + 1] = code;
    if (cnt_[code]) {
      --cnt_[code];
      tl[q + 1] = code;
      const bool stop = extend_right(colour, s, q + 1, tl, sf, reals + 1, jokers, top, f);
      ++cnt_[code];
      if (stop) return true;
    }
    if (j_) {
      --j_;
      tl[q + 1] = JOKER;
      const bool stop = extend_right(colour, s, q + 1, tl, sf, reals, jokers + 1, top, f);
      ++j_;
      if (stop) return true;
    }
    return false;
  }

  template <class F>
  bool extend_left(int colour, int s, int* tl, int* sf, int reals, int jokers, F& f) {
    if (14 - s + 1 >= 3 && ok(reals, jokers) && emit(s, 14, tl, sf, f)) return true;
    if (s - 1 < 1) return false;
    const int code = tile_code(colour, s - 1);
    sf[s - 1] = code;
    if (cnt_[code]) {
      --cnt_[code];
      tl[s - 1] = code;
      const bool stop = extend_left(colour, s - 1, tl, sf, reals + 1, jokers, f);
      ++cnt_[code];
      if (stop) return true;
    }
    if (j_) {
      --j_;
      tl[s - 1] = JOKER;
      const bool stop = extend_left(colour, s - 1, tl, sf, reals, jokers + 1, f);
      ++j_;
      if (stop) return true;
    }
    return false;
  }

  bool high_;
  int ratio_;
  int cnt_[JOKER];
  int j_ = 0;
  int left_ = 0;
  int best_ = -1;
  std::vector<Cand> stack_;
};

// ---- row patterns (RO-11): 1-2-...-13-1 -------------------------------------------------------

// The row along colours if the rack's real tiles all fit it (Jolys fill the rest).
bool row_of(const Counts& counts, const int* colours, TablaPattern& out) {
  int need[JOKER] = {};
  for (int i = 0; i < ROW_LEN; ++i) ++need[tile_code(colours[i], row_number(i))];
  for (int code = 0; code < JOKER; ++code)
    if (counts[code] > need[code]) return false;
  int have[JOKER];
  for (int code = 0; code < JOKER; ++code) have[code] = counts[code];
  out.row.assign(ROW_LEN, JOKER);
  out.stand_for.assign(ROW_LEN, 0);
  out.melds.clear();
  for (int i = 0; i < ROW_LEN; ++i) {
    const int code = tile_code(colours[i], row_number(i));
    out.stand_for[i] = code;
    if (have[code]) { --have[code]; out.row[i] = code; }
  }
  return true;
}

bool monocolor(const Counts& counts, TablaPattern& out) {
  int colours[ROW_LEN];
  for (int c = 0; c < NUM_COLOURS; ++c) {
    std::fill(colours, colours + ROW_LEN, c);
    if (row_of(counts, colours, out)) return true;
  }
  return false;
}

bool bicolor(const Counts& counts, TablaPattern& out) {
  int colours[ROW_LEN];
  for (int a = 0; a < NUM_COLOURS; ++a)
    for (int b = 0; b < NUM_COLOURS; ++b) {
      if (a == b) continue;
      for (int i = 0; i < ROW_LEN; ++i) colours[i] = i % 2 == 0 ? a : b;
      if (row_of(counts, colours, out)) return true;
    }
  return false;
}

// The rack's real 1s fit the row's two 1s coloured first and last.
bool ones_fit(const Counts& counts, int first, int last) {
  for (int c = 0; c < NUM_COLOURS; ++c) {
    const int room = (c == first) + (c == last);
    if (counts[tile_code(c, 1)] > room) return false;
  }
  return true;
}

template <class F>
void for_perms4(F&& f) {
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 4; ++d)
          if (a != b && a != c && a != d && b != c && b != d && c != d) {
            const int p[4] = {a, b, c, d};
            if (f(p)) return;
          }
}

// Lexicographically smallest Mozaic colouring (RO-11: no two neighbours of one colour along the
// row, 13 and the final 1 included; 1-2-3-4 in four colours) that the real tiles fit.
bool mozaic(const Counts& counts, TablaPattern& out) {
  int forced[ROW_LEN];
  std::fill(forced, forced + ROW_LEN, -1);
  for (int n = 2; n <= 13; ++n) {
    int present = 0, colour = -1;
    for (int c = 0; c < NUM_COLOURS; ++c) {
      const int k = counts[tile_code(c, n)];
      if (k > 1) return false;
      if (k) { ++present; colour = c; }
    }
    if (present > 1) return false;
    if (present) forced[n - 1] = colour;
  }
  bool found = false;
  for_perms4([&](const int* first4) {
    for (int i = 1; i < 4; ++i)
      if (forced[i] != -1 && forced[i] != first4[i]) return false;
    bool ok[ROW_LEN][4] = {};
    for (int x = 0; x < 4; ++x) ok[13][x] = ones_fit(counts, first4[0], x);
    for (int i = 12; i >= 4; --i)
      for (int x = 0; x < 4; ++x) {
        bool any = false;
        for (int y = 0; y < 4; ++y)
          if (y != x && ok[i + 1][y]) any = true;
        ok[i][x] = (forced[i] == -1 || forced[i] == x) && any;
      }
    int colours[ROW_LEN];
    for (int i = 0; i < 4; ++i) colours[i] = first4[i];
    for (int i = 4; i < ROW_LEN; ++i) {
      int choice = -1;
      for (int x = 0; x < 4; ++x)
        if (x != colours[i - 1] && ok[i][x]) { choice = x; break; }
      if (choice < 0) return false;
      colours[i] = choice;
    }
    found = row_of(counts, colours, out);
    return found;
  });
  return found;
}

// Quick necessary condition for every row: numbers 2..13 at most once, the 1 at most twice.
bool rows_possible(const Counts& counts) {
  for (int n = 1; n <= 13; ++n) {
    int k = 0;
    for (int c = 0; c < NUM_COLOURS; ++c) k += counts[tile_code(c, n)];
    if (k > (n == 1 ? 2 : 1)) return false;
  }
  return true;
}

// A real tile t that no meld can hold, even ignoring the Joly ratio: no two other tiles of its
// number (real, of other colours, or Jolys) and no three consecutive run positions through it
// filled by real tiles or Jolys. Used only to skip searches that would fail (or leave t out)
// anyway, so results do not depend on it.
bool is_dead(const CoreRules& cr, const Counts& counts, int t) {
  const int j = counts[JOKER];
  const int top = cr.high_ace ? 14 : 13;
  const int colour = t / NUM_NUMBERS, number = t % NUM_NUMBERS + 1;
  int others = j;
  for (int c = 0; c < NUM_COLOURS; ++c)
    if (c != colour && counts[tile_code(c, number)]) ++others;
  if (others >= 2) return false;
  for (int pt = number; pt <= top; pt += 13) {  // a 1 may also stand at 14 (high ace)
    for (int w = pt - 2; w <= pt; ++w) {
      if (w < 1 || w + 2 > top) continue;
      int need = 0;
      for (int q = w; q <= w + 2; ++q)
        if (q != pt && !counts[tile_code(colour, q)]) ++need;
      if (need <= j) return false;
    }
  }
  return true;
}

bool has_dead_tile(const CoreRules& cr, const Counts& counts) {
  for (int t = 0; t < JOKER; ++t)
    if (counts[t] && is_dead(cr, counts, t)) return true;
  return false;
}

// The rack without its dead tiles (repeatedly: dropping one may kill another); the most tiles
// that melds can cover is the same with or without them.
Counts without_dead(const CoreRules& cr, const Counts& counts) {
  Counts c = counts;
  for (bool changed = true; changed;) {
    changed = false;
    for (int t = 0; t < JOKER; ++t)
      if (c[t] && is_dead(cr, c, t)) { c[t] = 0; changed = true; }
  }
  return c;
}

// Every pattern (best first), or only the best one.
std::vector<TablaPattern> patterns(const CoreRules& cr, const Counts& counts, bool best_only) {
  std::vector<TablaPattern> out;
  TablaPattern p;
  const bool rows = rows_possible(counts);
  if (rows && monocolor(counts, p)) {
    p.pattern = PATTERN_MONOCOLOR;
    out.push_back(p);
    if (best_only) return out;
  }
  if (rows && bicolor(counts, p)) {
    p.pattern = PATTERN_BICOLOR;
    out.push_back(p);
    if (best_only) return out;
  }
  if (rows && mozaic(counts, p)) {
    p.pattern = PATTERN_MOZAIC;
    out.push_back(p);
    if (best_only) return out;
  }
  if (has_dead_tile(cr, counts)) return out;
  Cover cover(cr, counts);
  if (cover.close(false)) {
    TablaPattern s;
    s.pattern = PATTERN_SIMPLE;
    s.melds = cover.melds();
    out.push_back(std::move(s));
  }
  return out;
}

// ---- distances ----------------------------------------------------------------------------------

inline int fits(const Counts& counts, int colour, int number) {
  return counts[tile_code(colour, number)] ? 1 : 0;
}

inline int ones(const Counts& counts, int first, int last) {
  if (first == last) return std::min(counts[tile_code(first, 1)], 2);
  return fits(counts, first, 1) + fits(counts, last, 1);
}

// Most real rack tiles that fit one row of the pattern at once.
int row_fit_max(const Counts& counts, int pattern) {
  int best = 0;
  if (pattern == PATTERN_MONOCOLOR) {
    for (int c = 0; c < NUM_COLOURS; ++c) {
      int v = ones(counts, c, c);
      for (int n = 2; n <= 13; ++n) v += fits(counts, c, n);
      best = std::max(best, v);
    }
  } else if (pattern == PATTERN_BICOLOR) {
    for (int a = 0; a < NUM_COLOURS; ++a)
      for (int b = 0; b < NUM_COLOURS; ++b) {
        if (a == b) continue;
        int v = ones(counts, a, b);
        for (int n = 2; n <= 13; ++n) v += fits(counts, (n - 1) % 2 == 0 ? a : b, n);
        best = std::max(best, v);
      }
  } else {
    int fit[4][14];
    for (int c = 0; c < NUM_COLOURS; ++c) {
      fit[c][0] = fit[c][1] = 0;
      for (int n = 2; n <= 13; ++n) fit[c][n] = fits(counts, c, n);
    }
    // mid[last][x]: most fits at positions 4..12 (numbers 5..13) with colour x at 12, when
    // position 3 has colour last (-1: impossible).
    int mid[4][4];
    for (int last = 0; last < 4; ++last) {
      int dp[4];
      for (int x = 0; x < 4; ++x) dp[x] = x == last ? -1 : fit[x][5];
      for (int n = 6; n <= 13; ++n) {
        int nd[4];
        for (int x = 0; x < 4; ++x) {
          int prev = -1;
          for (int y = 0; y < 4; ++y)
            if (y != x) prev = std::max(prev, dp[y]);
          nd[x] = prev + fit[x][n];
        }
        std::copy(nd, nd + 4, dp);
      }
      std::copy(dp, dp + 4, mid[last]);
    }
    for_perms4([&](const int* first4) {
      const int base = fit[first4[1]][2] + fit[first4[2]][3] + fit[first4[3]][4];
      const int* dp = mid[first4[3]];
      for (int y = 0; y < 4; ++y) {  // the final 1, next to 13
        int prev = -1;
        for (int x = 0; x < 4; ++x)
          if (x != y) prev = std::max(prev, dp[x]);
        if (prev >= 0) best = std::max(best, base + prev + ones(counts, first4[0], y));
      }
      return false;
    });
  }
  return best;
}

}  // namespace

std::vector<TablaPattern> tabla_patterns(const CoreRules& cr, const std::vector<int>& counts) {
  return patterns(cr, rack(counts, TABLA_TILES, "tabla_patterns"), false);
}

std::vector<TablaClose> tabla_closes(const CoreRules& cr, const std::vector<int>& counts) {
  Counts c = rack(counts, TABLA_TILES + 1, "tabla_closes");
  std::vector<TablaClose> out;
  for (int d = 0; d <= JOKER; ++d) {
    if (!c[d]) continue;
    --c[d];
    std::vector<TablaPattern> found = patterns(cr, c, true);
    ++c[d];
    if (!found.empty()) {
      TablaClose close;
      close.discard = d;
      close.best = std::move(found.front());
      close.score = PATTERN_SCORES[close.best.pattern] * (d == JOKER ? 2 : 1);
      out.push_back(std::move(close));
    }
  }
  return out;
}

std::array<int, 4> tabla_distance(const CoreRules& cr, const std::vector<int>& counts) {
  Counts c = rack(counts, TABLA_TILES, "tabla_distance");
  const int reals = TABLA_TILES - c[JOKER];
  Cover cover(cr, without_dead(cr, c));
  cover.most(0, false);
  return {TABLA_TILES - std::max(cover.best(), 0), reals - row_fit_max(c, PATTERN_MOZAIC),
          reals - row_fit_max(c, PATTERN_BICOLOR), reals - row_fit_max(c, PATTERN_MONOCOLOR)};
}

}  // namespace rummy101
