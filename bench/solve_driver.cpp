// Standalone driver of the native solver for profilers (callgrind, perf): no Python in the way.
//   g++ -O3 -g -std=c++17 -Icpp/include bench/solve_driver.cpp cpp/src/solver.cpp -o /tmp/solve_driver
//   PYTHONPATH=python:bench python bench/callgrind_solve.py --dump DIR   (writes DIR/<file>.<workload>.txt)
//   valgrind --tool=callgrind /tmp/solve_driver DIR/racks_22.txt.rummy101-opening.txt 3 [values|melds]
// The fixed cost of a call (tenth round): the same with a file of empty racks (the 3 header lines
// of a dumped file, then lines of 53 zeros), or bench/callgrind_solve.py --empty.
// Input: line 1 "high_ace ratio joker_value keep require_run [must_use]" (must_use: a code, 52
// for the joker, -1 or left out for none), line 2 the 15 run values, line 3 the 14 set values,
// then one rack a line (53 counts). Solves every rack `passes` times and prints a checksum of the
// answers (so the work cannot be optimised away). Built with -DRUMMY101_SOLVER_STATS it also
// prints the node counters of cpp/src/solver.cpp: all nodes, the relaxed twin's, and those inside
// fresh-suffix searches (docs/solve-rounds.md, thirteenth round).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "rummy101/solver.hpp"

using namespace rummy101;

#ifdef RUMMY101_SOLVER_STATS
extern long g_states, g_twin_states, g_fresh_states;
#endif

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: solve_driver FILE PASSES [values]\n"); return 2; }
  FILE* f = std::fopen(argv[1], "r");
  if (!f) return 2;
  int ha, ratio, jv, keep, rr, mu = -1;
  char head[256];
  if (!std::fgets(head, sizeof head, f)) return 2;
  if (std::sscanf(head, "%d %d %d %d %d %d", &ha, &ratio, &jv, &keep, &rr, &mu) < 5) return 2;
  std::vector<int> rv(15), sv(14);
  for (int& x : rv) if (std::fscanf(f, "%d", &x) != 1) return 2;
  for (int& x : sv) if (std::fscanf(f, "%d", &x) != 1) return 2;
  CoreRules cr(ha != 0, ratio, rv, sv, jv);
  std::vector<Counts> racks;
  for (;;) {
    Counts c{};
    bool ok = true;
    for (int j = 0; j < NUM_CODES && ok; ++j) ok = std::fscanf(f, "%d", &c[size_t(j)]) == 1;
    if (!ok) break;
    racks.push_back(c);
  }
  std::fclose(f);
  int passes = std::atoi(argv[2]);
  bool values = argc > 3 && argv[3][0] == 'v';
  long long sum = 0;
  for (int p = 0; p < passes; ++p)
    for (const Counts& c : racks) {
      if (values) { sum += solve_melds_value(cr, c, keep != 0, mu, rr != 0, UNLIMITED_BUDGET); continue; }
      SolveResult r = solve_melds(cr, c, keep != 0, mu, rr != 0, UNLIMITED_BUDGET);
      sum += r.value * 7 + long(r.melds.size());
    }
  std::printf("%zu racks x %d passes, checksum %lld\n", racks.size(), passes, sum);
#ifdef RUMMY101_SOLVER_STATS
  std::printf("nodes %ld, of the relaxed twin %ld, inside fresh-suffix searches %ld\n", g_states, g_twin_states,
              g_fresh_states);
#endif
  return 0;
}
