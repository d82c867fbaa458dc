// Meld logic; see rummy101/melds.hpp. Twin of python/rummy101/_pure/melds.py: keep in step.
#include "rummy101/melds.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rummy101 {
namespace {

constexpr int NO_START = -1000;  // "no run start" sentinel (starts can be negative when unbounded)

inline int code_at(int colour, int number) { return code_of(colour, number == HIGH_ACE ? 1 : number); }
inline int top_of(bool high_ace) { return high_ace ? HIGH_ACE : NUM_NUMBERS; }

// Run position of tiles[0] if the real tiles fit one ascending run of one colour (ignoring the
// 1..top bounds when !bounded), else NO_START. Needs >= 1 real tile.
int run_start(const std::vector<int>& tiles, bool high_ace, bool bounded = true) {
  const int n = static_cast<int>(tiles.size());
  int colour = -1, start = NO_START;
  for (int i = 0; i < n; ++i) {
    const int t = tiles[i];
    if (t == JOKER) continue;
    const int c = colour_of(t), num = number_of(t);
    if (colour < 0) {
      colour = c;
      // An ace after the first position can only be a high ace (position 14).
      start = (num == 1 && i > 0 && high_ace) ? HIGH_ACE - i : num - i;
    } else if (c != colour) {
      return NO_START;
    }
    const int pos = start + i;
    const int want = (pos == HIGH_ACE && high_ace) ? 1 : pos;
    if (num != want) return NO_START;
  }
  if (start == NO_START) return NO_START;
  if (bounded && (start < 1 || start + n - 1 > top_of(high_ace))) return NO_START;
  return start;
}

// True if the real tiles are consecutive of one colour when 1 may follow 13 (13-1-2).
bool run_cyclic(const std::vector<int>& tiles) {
  int colour = -1, offset = -1;
  for (int i = 0; i < static_cast<int>(tiles.size()); ++i) {
    const int t = tiles[i];
    if (t == JOKER) continue;
    const int c = colour_of(t), num = number_of(t);
    const int off = (((num - 1 - i) % NUM_NUMBERS) + NUM_NUMBERS) % NUM_NUMBERS;
    if (colour < 0) {
      colour = c;
      offset = off;
    } else if (c != colour || off != offset) {
      return false;
    }
  }
  return colour >= 0;
}

// What each position of a set stands for; false if the tiles are no set.
bool set_stand_for(const std::vector<int>& tiles, std::vector<int>& out) {
  const int n = static_cast<int>(tiles.size());
  if (n < 3 || n > NUM_COLOURS) return false;
  int number = -1;
  bool used[NUM_COLOURS] = {false, false, false, false};
  for (int t : tiles) {
    if (t == JOKER) continue;
    const int c = colour_of(t), num = number_of(t);
    if (number < 0) number = num;
    else if (num != number) return false;
    if (used[c]) return false;
    used[c] = true;
  }
  if (number < 0) return false;
  std::vector<int> missing;
  for (int c = 0; c < NUM_COLOURS; ++c)
    if (!used[c]) missing.push_back(c);
  out.clear();
  std::size_t k = 0;
  for (int t : tiles) {
    if (t == JOKER) out.push_back(code_at(missing[k++], number));
    else out.push_back(t);
  }
  return true;
}

int diagnose(const CoreRules& cr, const std::vector<int>& tiles) {
  std::vector<int> real;
  for (int t : tiles)
    if (t != JOKER) real.push_back(t);
  bool same_number = true, same_colour = true;
  for (int t : real) {
    same_number = same_number && number_of(t) == number_of(real[0]);
    same_colour = same_colour && colour_of(t) == colour_of(real[0]);
  }
  if (same_number && real.size() >= 2)
    return static_cast<int>(tiles.size()) > NUM_COLOURS ? REASON_SET_TOO_LONG : REASON_SET_REPEATED_COLOUR;
  if (same_colour) {
    if (!cr.high_ace && run_start(tiles, true) != NO_START) return REASON_RUN_HIGH_ACE;
    if (run_start(tiles, cr.high_ace, false) != NO_START) return REASON_RUN_OUT_OF_RANGE;
    if (run_cyclic(tiles)) return REASON_RUN_WRAPS;
    return REASON_RUN_NOT_CONSECUTIVE;
  }
  return REASON_MIXED;
}

Classified invalid(int reason) {
  Classified out;
  out.reason = reason;
  return out;
}

Classified valid_or_throw(const CoreRules& cr, const std::vector<int>& tiles) {
  Classified c = classify(cr, tiles);
  if (c.kind == KIND_INVALID)
    throw std::invalid_argument("not a valid meld (reason " + std::to_string(c.reason) + ")");
  return c;
}

int count_jokers(const std::vector<int>& tiles) {
  return static_cast<int>(std::count(tiles.begin(), tiles.end(), JOKER));
}

}  // namespace

Classified classify(const CoreRules& cr, const std::vector<int>& tiles) {
  check_codes(tiles);
  const int n = static_cast<int>(tiles.size());
  if (n < 2) return invalid(REASON_TOO_SHORT);
  if (n > top_of(cr.high_ace)) return invalid(REASON_TOO_LONG);
  const int jokers = count_jokers(tiles);
  const int reals = n - jokers;
  if (reals == 0) return invalid(REASON_NO_REAL_TILE);
  Classified out;
  if (n == 2) {
    const int a = tiles[0], b = tiles[1];
    if (a == JOKER || b == JOKER || a == b) {
      const int t = a == JOKER ? b : a;
      out.kind = KIND_PAIR;
      out.stand_for = {t, t};
    } else {
      return invalid(REASON_NOT_A_PAIR);
    }
  } else {
    const int s = run_start(tiles, cr.high_ace);
    if (s != NO_START) {
      int colour = 0;
      for (int t : tiles)
        if (t != JOKER) { colour = colour_of(t); break; }
      out.kind = KIND_RUN;
      out.start = s;
      for (int i = 0; i < n; ++i) out.stand_for.push_back(code_at(colour, s + i));
    } else if (set_stand_for(tiles, out.stand_for)) {
      out.kind = KIND_SET;
    } else {
      return invalid(diagnose(cr, tiles));
    }
  }
  if (static_cast<long long>(reals) < static_cast<long long>(cr.joker_ratio) * jokers)
    return invalid(REASON_JOKER_RATIO);
  return out;
}

long long meld_value(const CoreRules& cr, const std::vector<int>& tiles) {
  const Classified c = valid_or_throw(cr, tiles);
  long long total = 0;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    if (tiles[i] == JOKER && cr.joker_value >= 0) total += cr.joker_value;
    else if (c.kind == KIND_RUN) total += cr.run_value[c.start + static_cast<int>(i)];
    else total += cr.set_value[number_of(c.stand_for[i])];
  }
  return total;
}

std::vector<Addition> meld_additions(const CoreRules& cr, const std::vector<int>& tiles) {
  const Classified c = valid_or_throw(cr, tiles);
  const int n = static_cast<int>(tiles.size());
  const int jokers = count_jokers(tiles);
  const bool joker_ok = static_cast<long long>(n - jokers) >= static_cast<long long>(cr.joker_ratio) * (jokers + 1);
  std::vector<Addition> out;
  if (c.kind == KIND_RUN) {
    const int colour = colour_of(c.stand_for[0]);
    if (c.start > 1) {
      out.emplace_back(0, code_at(colour, c.start - 1));
      if (joker_ok) out.emplace_back(0, JOKER);
    }
    if (c.start + n - 1 < top_of(cr.high_ace)) {
      out.emplace_back(n, code_at(colour, c.start + n));
      if (joker_ok) out.emplace_back(n, JOKER);
    }
  } else if (c.kind == KIND_SET && n == 3) {
    const int number = number_of(c.stand_for[0]);
    bool real_colour[NUM_COLOURS] = {false, false, false, false};
    bool sf_colour[NUM_COLOURS] = {false, false, false, false};
    for (int i = 0; i < n; ++i) {
      if (tiles[i] != JOKER) real_colour[colour_of(tiles[i])] = true;
      sf_colour[colour_of(c.stand_for[i])] = true;
    }
    auto sorts_in = [&](int colour) {
      int pos = 0;
      for (int sf : c.stand_for)
        if (colour_of(sf) < colour) ++pos;
      return pos;
    };
    for (int col = 0; col < NUM_COLOURS; ++col)
      if (!real_colour[col]) out.emplace_back(sorts_in(col), code_at(col, number));
    if (joker_ok) {
      for (int col = 0; col < NUM_COLOURS; ++col)
        if (!sf_colour[col]) {
          out.emplace_back(sorts_in(col), JOKER);
          break;
        }
    }
    std::sort(out.begin(), out.end());
  }
  return out;
}

std::vector<Release> joker_releases(const CoreRules& cr, const std::vector<int>& tiles,
                                    bool both_missing_for_set3) {
  const Classified c = valid_or_throw(cr, tiles);
  const int n = static_cast<int>(tiles.size());
  std::vector<Release> out;
  if (c.kind == KIND_SET) {
    const int number = number_of(c.stand_for[0]);
    bool real_colour[NUM_COLOURS] = {false, false, false, false};
    for (int t : tiles)
      if (t != JOKER) real_colour[colour_of(t)] = true;
    std::vector<int> missing;
    for (int col = 0; col < NUM_COLOURS; ++col)
      if (!real_colour[col]) missing.push_back(code_at(col, number));
    std::vector<std::vector<int>> alts;
    if (both_missing_for_set3 && n == 3) {
      for (std::size_t i = 0; i < missing.size(); ++i)
        for (std::size_t j = i + 1; j < missing.size(); ++j) alts.push_back({missing[i], missing[j]});
    } else {
      for (int m : missing) alts.push_back({m});
    }
    for (int i = 0; i < n; ++i)
      if (tiles[i] == JOKER) out.emplace_back(i, alts);
  } else {
    for (int i = 0; i < n; ++i)
      if (tiles[i] == JOKER) out.emplace_back(i, std::vector<std::vector<int>>{{c.stand_for[i]}});
  }
  return out;
}

long long rack_value(const CoreRules& cr, const Counts& counts) {
  long long total = 0;
  for (int code = 0; code < JOKER; ++code)
    total += static_cast<long long>(counts[code]) * cr.set_value[number_of(code)];
  return total + static_cast<long long>(counts[JOKER]) * std::max(cr.joker_value, 0);
}

}  // namespace rummy101
