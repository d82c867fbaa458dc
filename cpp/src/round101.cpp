// rummy101 — a greedy Rummy 101 round in C++ (see round101.hpp). Every function names the
// Python function it mirrors; keep the two in step (tests/test_native_round.py checks them).
#include "rummy101/round101.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "rummy101/melds.hpp"
#include "rummy101/solver.hpp"

namespace rummy101 {

namespace {

constexpr int J = JOKER;
constexpr int NOT_OPENED = 0, OPEN_MELDS = 1, OPEN_PAIRS = 2;
constexpr int WIN_FEED_COST = 15;   // strategy.FEED_COST
constexpr int CONNECT_COST = 3;     // strategy.CONNECT_COST

inline int popcount(unsigned x) { return __builtin_popcount(x); }

// Sorts a few ints in place (std::sort on 3-4 element arrays draws -Warray-bounds from GCC 12).
inline void sort_small(int* a, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && a[j - 1] > a[j]; --j) std::swap(a[j - 1], a[j]);
}
inline int lowbit_index(unsigned x) { return __builtin_ctz(x); }

// ---- table melds: rummy101.game.table.TableMeld -------------------------------------------

struct Meld {
  int kind = 0, owner = 0, n = 0, colour = -1, first = 0, jokers = 0, value = 0;
  int tiles[14] = {};
  int nadds = 0;
  int add_code[4] = {}, add_pos[4] = {};
  int nrel = 0;
  int rel_code[14] = {}, rel_idx[14] = {};
};

void bad_meld(const char* why) { throw std::invalid_argument(std::string("table meld: ") + why); }

// table._init_run
Meld build_run(int owner, const int* t, int n) {
  Meld m;
  m.kind = KIND_RUN;
  m.owner = owner;
  int first = -1, colour = -1;
  for (int i = 0; i < n; ++i)
    if (t[i] != J) {
      colour = t[i] / 13;
      first = t[i] % 13 + 1 - i;
      break;
    }
  if (colour < 0 || n < 3 || n > 13 || first < 1 || first + n - 1 > 13) bad_meld("not a run");
  int base = colour * 13 + first - 1;
  for (int i = 0; i < n; ++i) {
    m.tiles[i] = t[i];
    if (t[i] == J) {
      m.rel_code[m.nrel] = base + i;
      m.rel_idx[m.nrel++] = i;
      ++m.jokers;
    } else if (t[i] != base + i) {
      bad_meld("not a run");
    }
  }
  m.n = n;
  m.colour = colour;
  m.first = first;
  int last = first + n - 1;
  m.value = (first + last) * n / 2;
  if (first > 1) {
    m.add_code[m.nadds] = base - 1; m.add_pos[m.nadds++] = 0;
    m.add_code[m.nadds] = J; m.add_pos[m.nadds++] = 0;
  }
  if (last < 13) {
    m.add_code[m.nadds] = base + n; m.add_pos[m.nadds++] = 1;
    m.add_code[m.nadds] = J; m.add_pos[m.nadds++] = 1;
  }
  return m;
}

// table._init_set
Meld build_set(int owner, const int* t, int n) {
  Meld m;
  m.kind = KIND_SET;
  m.owner = owner;
  int reals[4], nr = 0, nj = 0;
  if (n < 3 || n > 4) bad_meld("not a set");
  for (int i = 0; i < n; ++i) {
    if (t[i] == J) ++nj;
    else reals[nr++] = t[i];
  }
  if (!nr) bad_meld("not a set");
  sort_small(reals, nr);
  int number = reals[0] % 13;
  bool has[4] = {false, false, false, false};
  for (int i = 0; i < nr; ++i) {
    if (reals[i] % 13 != number || has[reals[i] / 13]) bad_meld("not a set");
    has[reals[i] / 13] = true;
  }
  int left = nj, k = 0;
  for (int c = 0; c < 4; ++c) {
    if (has[c]) m.tiles[k++] = c * 13 + number;
    else if (left) { m.tiles[k++] = J; --left; }
  }
  m.n = k;
  m.jokers = nj;
  m.colour = -1;
  m.first = number + 1;
  m.value = (number + 1) * k;
  int first_joker = -1;
  for (int i = 0; i < k; ++i)
    if (m.tiles[i] == J) { first_joker = i; break; }
  if (nj)
    for (int c = 0; c < 4; ++c)
      if (!has[c]) { m.rel_code[m.nrel] = c * 13 + number; m.rel_idx[m.nrel++] = first_joker; }
  if (k == 3) {
    for (int c = 0; c < 4; ++c)
      if (!has[c]) { m.add_code[m.nadds] = c * 13 + number; m.add_pos[m.nadds++] = -1; }
    m.add_code[m.nadds] = J; m.add_pos[m.nadds++] = -1;
  }
  return m;
}

// table._init_pair
Meld build_pair(int owner, const int* t, int n) {
  Meld m;
  m.kind = KIND_PAIR;
  m.owner = owner;
  if (n != 2) bad_meld("not a pair");
  int a = t[0], b = t[1];
  if (a == J) std::swap(a, b);
  if (a == J || (b != J && b != a)) bad_meld("not a pair");
  m.n = 2;
  m.tiles[0] = a;
  m.tiles[1] = b;
  m.jokers = b == J ? 1 : 0;
  m.colour = a / 13;
  m.first = a % 13 + 1;
  m.value = 2 * m.first;
  if (b == J) { m.rel_code[0] = a; m.rel_idx[0] = 1; m.nrel = 1; }
  return m;
}

Meld build(int kind, int owner, const int* t, int n) {
  for (int i = 0; i < n; ++i)
    if (t[i] < 0 || t[i] >= NUM_CODES) bad_meld("tile code out of range");
  if (kind == KIND_RUN) return build_run(owner, t, n);
  if (kind == KIND_SET) return build_set(owner, t, n);
  if (kind == KIND_PAIR) return build_pair(owner, t, n);
  bad_meld("unknown kind");
  return Meld();
}

// TableMeld.with_added / with_released
Meld with_added(const Meld& m, int code, int pos) {
  int t[14];
  int n = m.n;
  if (m.kind == KIND_RUN) {
    if (pos == 0) {
      t[0] = code;
      std::memcpy(t + 1, m.tiles, sizeof(int) * n);
    } else {
      std::memcpy(t, m.tiles, sizeof(int) * n);
      t[n] = code;
    }
    return build_run(m.owner, t, n + 1);
  }
  std::memcpy(t, m.tiles, sizeof(int) * n);
  t[n] = code;
  return build_set(m.owner, t, n + 1);
}

Meld with_released(const Meld& m, int code, int index) {
  int t[14];
  std::memcpy(t, m.tiles, sizeof(int) * m.n);
  t[index] = code;
  return build(m.kind, m.owner, t, m.n);
}

// ---- actions --------------------------------------------------------------------------------

struct Act {
  int verb = R101_DRAW;
  int n = 0;  // tiles
  int t[3] = {-1, -1, -1};
  int meld = -1;
  int pos = -1;
};

Act bare(int verb) { Act a; a.verb = verb; return a; }
Act tiles3(int verb, int a, int b, int c) { Act x; x.verb = verb; x.n = 3; x.t[0] = a; x.t[1] = b; x.t[2] = c; return x; }
Act tiles2(int verb, int a, int b) { Act x; x.verb = verb; x.n = 2; x.t[0] = a; x.t[1] = b; return x; }
Act one(int verb, int code, int meld, int pos) { Act x; x.verb = verb; x.n = 1; x.t[0] = code; x.meld = meld; x.pos = pos; return x; }

// greedy._make_key equality: sets and pairs by their tile multiset, runs and discards by their
// exact tiles, adds and retrievals by (code, meld, pos), the rest by the verb.
bool same_key(const Act& a, const Act& b) {
  if (a.verb != b.verb) return false;
  switch (a.verb) {
    case R101_SET:
    case R101_PAIR: {
      if (a.n != b.n) return false;
      int x[3], y[3];
      std::copy(a.t, a.t + a.n, x);
      std::copy(b.t, b.t + b.n, y);
      sort_small(x, a.n);
      sort_small(y, b.n);
      return std::equal(x, x + a.n, y);
    }
    case R101_RUN:
    case R101_DISCARD:
      return a.n == b.n && std::equal(a.t, a.t + a.n, b.t);
    case R101_ADD:
    case R101_RETRIEVE:
      return a.t[0] == b.t[0] && a.meld == b.meld && a.pos == b.pos;
    default:
      return true;
  }
}

int find_key(const std::vector<Act>& legal, const Act& key) {
  for (size_t i = 0; i < legal.size(); ++i)
    if (same_key(legal[i], key)) return int(i);
  return -1;
}

int find_verb(const std::vector<Act>& legal, int verb) {
  for (size_t i = 0; i < legal.size(); ++i)
    if (legal[i].verb == verb) return int(i);
  return -1;
}

// ---- solver answers, remembered for the round (strategy.Kit) ----------------------------------

struct MemoKey {
  std::array<unsigned char, 58> b{};
  bool operator==(const MemoKey& o) const { return b == o.b; }
};
struct MemoHash {
  size_t operator()(const MemoKey& k) const {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : k.b) { h ^= c; h *= 1099511628211ULL; }
    return size_t(h);
  }
};

struct Plan {
  bool melds = false;  // "melds" or "pairs"
  // (kind, tiles in table order); kind KIND_RUN / KIND_SET / KIND_PAIR
  std::vector<std::pair<int, std::vector<int>>> list;
};

struct Bot {
  int turn = -1;  // GreedyBot._turn (the round is fixed here)
  std::deque<Act> queue;
  bool no_take = false;
  bool no_plan = false;
};

struct Snap {
  bool take_phase = false;
  Counts rack{};
  int size = 0;
  std::vector<Meld> table;
  int took = 0, taken = -1, taken_base = 0, last = -1;
  std::vector<int> pile;
  int thr_melds = 0, thr_pairs = 0;
  size_t logged = 0;
};

class Round {
 public:
  Round(const CoreRules& open_cr, const CoreRules& pen_cr, const R101Position& s)
      : ocr_(open_cr), pcr_(pen_cr), n_(s.players), increasing_(s.increasing), turn_(s.turn),
        cur_(s.current), take_phase_(s.take_phase), racks_(s.racks), stock_(s.stock),
        opened_(s.opened), opened_turn_(s.opened_turn), thr_melds_(s.thr_melds),
        thr_pairs_(s.thr_pairs), last_(s.last_discard), discards_(s.discards),
        button_left_(s.button_left), button_used_(s.button_used), button_issued_(s.button_issued),
        log_(s.taken_log), took_(s.take_phase ? R101_TOOK_NONE : R101_TOOK_START), bots_(size_t(s.players)) {
    if (n_ < 2 || n_ > 4) throw std::invalid_argument("players must be 2..4");
    auto seats = [&](size_t k, const char* what) {
      if (k != size_t(n_)) throw std::invalid_argument(std::string(what) + " needs one entry per seat");
    };
    seats(racks_.size(), "racks");
    seats(opened_.size(), "opened");
    seats(opened_turn_.size(), "opened_turn");
    seats(discards_.size(), "discards");
    seats(button_left_.size(), "button_left");
    seats(button_used_.size(), "button_used");
    if (cur_ < 0 || cur_ >= n_) throw std::invalid_argument("current seat out of range");
    for (int o : opened_)
      if (o < 0 || o > 2) throw std::invalid_argument("opened must be 0, 1 or 2");
    for (auto& r : racks_) {
      int size = 0;
      for (int c = 0; c < NUM_CODES; ++c) {
        if (r[c] < 0 || r[c] > 8) throw std::invalid_argument("rack count out of range");
        size += r[c];
      }
      sizes_.push_back(size);
    }
    for (int c : stock_)
      if (c < 0 || c >= NUM_CODES) throw std::invalid_argument("stock code out of range");
    for (auto& d : discards_)
      for (int c : d)
        if (c < 0 || c >= NUM_CODES) throw std::invalid_argument("discard code out of range");
    if (last_ < -1 || last_ >= NUM_CODES) throw std::invalid_argument("last discard out of range");
    for (const auto& m : s.table) {
      if (m.tiles.size() > 13) bad_meld("too long");
      table_.push_back(build(m.kind, m.owner, m.tiles.data(), int(m.tiles.size())));
    }
    if (!take_phase_ && sizes_[size_t(cur_)] < 1) throw std::invalid_argument("empty rack");
    turn_table_start_ = int(table_.size());
    derived_.resize(size_t(n_));
    face_ = !ocr_.high_ace && ocr_.joker_value < 0 && ocr_.joker_ratio == 0;
    for (int i = 1; i <= 13; ++i)
      if (ocr_.run_value[size_t(i)] != i || ocr_.set_value[size_t(i)] != i) face_ = false;
  }

  R101RoundResult play(long long max_steps) {
    long long steps = 0;
    int last_seat = -1;
    while (!over_) {
      if (++steps > max_steps) throw std::runtime_error("the native greedy round did not end");
      int p = cur_;
      if (p != last_seat) {
        out_.turn_seats.push_back(p);
        last_seat = p;
      }
      Act a = take_phase_ ? decide_take(p) : decide_play(p);
      out_.actions.push_back(r101_encode(a.verb, a.n, a.t, a.meld, a.pos));
      apply(p, a);
    }
    fill_end();
    return std::move(out_);
  }

 private:
  const CoreRules& ocr_;
  const CoreRules& pcr_;
  int n_;
  bool increasing_;
  int turn_, cur_;
  bool take_phase_;
  std::vector<Counts> racks_;
  std::vector<int> sizes_;
  std::vector<int> stock_;
  std::vector<Meld> table_;
  std::vector<int> opened_, opened_turn_;
  int thr_melds_, thr_pairs_;
  int last_;
  std::vector<std::vector<int>> discards_;
  std::vector<int> button_left_, button_used_;
  int button_issued_;
  std::vector<std::array<int, 4>> log_;
  int took_;
  int taken_ = -1, taken_base_ = 0, staged_from_ = -1, staged_kind_ = NOT_OPENED;
  int turn_table_start_ = 0;
  bool snap_on_ = false;
  Snap snap_;
  std::vector<Bot> bots_;
  bool over_ = false;
  R101RoundResult out_;
  struct Solved {
    SolveResult r;
    bool melds;  // r.melds rebuilt (false: r.value only, solve_value)
  };
  std::unordered_map<MemoKey, Solved, MemoHash> solve_memo_;
  std::unordered_map<MemoKey, PairsResult, MemoHash> pairs_memo_;
  std::vector<Act> legal_;
  struct Derived {
    bool valid = false;
    Counts rack{};
    int value = 0;
    int code = -1;
  };
  std::vector<Derived> derived_;   // per seat: open_value_now known for this rack
  Derived pending_;                // set by choose_discard, kept by the discard it chose
  bool face_ = false;
  bool feed_ok_ = false;     // feed_ holds feeding() of the table as it is
  std::uint64_t feed_ = 0;  // engine._face_values: the opening valuation is face value (melds_bound)

  // ---- Kit ---------------------------------------------------------------------------------
  static MemoKey key_of(int tag, const Counts& c, bool keep, int must, bool req) {
    MemoKey k;
    for (int i = 0; i < NUM_CODES; ++i) k.b[size_t(i)] = (unsigned char)c[size_t(i)];
    k.b[53] = (unsigned char)tag;
    k.b[54] = keep;
    k.b[55] = (unsigned char)(must + 1);
    k.b[56] = req;
    return k;
  }

  const SolveResult& solve(bool penalty, const Counts& c, bool keep, int must, bool req) {
    MemoKey k = key_of(penalty ? 1 : 0, c, keep, must, req);
    auto it = solve_memo_.find(k);
    if (it != solve_memo_.end() && it->second.melds) return it->second.r;
    SolveResult r = solve_melds(penalty ? pcr_ : ocr_, c, keep, must, req);
    if (it != solve_memo_.end()) {
      it->second = Solved{std::move(r), true};
      return it->second.r;
    }
    return solve_memo_.emplace(k, Solved{std::move(r), true}).first->second.r;
  }

  // solve(...).value for the questions that need no arrangement: the same value search without
  // the rebuild (solve_melds_value). Its nodes are those of solve_melds before the rebuild, and
  // the default budget is far above the densest legal rack (DESIGN.md, "Work budget"), so no
  // answer of the round changes.
  int solve_value(bool penalty, const Counts& c, bool keep, int must, bool req) {
    MemoKey k = key_of(penalty ? 1 : 0, c, keep, must, req);
    auto it = solve_memo_.find(k);
    if (it != solve_memo_.end()) return it->second.r.value;
    SolveResult r;
    int v = solve_melds_value(penalty ? pcr_ : ocr_, c, keep, must, req);
    r.value = v;
    solve_memo_.emplace(k, Solved{std::move(r), false});
    return v;
  }

  const PairsResult& pairs(const Counts& c, bool keep, int must) {
    MemoKey k = key_of(2, c, keep, must, false);
    auto it = pairs_memo_.find(k);
    if (it != pairs_memo_.end()) return it->second;
    PairsResult r = max_pairs(c, keep, must);
    return pairs_memo_.emplace(k, std::move(r)).first->second;
  }

  // max_pairs(c, keep, must).n_pairs >= need, without the search when it cannot be: a pair is
  // two copies of a code or a tile with a joker (R101-5), so at most sum(count / 2) + jokers
  // (engine._pairs_bound).
  bool pairs_reach(const Counts& c, int must, int need) {
    int bound = c[J];
    for (int code = 0; code < J; ++code) bound += c[size_t(code)] / 2;
    if (bound < need) return false;
    return pairs(c, true, must).n_pairs >= need;
  }

  static int total(const Counts& c) {
    int s = 0;
    for (int v : c) s += v;
    return s;
  }

  // ---- engine: permissions and the legal list (engine.legal_actions) -----------------------

  bool may_lay_pairs(int p) const {
    int o = opened_[size_t(p)];
    if (o == NOT_OPENED || o == OPEN_PAIRS) return true;
    for (int q = 0; q < n_; ++q)
      if (q != p && opened_[size_t(q)] == OPEN_PAIRS) return true;
    return false;
  }

  static void masks(const Counts& rack, unsigned m[4], unsigned d[4]) {
    for (int c = 0; c < 4; ++c) {
      unsigned mm = 0, dd = 0;
      for (int i = 0; i < 13; ++i) {
        int k = rack[size_t(c * 13 + i)];
        if (k) mm |= 1u << i;
        if (k >= 2) dd |= 1u << i;
      }
      m[c] = mm;
      d[c] = dd;
    }
  }

  // engine._min_melds / _scan_melds, in the same order
  static void min_melds(const Counts& rack, int size, bool runs, bool prs, std::vector<Act>& out) {
    int jk = rack[J];
    int jl = std::min(jk, 2);
    unsigned m[4], d[4];
    masks(rack, m, d);
    if (runs && size >= 4) {
      for (int c = 0; c < 4; ++c) {
        unsigned mm = m[c];
        if (!mm) continue;
        unsigned w;
        if (jl == 0) w = mm & (mm >> 1) & (mm >> 2);
        else if (jl == 1) w = (mm & (mm >> 1)) | (mm & (mm >> 2)) | ((mm >> 1) & (mm >> 2));
        else w = mm | (mm >> 1) | (mm >> 2);
        w &= 0x7FF;
        while (w) {
          int i = lowbit_index(w);
          w &= w - 1;
          unsigned pat = (mm >> i) & 7;
          int base = c * 13 + i;
          for (unsigned mask = 7; mask >= 1; --mask) {
            if ((mask & pat) != mask || 3 - popcount(mask) > jl) continue;
            out.push_back(tiles3(R101_RUN, mask & 1 ? base : J, mask & 2 ? base + 1 : J,
                                 mask & 4 ? base + 2 : J));
          }
        }
      }
      unsigned cand;
      if (jl == 0) cand = (m[0] & m[1] & m[2]) | (m[0] & m[1] & m[3]) | (m[0] & m[2] & m[3]) | (m[1] & m[2] & m[3]);
      else if (jl == 1) cand = (m[0] & (m[1] | m[2] | m[3])) | (m[1] & (m[2] | m[3])) | (m[2] & m[3]);
      else cand = m[0] | m[1] | m[2] | m[3];
      while (cand) {
        int num = lowbit_index(cand);
        cand &= cand - 1;
        unsigned cm = 0;
        for (int c = 0; c < 4; ++c)
          if (m[c] >> num & 1) cm |= 1u << c;
        for (unsigned mask = 15; mask >= 1; --mask) {
          int k = popcount(mask);
          if (k > 3 || (mask & cm) != mask || 3 - k > jl) continue;
          Act a;
          a.verb = R101_SET;
          a.n = 3;
          int left = 3 - k, pos = 0;
          for (int c = 0; c < 4; ++c) {
            if (mask >> c & 1) a.t[pos++] = c * 13 + num;
            else if (left) { a.t[pos++] = J; --left; }
          }
          out.push_back(a);
        }
      }
    }
    if (prs && size >= 3) {
      for (int c = 0; c < 4; ++c) {
        unsigned x = jk ? m[c] : d[c];
        while (x) {
          int i = lowbit_index(x);
          x &= x - 1;
          int code = c * 13 + i;
          if (d[c] >> i & 1) out.push_back(tiles2(R101_PAIR, code, code));
          if (jk) out.push_back(tiles2(R101_PAIR, code, J));
        }
      }
    }
  }

  bool staged_reaches() const {
    if (staged_kind_ == OPEN_PAIRS) return int(table_.size()) - staged_from_ >= thr_pairs_;
    int sum = 0;
    for (size_t i = size_t(staged_from_); i < table_.size(); ++i) sum += table_[i].value;
    return sum >= thr_melds_;
  }

  // engine.legal_actions, play phase
  void legal_play(int p, std::vector<Act>& out) {
    out.clear();
    const Counts& rack = racks_[size_t(p)];
    int size = sizes_[size_t(p)];
    int opened = opened_[size_t(p)];
    bool taken_ok = taken_ < 0 || rack[size_t(taken_)] <= taken_base_;
    if (opened == NOT_OPENED) {
      int sk = staged_kind_;
      min_melds(rack, size, sk != OPEN_PAIRS, sk != OPEN_MELDS, out);
      if (staged_from_ >= 0) {
        if (size >= 2)
          for (size_t i = size_t(staged_from_); i < table_.size(); ++i) {
            const Meld& m = table_[i];
            for (int k = 0; k < m.nadds; ++k)
              if (rack[size_t(m.add_code[k])]) out.push_back(one(R101_ADD, m.add_code[k], int(i), m.add_pos[k]));
          }
        if (taken_ok && staged_reaches()) out.push_back(bare(R101_OPEN));
      }
    } else {
      min_melds(rack, size, opened == OPEN_MELDS, may_lay_pairs(p), out);
      if (size >= 2)
        for (size_t i = 0; i < table_.size(); ++i) {
          const Meld& m = table_[i];
          for (int k = 0; k < m.nadds; ++k)
            if (rack[size_t(m.add_code[k])]) out.push_back(one(R101_ADD, m.add_code[k], int(i), m.add_pos[k]));
        }
      for (size_t i = 0; i < table_.size(); ++i) {
        const Meld& m = table_[i];
        if (!m.jokers) continue;
        for (int k = 0; k < m.nrel; ++k)
          if (rack[size_t(m.rel_code[k])]) out.push_back(one(R101_RETRIEVE, m.rel_code[k], int(i), m.rel_idx[k]));
      }
    }
    if (snap_on_) out.push_back(bare(R101_RESET));
    if (taken_ok && staged_from_ < 0)
      for (int c = 0; c < NUM_CODES; ++c)
        if (rack[size_t(c)]) out.push_back(one(R101_DISCARD, c, -1, -1));
  }

  // ---- engine: may the discard be taken (R101-4, engine._take_usable) ----------------------

  bool take_usable(int p, int t) {
    if (opened_[size_t(p)] != NOT_OPENED) return opened_can_use(p, t);
    return unopened_could_fit(p, t) && opening_possible_with(p, t);
  }

  // engine._opening_possible_with (its cheap bounds only skip the solvers, as melds_bound here)
  bool opening_possible_with(int p, int t) {
    Counts c = racks_[size_t(p)];
    c[size_t(t)] += 1;
    if (pairs_reach(c, t, thr_pairs_)) return true;
    if (face_ && melds_bound(c) < thr_melds_) return false;
    return solve_value(false, c, true, t, false) >= thr_melds_;
  }

  static bool joker_completes(const Counts& rack) {
    for (int c = 0; c < 52; ++c) {
      if (!rack[size_t(c)]) continue;
      int col = c / 13, n0 = c % 13;
      for (int dd = 1; dd <= 2; ++dd)
        if (n0 + dd < 13 && rack[size_t(c + dd)]) return true;
      for (int k = 0; k < 4; ++k)
        if (k != col && rack[size_t(k * 13 + n0)]) return true;
    }
    return false;
  }

  static bool any_real(const Counts& rack) {
    for (int c = 0; c < 52; ++c)
      if (rack[size_t(c)]) return true;
    return false;
  }

  static bool fits_new_meld(const Counts& rack, int t, int jk) {
    if (t == J) {
      if (!any_real(rack)) return false;
      if (jk >= 1) return true;
      return joker_completes(rack);
    }
    int col = t / 13, n0 = t % 13, base = col * 13;
    for (int first = std::max(0, n0 - 2); first <= std::min(n0, 10); ++first) {
      int need = 0;
      for (int x = first; x < first + 3; ++x)
        if (x != n0 && !rack[size_t(base + x)]) ++need;
      if (need <= jk) return true;
    }
    int others = 0;
    for (int k = 0; k < 4; ++k)
      if (k != col && rack[size_t(k * 13 + n0)]) ++others;
    return others + jk >= 2;
  }

  bool unopened_could_fit(int p, int t) const {
    const Counts& rack = racks_[size_t(p)];
    int size = sizes_[size_t(p)] + 1;
    int jk = rack[J];
    if (size >= 3) {
      if (t == J) {
        if (size - 1 - rack[J] > 0) return true;
      } else if (rack[size_t(t)] || jk) {
        return true;
      }
    }
    if (size >= 4) return fits_new_meld(rack, t, jk);
    return false;
  }

  // engine._retrievable / _best_retrievals
  bool retrievable(const Counts& cnt, int need) const {
    if (need <= 0) return true;
    int singles[NUM_CODES] = {};
    std::vector<std::pair<int, std::vector<int>>> sets;
    int bound = 0;
    for (const Meld& m : table_) {
      if (!m.jokers) continue;
      if (m.kind == KIND_SET) {
        std::vector<int> keys;
        for (int k = 0; k < m.nrel; ++k)
          if (cnt[size_t(m.rel_code[k])]) keys.push_back(m.rel_code[k]);
        if (!keys.empty()) {
          int kk = std::min(m.jokers, int(keys.size()));
          sets.emplace_back(kk, std::move(keys));
          bound += kk;
        }
      } else {
        for (int k = 0; k < m.nrel; ++k)
          if (cnt[size_t(m.rel_code[k])]) {
            singles[m.rel_code[k]] += 1;
            bound += 1;
          }
      }
    }
    if (bound < need) return false;
    Counts c = cnt;
    return best_retrievals(sets, 0, singles, c) >= need;
  }

  static int best_retrievals(const std::vector<std::pair<int, std::vector<int>>>& sets, size_t i,
                             const int* singles, Counts& cnt) {
    if (i == sets.size()) {
      int s = 0;
      for (int c = 0; c < NUM_CODES; ++c)
        if (singles[c]) s += std::min(singles[c], cnt[size_t(c)]);
      return s;
    }
    int k = sets[i].first;
    const std::vector<int>& keys = sets[i].second;
    int nk = int(keys.size());
    int best = 0;
    for (unsigned sub = 0; sub < (1u << nk); ++sub) {
      int r = popcount(sub);
      if (r > k) continue;
      bool ok = true;
      for (int b = 0; b < nk; ++b)
        if (sub >> b & 1 && !cnt[size_t(keys[size_t(b)])]) ok = false;
      if (!ok) continue;
      for (int b = 0; b < nk; ++b)
        if (sub >> b & 1) cnt[size_t(keys[size_t(b)])] -= 1;
      int got = r + best_retrievals(sets, i + 1, singles, cnt);
      for (int b = 0; b < nk; ++b)
        if (sub >> b & 1) cnt[size_t(keys[size_t(b)])] += 1;
      best = std::max(best, got);
    }
    return best;
  }

  bool need_jokers(const Counts& rack, const int* used, int nused, int need) const {
    if (need <= 0) return true;
    Counts cnt = rack;
    for (int i = 0; i < nused; ++i) cnt[size_t(used[i])] -= 1;
    return retrievable(cnt, need);
  }

  // engine._opened_can_use
  bool opened_can_use(int p, int t) const {
    const Counts& rack = racks_[size_t(p)];
    int size = sizes_[size_t(p)] + 1;
    for (const Meld& m : table_) {
      for (int k = 0; k < m.nadds; ++k)
        if (m.add_code[k] == t) return true;
      for (int k = 0; k < m.nrel; ++k)
        if (m.rel_code[k] == t) return true;
    }
    bool runs = opened_[size_t(p)] == OPEN_MELDS;
    bool prs = may_lay_pairs(p);
    int jk = rack[J];
    if (t == J) {
      if (!any_real(rack)) return false;
      if (prs && size >= 3) return true;
      if (!runs || size < 4) return false;
      if (jk >= 1) return true;
      if (joker_completes(rack)) return true;
      Counts cnt = rack;
      for (int x = 0; x < 52; ++x) {
        if (!rack[size_t(x)]) continue;
        cnt[size_t(x)] -= 1;
        bool ok = retrievable(cnt, 1);
        cnt[size_t(x)] += 1;
        if (ok) return true;
      }
      return false;
    }
    if (prs && size >= 3 && (rack[size_t(t)] || jk || retrievable(rack, 1))) return true;
    int col = t / 13, n0 = t % 13, base = col * 13;
    if (runs && size >= 4) {
      int others[3], no = 0;
      for (int k = 0; k < 4; ++k)
        if (k != col && rack[size_t(k * 13 + n0)]) others[no++] = k * 13 + n0;
      if (no + jk >= 2 || need_jokers(rack, others, no, 2 - no - jk)) return true;
      for (int first = std::max(0, n0 - 2); first <= std::min(n0, 10); ++first) {
        int have[3], nh = 0;
        for (int x = first; x < first + 3; ++x)
          if (x != n0 && rack[size_t(base + x)]) have[nh++] = base + x;
        if (need_jokers(rack, have, nh, 2 - nh - jk)) return true;
      }
    }
    for (const Meld& m : table_) {
      if (m.kind != KIND_RUN || m.colour != col) continue;
      int lo = m.first - 1;
      int hi = lo + m.n - 1;
      int g0, g1;  // gap numbers g0 .. g1 - 1
      if (n0 > hi + 1) { g0 = hi + 1; g1 = n0; }
      else if (n0 < lo - 1) { g0 = n0 + 1; g1 = lo; }
      else continue;
      int glen = g1 - g0;
      if (size - glen - 1 < 1) continue;
      int have[13], nh = 0;
      for (int x = g0; x < g1; ++x)
        if (rack[size_t(base + x)]) have[nh++] = base + x;
      if (need_jokers(rack, have, nh, glen - nh - jk)) return true;
    }
    return false;
  }

  // ---- engine: apply -------------------------------------------------------------------------

  void snapshot() {
    if (snap_on_) return;
    int p = cur_;
    int prev = (p - 1 + n_) % n_;
    snap_on_ = true;
    snap_.take_phase = take_phase_;
    snap_.rack = racks_[size_t(p)];
    snap_.size = sizes_[size_t(p)];
    snap_.table = table_;
    snap_.took = took_;
    snap_.taken = taken_;
    snap_.taken_base = taken_base_;
    snap_.last = last_;
    snap_.pile = discards_[size_t(prev)];
    snap_.thr_melds = thr_melds_;
    snap_.thr_pairs = thr_pairs_;
    snap_.logged = log_.size();
  }

  void start_turn(bool take_phase, int took) {
    take_phase_ = take_phase;
    took_ = took;
    taken_ = -1;
    taken_base_ = 0;
    staged_from_ = -1;
    staged_kind_ = NOT_OPENED;
    turn_table_start_ = int(table_.size());
    snap_on_ = false;
  }

  void apply(int p, const Act& a) {
    Counts& rack = racks_[size_t(p)];
    switch (a.verb) {
      case R101_DRAW: {
        if (stock_.empty()) throw std::runtime_error("draw from an empty stock");
        int t = stock_.back();
        stock_.pop_back();
        rack[size_t(t)] += 1;
        sizes_[size_t(p)] += 1;
        took_ = R101_TOOK_DRAW;
        take_phase_ = false;
        return;
      }
      case R101_TAKE: {  // engine.do_take
        int t = last_;
        snapshot();
        int prev = (p - 1 + n_) % n_;
        discards_[size_t(prev)].pop_back();
        last_ = -1;
        taken_ = t;
        taken_base_ = rack[size_t(t)];
        log_.push_back({p, prev, t, turn_});
        rack[size_t(t)] += 1;
        sizes_[size_t(p)] += 1;
        took_ = R101_TOOK_TAKE;
        take_phase_ = false;
        return;
      }
      case R101_BUTTON:
        button_left_[size_t(p)] -= 1;
        button_used_[size_t(p)] = 1;
        button_issued_ += 1;
        rack[J] += 1;
        sizes_[size_t(p)] += 1;
        took_ = R101_TOOK_BUTTON;
        take_phase_ = false;
        return;
      case R101_RUN:
      case R101_SET:
      case R101_PAIR: {  // engine._lay
        int kind = a.verb == R101_RUN ? KIND_RUN : a.verb == R101_SET ? KIND_SET : KIND_PAIR;
        Meld m = build(kind, p, a.t, a.n);
        snapshot();
        for (int i = 0; i < a.n; ++i) rack[size_t(a.t[i])] -= 1;
        sizes_[size_t(p)] -= a.n;
        table_.push_back(m);
        feed_ok_ = false;
        if (opened_[size_t(p)] == NOT_OPENED) {
          if (staged_from_ < 0) staged_from_ = int(table_.size()) - 1;
          staged_kind_ = kind == KIND_PAIR ? OPEN_PAIRS : OPEN_MELDS;
        }
        return;
      }
      case R101_ADD: {
        snapshot();
        rack[size_t(a.t[0])] -= 1;
        sizes_[size_t(p)] -= 1;
        table_[size_t(a.meld)] = with_added(table_[size_t(a.meld)], a.t[0], a.pos);
        feed_ok_ = false;
        return;
      }
      case R101_RETRIEVE: {
        snapshot();
        rack[size_t(a.t[0])] -= 1;
        rack[J] += 1;
        if (taken_ == J) taken_base_ += 1;  // engine._retrieve: a retrieved joker may stay (R101-9)
        table_[size_t(a.meld)] = with_released(table_[size_t(a.meld)], a.t[0], a.pos);
        feed_ok_ = false;
        return;
      }
      case R101_OPEN: {  // engine._open
        int count = int(table_.size()) - staged_from_;
        int sum = 0;
        for (size_t i = size_t(staged_from_); i < table_.size(); ++i) sum += table_[i].value;
        if (increasing_) {
          if (staged_kind_ == OPEN_PAIRS) thr_pairs_ = std::max(thr_pairs_, count + 1);
          else thr_melds_ = std::max(thr_melds_, sum + 1);
        }
        opened_[size_t(p)] = staged_kind_;
        opened_turn_[size_t(p)] = turn_;
        staged_from_ = -1;
        staged_kind_ = NOT_OPENED;
        return;
      }
      case R101_RESET: {  // engine._reset
        rack = snap_.rack;
        sizes_[size_t(p)] = snap_.size;
        table_ = snap_.table;
        feed_ok_ = false;
        took_ = snap_.took;
        taken_ = snap_.taken;
        taken_base_ = snap_.taken_base;
        last_ = snap_.last;
        discards_[size_t((p - 1 + n_) % n_)] = snap_.pile;
        take_phase_ = snap_.take_phase;
        thr_melds_ = snap_.thr_melds;
        thr_pairs_ = snap_.thr_pairs;
        log_.resize(snap_.logged);
        if (opened_turn_[size_t(p)] == turn_) {
          opened_[size_t(p)] = NOT_OPENED;
          opened_turn_[size_t(p)] = -1;
        }
        staged_from_ = -1;
        staged_kind_ = NOT_OPENED;
        snap_on_ = false;
        return;
      }
      case R101_DISCARD: {  // engine._discard
        int code = a.t[0];
        derived_[size_t(p)] = pending_.valid && pending_.code == code ? pending_ : Derived();
        pending_.valid = false;
        rack[size_t(code)] -= 1;
        sizes_[size_t(p)] -= 1;
        discards_[size_t(p)].push_back(code);
        last_ = code;
        if (sizes_[size_t(p)] == 0) {
          over_ = true;
          out_.winner = p;
          out_.joker_finish = code == J;
        } else if (stock_.empty()) {
          over_ = true;
          out_.winner = -1;
        } else {
          cur_ = (p + 1) % n_;
          turn_ += 1;
          start_turn(true, R101_TOOK_NONE);
        }
        return;
      }
      default:
        throw std::runtime_error("unknown action verb");
    }
  }

  void fill_end() {
    R101Position& e = out_.end;
    e.players = n_;
    e.increasing = increasing_;
    e.turn = turn_;
    e.current = cur_;
    e.take_phase = take_phase_;
    e.racks = racks_;
    e.stock = stock_;
    for (const Meld& m : table_) e.table.push_back({m.kind, m.owner, std::vector<int>(m.tiles, m.tiles + m.n)});
    e.opened = opened_;
    e.opened_turn = opened_turn_;
    e.thr_melds = thr_melds_;
    e.thr_pairs = thr_pairs_;
    e.last_discard = last_;
    e.discards = discards_;
    e.button_left = button_left_;
    e.button_used = button_used_;
    e.button_issued = button_issued_;
    e.taken_log = log_;
    e.took = took_;
    e.taken = taken_;
    e.taken_base = taken_base_;
    e.turn_table_start = turn_table_start_;
  }

  // ---- greedy: strategy.py ---------------------------------------------------------------------

  // Can the rack lay any run or set keeping a tile (R101-5, R101-12)? Every run or set holds a
  // 3-tile one (a window of a run, three tiles of a set) with at most min(jokers, 2) jokers and
  // a numbered tile, so this is the scan of min_melds. When it says no, solve_melds can only
  // return the empty selection (value 0 or, when nothing may be kept, -1): the callers below
  // that read only "some meld or none" skip the search.
  static bool any_meld(const Counts& c) {
    if (total(c) < 4) return false;
    int jl = std::min(c[J], 2);
    unsigned m[4], d[4];
    masks(c, m, d);
    for (int k = 0; k < 4; ++k) {
      unsigned mm = m[k], w;
      if (jl == 0) w = mm & (mm >> 1) & (mm >> 2);
      else if (jl == 1) w = (mm & (mm >> 1)) | (mm & (mm >> 2)) | ((mm >> 1) & (mm >> 2));
      else w = mm | (mm >> 1) | (mm >> 2);
      if (w & 0x7FF) return true;
    }
    unsigned sets;
    if (jl == 0) sets = (m[0] & m[1] & m[2]) | (m[0] & m[1] & m[3]) | (m[0] & m[2] & m[3]) | (m[1] & m[2] & m[3]);
    else if (jl == 1) sets = (m[0] & (m[1] | m[2] | m[3])) | (m[1] & (m[2] | m[3])) | (m[2] & m[3]);
    else sets = m[0] | m[1] | m[2] | m[3];
    return sets != 0;
  }

  // An upper bound of the opening value of any runs/sets from ``c`` (R101-6, R101-7), valid
  // when the opening valuation is face value with jokers worth what they stand for (face_):
  // a numbered tile in a run lies in a 3-tile window of it holding at most min(jokers, 2)
  // jokers, whose real tiles are on the rack; in a set, with at least 3 - min(jokers, 2) of
  // its colours on the rack; every copy of such a code counted at its number, each joker 13.
  // When it is below the threshold the solver cannot reach it: the same answer, no search.
  int melds_bound(const Counts& c) const {
    int jl = std::min(c[J], 2);
    unsigned m[4], d[4];
    masks(c, m, d);
    unsigned ok[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      unsigned mm = m[k], w;
      if (jl == 0) w = mm & (mm >> 1) & (mm >> 2);
      else if (jl == 1) w = (mm & (mm >> 1)) | (mm & (mm >> 2)) | ((mm >> 1) & (mm >> 2));
      else w = mm | (mm >> 1) | (mm >> 2);
      w &= 0x7FF;
      ok[k] = (w | (w << 1) | (w << 2)) & mm;  // present numbers inside such a window
    }
    unsigned sets;
    if (jl == 0) sets = (m[0] & m[1] & m[2]) | (m[0] & m[1] & m[3]) | (m[0] & m[2] & m[3]) | (m[1] & m[2] & m[3]);
    else if (jl == 1) sets = (m[0] & (m[1] | m[2] | m[3])) | (m[1] & (m[2] | m[3])) | (m[2] & m[3]);
    else sets = m[0] | m[1] | m[2] | m[3];
    int total = 13 * c[J];
    for (int k = 0; k < 4; ++k) {
      unsigned x = (ok[k] | sets) & m[k];
      while (x) {
        int i = lowbit_index(x);
        x &= x - 1;
        total += c[size_t(k * 13 + i)] * (i + 1);
      }
    }
    return std::min(total, engine_bound(c[J], m, d));
  }

  static int value13(unsigned mask) {
    int v = 0;
    while (mask) {
      v += lowbit_index(mask) + 1;
      mask &= mask - 1;
    }
    return v;
  }

  static int bit_length(unsigned x) { return x ? 32 - __builtin_clz(x) : 0; }

  // The first bound of engine._melds_bound: joker-free meldable tiles (every copy) at face value,
  // plus per joker 13 and one of the largest groups of loose tiles it could join (a colour's,
  // or a number's; with one joker also twice the highest loose number).
  static int engine_bound(int jk, const unsigned m[4], const unsigned d[4]) {
    unsigned sets = (m[0] & m[1] & m[2]) | (m[0] & m[1] & m[3]) | (m[0] & m[2] & m[3]) | (m[1] & m[2] & m[3]);
    int total = 0;
    unsigned loose[4] = {0, 0, 0, 0}, loose2[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      unsigned mm = m[k];
      if (!mm) continue;
      unsigned in_run = mm & (((mm << 1) & (mm << 2)) | ((mm << 1) & (mm >> 1)) | ((mm >> 1) & (mm >> 2)));
      unsigned meldable = in_run | (mm & sets);
      total += value13(meldable) + value13(meldable & d[k]);
      loose[k] = mm & ~meldable;
      loose2[k] = d[k] & ~meldable;
    }
    if (!jk) return total;
    std::vector<int> gains;
    for (int k = 0; k < 4; ++k)
      if (m[k]) gains.push_back(value13(loose[k]) + value13(loose2[k]));
    unsigned left = loose[0] | loose[1] | loose[2] | loose[3];
    if (jk == 1) {
      int g = 0;
      if (left) {
        g = 2 * bit_length(left);
        for (int x : gains) g = std::max(g, x);
      }
      return total + 13 + g;
    }
    while (left) {
      int n = lowbit_index(left);
      left &= left - 1;
      int k = 0;
      for (int c = 0; c < 4; ++c) k += int(loose[c] >> n & 1) + int(loose2[c] >> n & 1);
      gains.push_back((n + 1) * k);
    }
    std::sort(gains.begin(), gains.end(), std::greater<int>());
    int first = total + 13 * jk;
    for (int i = 0; i < jk && i < int(gains.size()); ++i) first += gains[size_t(i)];
    return first;
  }

  // strategy.opening_plan (keep_discard on, no run required: rummy101)
  bool opening_plan(const Counts& c, int threshold, int pairs_threshold, int must, Plan* plan) {
    bool skip = face_ && threshold > 0 && melds_bound(c) < threshold;
    static const SolveResult none;
    const SolveResult& r = skip ? none : solve(false, c, true, must, false);
    if (r.value >= threshold && r.value > 0 && !r.melds.empty()) {
      if (plan) {
        plan->melds = true;
        plan->list.clear();
        for (const auto& m : r.melds) plan->list.emplace_back(m.kind, m.tiles);
      }
      return true;
    }
    if (pairs_threshold > 0 && pairs_reach(c, must, pairs_threshold)) {
      if (plan) {
        plan->melds = false;
        plan->list.clear();
        for (auto [a, b] : pairs(c, true, must).pairs) plan->list.emplace_back(KIND_PAIR, std::vector<int>{a, b});
      }
      return true;
    }
    return false;
  }

  // strategy.deadwood
  int deadwood(const Counts& c) {
    int tot = int(rack_value(pcr_, c));
    if (total(c) < 3 || !any_meld(c)) return tot;
    int v = solve(true, c, true, -1, false).value;  // choose_discard asks the same
    return tot - std::max(v, 0);
  }

  // strategy.lay_plan
  bool lay_plan(const Counts& c, int must, std::vector<std::pair<int, std::vector<int>>>& melds) {
    melds.clear();
    if (total(c) < 4) return false;
    if (!any_meld(c)) return false;  // value <= 0: no melds (see any_meld)
    const SolveResult& r = solve(true, c, true, must, false);
    if (r.value <= 0) return false;
    for (const auto& m : r.melds) melds.emplace_back(m.kind, m.tiles);
    return !melds.empty();
  }

  // strategy._set_additions / Kit.additions / feeding_tiles over the table: a 53-bit set
  std::uint64_t feeding() {
    if (feed_ok_) return feed_;
    std::uint64_t out = 0;
    for (const Meld& m : table_) {
      if (m.kind == KIND_PAIR || m.n < 3) continue;
      if (m.kind == KIND_SET) {
        if (m.n != 3) continue;
        int reals[3], nr = 0;
        for (int i = 0; i < 3; ++i)
          if (m.tiles[i] != J) reals[nr++] = m.tiles[i];
        int number = reals[0] % 13;
        bool has[4] = {false, false, false, false};
        for (int i = 0; i < nr; ++i) has[reals[i] / 13] = true;
        int skip = 3 - nr;  // jokers stand for the first missing colours
        for (int k = 0; k < 4; ++k) {
          if (has[k]) continue;
          if (skip > 0) { --skip; continue; }
          out |= 1ULL << (k * 13 + number);
        }
      } else {
        std::vector<int> t(m.tiles, m.tiles + m.n);
        for (const auto& ad : meld_additions(ocr_, t)) out |= 1ULL << ad.second;
      }
    }
    feed_ok_ = true;
    return feed_ = out & ~(1ULL << J);
  }

  // strategy.connections
  static int connections(const Counts& c, int code) {
    if (code == J) return 99;
    int colour = code / 13, n0 = code % 13, n = 0;
    for (int dd : {-2, -1, 1, 2}) {
      int m = n0 + dd;
      if (m >= 0 && m < 13 && c[size_t(colour * 13 + m)]) ++n;
    }
    for (int k = 0; k < 4; ++k)
      if (k != colour && c[size_t(k * 13 + n0)]) ++n;
    return n;
  }

  // strategy.choose_discard
  int choose_discard(const Counts& c, bool opened, std::uint64_t feed, bool next_opened) {
    int held0 = -1, nreal = 0, real0 = -1;
    for (int code = 0; code < NUM_CODES; ++code)
      if (c[size_t(code)]) {
        if (held0 < 0) held0 = code;
        if (code != J) {
          if (real0 < 0) real0 = code;
          ++nreal;
        }
      }
    if (!nreal) return held0;
    if (nreal == 1) return real0;
    static const SolveResult no_melds;
    const SolveResult& r = any_meld(c) ? solve(opened, c, true, -1, false) : no_melds;
    int used[NUM_CODES] = {};
    for (const auto& m : r.melds)
      for (int t : m.tiles) used[t] += 1;
    bool any_loose = false;
    for (int code = 0; code < J; ++code)
      if (c[size_t(code)] > used[code]) any_loose = true;
    bool have_best = false;
    long best0 = 0, best1 = 0, best2 = 0;
    int choice = -1;
    for (int code = 0; code < J; ++code) {
      if (!c[size_t(code)]) continue;
      if (any_loose && c[size_t(code)] <= used[code]) continue;
      int fd = next_opened && (feed >> code & 1) ? WIN_FEED_COST : 0;
      int conn = connections(c, code);
      long k0, k1, k2;
      if (opened) {
        k0 = fd - pcr_.set_value[size_t(code % 13 + 1)] + CONNECT_COST * conn;
        k1 = -code;
        k2 = 0;
      } else {
        k0 = fd + CONNECT_COST * conn;
        k1 = code % 13;
        k2 = code;
      }
      bool less = !have_best || k0 < best0 || (k0 == best0 && (k1 < best1 || (k1 == best1 && k2 < best2)));
      if (less) {
        have_best = true;
        best0 = k0; best1 = k1; best2 = k2;
        choice = code;
      }
    }
    pending_.valid = false;
    if (!opened && choice >= 0 && c[size_t(choice)] > used[choice]) {
      int selected = 0;
      for (int code = 0; code < NUM_CODES; ++code) selected += used[code];
      if (total(c) - 1 - selected >= 1) {
        pending_.valid = true;
        pending_.rack = c;
        pending_.rack[size_t(choice)] -= 1;
        pending_.value = r.value;
        pending_.code = choice;
      }
    }
    return choice;
  }

  // greedy._meld_steps / engine.meld_actions
  static void meld_steps(int kind, const std::vector<int>& t, int index, std::deque<Act>& out) {
    if (kind == KIND_PAIR) {
      out.push_back(tiles2(R101_PAIR, t[0], t[1]));
      return;
    }
    if (kind == KIND_SET) {
      std::vector<int> reals;
      int jokers = 0;
      for (int c : t) {
        if (c == J) ++jokers;
        else reals.push_back(c);
      }
      int head = std::min<int>(3, int(reals.size()));
      std::vector<int> first(reals.begin(), reals.begin() + head);
      int jfirst = std::min(3 - head, jokers);
      for (int i = 0; i < jfirst; ++i) first.push_back(J);
      std::vector<int> rest(reals.begin() + head, reals.end());
      for (int i = 0; i < jokers - jfirst; ++i) rest.push_back(J);
      if (first.size() != 3) throw std::runtime_error("a solver set without 3 tiles to lay first");
      out.push_back(tiles3(R101_SET, first[0], first[1], first[2]));
      for (int c : rest) out.push_back(one(R101_ADD, c, index, -1));
      return;
    }
    int n = int(t.size()), start = -1;
    for (int i = 0; i + 2 < n && start < 0; ++i)
      if (t[size_t(i)] != J || t[size_t(i + 1)] != J || t[size_t(i + 2)] != J) start = i;
    if (start < 0) throw std::runtime_error("a solver run without a numbered tile");
    out.push_back(tiles3(R101_RUN, t[size_t(start)], t[size_t(start + 1)], t[size_t(start + 2)]));
    for (int i = start + 3; i < n; ++i) out.push_back(one(R101_ADD, t[size_t(i)], index, 1));
    for (int i = start - 1; i >= 0; --i) out.push_back(one(R101_ADD, t[size_t(i)], index, 0));
  }

  static void melds_steps(const std::vector<std::pair<int, std::vector<int>>>& melds, int table_len,
                          std::deque<Act>& out) {
    for (size_t i = 0; i < melds.size(); ++i) meld_steps(melds[i].first, melds[i].second, table_len + int(i), out);
  }

  // engine._taken_unused: the taken tile is still to use, from public information
  int must_use() const {
    if (taken_ < 0 || !snap_on_) return -1;
    int before = 0, now = 0;
    for (const Meld& m : snap_.table)
      for (int i = 0; i < m.n; ++i) before += m.tiles[i] == taken_;
    for (const Meld& m : table_)
      for (int i = 0; i < m.n; ++i) now += m.tiles[i] == taken_;
    // A taken joker is used once a joker went to the table this turn, whatever jokers were
    // retrieved since (R101-4 with R101-9): each retrieval took one off the table and raised
    // taken_base_ over the rack's jokers at the take (the snapshot's), so count them back.
    if (taken_ == J) now += taken_base_ - snap_.rack[J];
    return now <= before ? taken_ : -1;
  }

  void bot_enter(int p) {
    Bot& b = bots_[size_t(p)];
    if (b.turn != turn_) {
      b.turn = turn_;
      b.queue.clear();
      b.no_take = false;
      b.no_plan = false;
    }
  }

  // The opening value of the rack a seat starts its turn with (solve_melds, opening valuation,
  // keep a tile, no must-use), for _take_pays' "opens already" test. Known without a search
  // when the seat's last discard was a loose tile of a solved rack C (choose_discard): the best
  // selection of C does not use it, so it stays the best of C minus that tile as long as a tile
  // is still kept (a selection of the smaller rack is one of C's); or when melds_bound is below
  // the threshold (then the value only has to be below it too).
  int open_value_now(int p, const Counts& counts) {
    if (face_ && melds_bound(counts) < thr_melds_) return -1;
    const Derived& dv = derived_[size_t(p)];
    if (dv.valid && dv.rack == counts) return dv.value;
    return solve_value(false, counts, true, -1, false);
  }

  // An upper bound of open_value_now (its value, or melds_bound where that skipped the search).
  int open_value_upper(int p, const Counts& counts) {
    const Derived& dv = derived_[size_t(p)];
    if (dv.valid && dv.rack == counts) return dv.value;
    if (face_) {
      int b = melds_bound(counts);
      if (b < thr_melds_) return b;
    }
    return open_value_now(p, counts);
  }

  // The most a single run or set holding the numbered tile t can be worth from the rack c (t
  // included), at face value (R101-5/6): a best opening of c + t that must use t, less the meld
  // holding t, is an opening of c keeping a tile, so it is worth at most open value(c) + this.
  static int best_meld_with(const Counts& c, int t) {
    int col = t / 13, n0 = t % 13, jk = c[J], best = 0;
    int colours = 0;
    for (int k = 0; k < 4; ++k)
      if (c[size_t(k * 13 + n0)]) ++colours;
    if (colours + jk >= 3) best = (n0 + 1) * std::min(4, colours + jk);
    for (int a = 0; a <= n0; ++a) {
      int missing = 0;
      for (int x = a; x < n0; ++x)
        if (!c[size_t(col * 13 + x)]) ++missing;
      if (missing > jk) continue;
      int m = missing;
      for (int b = n0; b < 13; ++b) {
        if (b > n0 && !c[size_t(col * 13 + b)]) ++m;
        if (m > jk) break;
        if (b - a + 1 >= 3) best = std::max(best, (a + 1 + b + 1) * (b - a + 1) / 2);
      }
    }
    return best;
  }

  // An upper bound of solve(opening valuation, c + t, keep a tile, must use t).value for a
  // numbered t, valid when face_ (R101-5/6/7): a best selection holds a run or set M with t,
  // and the rest of it is a selection of c - (M - t) keeping a tile, so worth at most ov (the
  // open value of c, or a bound of it) and at most melds_bound(c - (M - t)). Every run or set
  // with t that c + t could lay is tried, each of its other tiles real or a joker, so the
  // bound holds whatever M is. -1 when no run or set holds t (the solver finds none either).
  int must_use_bound(const Counts& c, int t, int ov) const {
    int col = t / 13, n0 = t % 13, base = col * 13;
    Counts rest = c;
    int best = -1;
    // runs a..b (numbers 0-based) through n0, three tiles or more
    int pos[13];
    for (int a = n0; a >= 0; --a) {
      for (int b = std::max(n0, a + 2); b < 13; ++b) {
        int value = (a + 1 + b + 1) * (b - a + 1) / 2;
        if (value + ov <= best) continue;
        int n = 0, missing = 0;
        for (int x = a; x <= b; ++x)
          if (x != n0) {
            pos[n++] = x;
            if (!c[size_t(base + x)]) ++missing;
          }
        if (missing > c[J]) continue;
        best = std::max(best, run_choices(rest, base, pos, n, 0, value, ov));
      }
    }
    // sets of number n0 with t: each other colour absent, real or a joker; 3 or 4 tiles
    int others[3], no = 0;
    for (int k = 0; k < 4; ++k)
      if (k != col) others[no++] = k * 13 + n0;
    for (int choice = 0; choice < 27; ++choice) {
      int x = choice, size = 1, jokers = 0;
      bool ok = true;
      for (int i = 0; i < 3; ++i, x /= 3) {
        int how = x % 3;  // 0 absent, 1 real, 2 joker
        if (how == 1) {
          if (!c[size_t(others[i])]) ok = false;
          ++size;
        } else if (how == 2) {
          ++jokers;
          ++size;
        }
      }
      if (!ok || size < 3 || jokers > c[J]) continue;
      int value = (n0 + 1) * size;
      if (value + ov <= best) continue;
      x = choice;
      for (int i = 0; i < 3; ++i, x /= 3)
        if (x % 3 == 1) rest[size_t(others[i])] -= 1;
      rest[J] -= jokers;
      best = std::max(best, value + std::min(ov, melds_bound(rest)));
      x = choice;
      for (int i = 0; i < 3; ++i, x /= 3)
        if (x % 3 == 1) rest[size_t(others[i])] += 1;
      rest[J] += jokers;
    }
    return best;
  }

  // must_use_bound's runs: positions pos[i..n) of the run each a real tile (when held) or a
  // joker (when one is left), the rest of the rack in ``rest`` (restored on return).
  int run_choices(Counts& rest, int base, const int* pos, int n, int i, int value, int ov) const {
    if (i == n) return value + std::min(ov, melds_bound(rest));
    int code = base + pos[i], best = -1;
    if (rest[size_t(code)]) {
      rest[size_t(code)] -= 1;
      best = run_choices(rest, base, pos, n, i + 1, value, ov);
      rest[size_t(code)] += 1;
    }
    if (rest[J]) {
      rest[J] -= 1;
      best = std::max(best, run_choices(rest, base, pos, n, i + 1, value, ov));
      rest[J] += 1;
    }
    return best;
  }

  // GreedyBot._take_pays
  bool take_pays(int p, int t) {
    const Counts& counts = racks_[size_t(p)];
    int opened = opened_[size_t(p)];
    if (opened == NOT_OPENED) {
      // The answer is: not opening with runs/sets now (opening_plan(counts) "now": only its
      // kind matters here), and opening_plan(with_t, must t) "melds" when its runs/sets reach
      // the threshold, else "pairs" when its pairs do, taken without pairs now, melds with them.
      // Asked in the cheap order: the pairs first, then the bounds that say no whatever the
      // open value now is (with a bound of it), then that value, the meld search last.
      bool has_now = thr_pairs_ > 0 && pairs_reach(counts, -1, thr_pairs_);
      Counts with_t = counts;
      with_t[size_t(t)] += 1;
      bool pairs_take = !has_now && thr_pairs_ > 0 && pairs_reach(with_t, t, thr_pairs_);
      if (!pairs_take && face_) {
        if (melds_bound(with_t) < thr_melds_) return false;
        if (t != J) {
          const Derived& dv = derived_[size_t(p)];
          int ov = std::max(dv.valid && dv.rack == counts ? dv.value : melds_bound(counts), 0);
          if (ov + best_meld_with(with_t, t) < thr_melds_) return false;
          int ub = must_use_bound(counts, t, ov);
          if (ub < thr_melds_ || ub <= 0) return false;
        }
      }
      int v = open_value_now(p, counts);
      if (v >= thr_melds_ && v > 0) return false;  // it opens with runs/sets already
      if (pairs_take) return true;
      if (face_ && t != J) {
        int ov = std::max(open_value_upper(p, counts), 0);
        if (ov + best_meld_with(with_t, t) < thr_melds_) return false;
        int ub = must_use_bound(counts, t, ov);
        if (ub < thr_melds_ || ub <= 0) return false;
      }
      int vt = solve(false, with_t, true, t, false).value;  // opening_plan asks the same
      return vt >= thr_melds_ && vt > 0;
    }
    if (t == J) return false;
    if (feeding() >> t & 1) return true;
    if (opened == OPEN_PAIRS) return counts[size_t(t)] >= 1;
    Counts with_t = counts;
    with_t[size_t(t)] += 1;
    // a selection holding t holds a 3-tile run or set with it (fits_new_meld), keeping a tile
    if (total(with_t) < 4 || !fits_new_meld(counts, t, counts[J])) return false;
    return solve(true, with_t, true, t, false).value > 0;  // lay_plan asks the same
  }

  // GreedyBot.act in the take phase (its one-legal-action shortcut gives the same action: draw)
  Act decide_take(int p) {
    bool button = button_left_[size_t(p)] > 0 && !button_used_[size_t(p)];
    if (stock_.empty()) throw std::runtime_error("a take phase with an empty stock");
    bot_enter(p);
    Bot& b = bots_[size_t(p)];
    // take_usable's cheap necessary test first (the order of these pure tests is free)
    if (last_ >= 0 && !b.no_take &&
        (opened_[size_t(p)] != NOT_OPENED || unopened_could_fit(p, last_)) &&
        take_pays(p, last_) && take_usable(p, last_))
      return bare(R101_TAKE);
    if (button && opened_[size_t(p)] == NOT_OPENED) return bare(R101_BUTTON);
    return bare(R101_DRAW);
  }

  // GreedyBot.act in the play phase
  Act decide_play(int p) {
    legal_play(p, legal_);
    if (legal_.empty()) throw std::runtime_error("no legal action in the play phase");
    if (legal_.size() == 1 && legal_[0].verb != R101_RESET) return legal_[0];
    bot_enter(p);
    Act a = play_step(p);
    if (a.verb == R101_RESET) bots_[size_t(p)].no_take = true;
    return a;
  }

  Act legal_or_throw(int i) const {
    if (i < 0) throw std::runtime_error("greedy chose no legal action");
    return legal_[size_t(i)];
  }

  // GreedyBot._play
  Act play_step(int p) {
    Bot& b = bots_[size_t(p)];
    const std::vector<Act>& legal = legal_;
    bool staged = staged_from_ >= 0;
    while (!b.queue.empty()) {
      Act step = b.queue.front();
      b.queue.pop_front();
      int i = find_key(legal, step);
      if (i >= 0) return legal[size_t(i)];
      b.queue.clear();
      b.no_plan = true;
      int r = find_verb(legal, R101_RESET);
      if (r >= 0 && staged) return legal[size_t(r)];
    }
    int opened = opened_[size_t(p)];
    int must = must_use();
    const Counts counts = racks_[size_t(p)];
    if (staged) {
      int o = find_verb(legal, R101_OPEN);
      if (o >= 0 && !b.no_plan) return legal[size_t(o)];
      int r = find_verb(legal, R101_RESET);
      return legal[size_t(r >= 0 ? r : 0)];
    }
    if (opened == NOT_OPENED) {
      if (!b.no_plan) {
        Plan plan;
        if (opening_plan(counts, thr_melds_, thr_pairs_, must, &plan)) {
          melds_steps(plan.list, int(table_.size()), b.queue);
          b.queue.push_back(bare(R101_OPEN));
          return play_step(p);
        }
      }
      if (must >= 0) return give_up(p);
      return discard(p, counts, false);
    }
    if (must >= 0) {
      int i = use_taken(p, counts, must, opened);
      if (i >= 0) return legal[size_t(i)];
      return give_up(p);
    }
    if (opened == OPEN_MELDS && !b.no_plan) {
      int i = retrieval(counts);
      if (i >= 0) return legal[size_t(i)];
      std::vector<std::pair<int, std::vector<int>>> melds;
      if (lay_plan(counts, -1, melds)) {
        melds_steps(melds, int(table_.size()), b.queue);
        return play_step(p);
      }
    }
    int i = pair_step(opened);
    if (i >= 0) return legal[size_t(i)];
    i = addition();
    if (i >= 0) return legal[size_t(i)];
    return discard(p, counts, true);
  }

  // GreedyBot._give_up
  Act give_up(int p) {
    Bot& b = bots_[size_t(p)];
    b.no_take = true;
    b.queue.clear();
    int r = find_verb(legal_, R101_RESET);
    if (r >= 0) return legal_[size_t(r)];
    int d = find_verb(legal_, R101_DISCARD);
    return legal_[size_t(d >= 0 ? d : 0)];
  }

  // GreedyBot._use_taken; -1 for None
  int use_taken(int p, const Counts& counts, int t, int opened) {
    for (size_t i = 0; i < legal_.size(); ++i)
      if (legal_[i].verb == R101_ADD && legal_[i].t[0] == t) return int(i);
    if (opened == OPEN_PAIRS || t == J) {
      for (size_t i = 0; i < legal_.size(); ++i)
        if (legal_[i].verb == R101_PAIR && (legal_[i].t[0] == t || legal_[i].t[1] == t)) return int(i);
      return -1;
    }
    std::vector<std::pair<int, std::vector<int>>> melds;
    if (!lay_plan(counts, t, melds)) return -1;
    Bot& b = bots_[size_t(p)];
    b.queue.clear();
    melds_steps(melds, int(table_.size()), b.queue);
    Act step = b.queue.front();
    b.queue.pop_front();
    return find_key(legal_, step);
  }

  // GreedyBot._retrieval
  int retrieval(const Counts& counts) {
    bool any = false;
    for (const Act& a : legal_)
      if (a.verb == R101_RETRIEVE) { any = true; break; }
    if (!any) return -1;
    int best = deadwood(counts), choice = -1;
    for (size_t i = 0; i < legal_.size(); ++i) {
      if (legal_[i].verb != R101_RETRIEVE) continue;
      Counts after = counts;
      after[size_t(legal_[i].t[0])] -= 1;
      after[J] += 1;
      int d = deadwood(after);
      if (d < best) { best = d; choice = int(i); }
    }
    return choice;
  }

  // GreedyBot._pair: max by number, ties to the first in legal order
  int pair_step(int opened) const {
    int best_same = -1, best_same_n = -1, best_any = -1, best_any_n = -1;
    for (size_t i = 0; i < legal_.size(); ++i) {
      const Act& a = legal_[i];
      if (a.verb != R101_PAIR) continue;
      int lo = std::min(a.t[0], a.t[1]);  // the key's first tile (sorted)
      int num = lo % 13;
      bool joker = a.t[0] == J || a.t[1] == J;
      if (!joker && num > best_same_n) { best_same_n = num; best_same = int(i); }
      if (num > best_any_n) { best_any_n = num; best_any = int(i); }
    }
    if (best_same >= 0) return best_same;
    if (opened == OPEN_PAIRS) return best_any;
    return -1;
  }

  // GreedyBot._addition: max by (value, -meld), ties to the first in legal order
  int addition() const {
    int best = -1, bv = 0, bm = 0;
    for (size_t i = 0; i < legal_.size(); ++i) {
      const Act& a = legal_[i];
      if (a.verb != R101_ADD || a.t[0] == J) continue;
      int v = pcr_.set_value[size_t(a.t[0] % 13 + 1)];
      if (best < 0 || v > bv || (v == bv && -a.meld > -bm)) { best = int(i); bv = v; bm = a.meld; }
    }
    return best;
  }

  // GreedyBot._discard
  Act discard(int p, const Counts& counts, bool opened) {
    int nxt = (p + 1) % n_;
    bool next_opened = opened_[size_t(nxt)] != NOT_OPENED;
    std::uint64_t feed = next_opened ? feeding() : 0;
    int code = choose_discard(counts, opened, feed, next_opened);
    Act want = one(R101_DISCARD, code, -1, -1);
    int i = find_key(legal_, want);
    if (i >= 0) return legal_[size_t(i)];
    int d = find_verb(legal_, R101_DISCARD);
    if (d >= 0) return legal_[size_t(d)];
    int r = find_verb(legal_, R101_RESET);
    return legal_[size_t(r >= 0 ? r : 0)];
  }
};

}  // namespace

std::int64_t r101_encode(int verb, int n_tiles, const int* tiles, int meld, int pos) {
  std::int64_t x = verb & 15;
  for (int i = 0; i < 3; ++i) {
    std::int64_t t = i < n_tiles ? tiles[i] : 63;
    x |= (t & 63) << (4 + 6 * i);
  }
  std::int64_t m = meld < 0 ? 1023 : meld;
  x |= (m & 1023) << 22;
  x |= std::int64_t((pos + 1) & 15) << 32;
  return x;
}

R101RoundResult play_greedy_round(const CoreRules& open_cr, const CoreRules& penalty_cr,
                                  const R101Position& start, long long max_steps) {
  Round r(open_cr, penalty_cr, start);
  return r.play(max_steps);
}

}  // namespace rummy101
