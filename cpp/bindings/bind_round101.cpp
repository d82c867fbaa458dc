// Registers play_greedy_round of cpp/src/round101.cpp (a native greedy Rummy 101 round, issue 12).
// python/rummy101/sim/native_round.py is its only caller: it reads the position out of a State
// and writes the end position back.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <tuple>
#include <vector>

#include "rummy101/round101.hpp"

namespace py = pybind11;
using namespace rummy101;

void register_round101(py::module_& m) {
  m.def(
      "play_greedy_round",
      [](const CoreRules& open_cr, const CoreRules& penalty_cr, int players, bool increasing, int turn,
         int current, bool take_phase, const std::vector<std::vector<int>>& racks, std::vector<int> stock,
         const std::vector<std::tuple<int, int, std::vector<int>>>& table, std::vector<int> opened,
         std::vector<int> opened_turn, int thr_melds, int thr_pairs, int last_discard,
         std::vector<std::vector<int>> discards, std::vector<int> button_left, std::vector<int> button_used,
         int button_issued, long long max_steps) {
        R101Position s;
        s.players = players;
        s.increasing = increasing;
        s.turn = turn;
        s.current = current;
        s.take_phase = take_phase;
        for (const auto& r : racks) s.racks.push_back(to_counts(r));
        s.stock = std::move(stock);
        for (const auto& [kind, owner, tiles] : table) s.table.push_back({kind, owner, tiles});
        s.opened = std::move(opened);
        s.opened_turn = std::move(opened_turn);
        s.thr_melds = thr_melds;
        s.thr_pairs = thr_pairs;
        s.last_discard = last_discard;
        s.discards = std::move(discards);
        s.button_left = std::move(button_left);
        s.button_used = std::move(button_used);
        s.button_issued = button_issued;
        R101RoundResult r;
        {
          py::gil_scoped_release release;
          r = play_greedy_round(open_cr, penalty_cr, s, max_steps);
        }
        const R101Position& e = r.end;
        std::vector<std::vector<int>> end_racks;
        for (const auto& c : e.racks) end_racks.emplace_back(c.begin(), c.end());
        py::list end_table;
        for (const auto& t : e.table) end_table.append(py::make_tuple(t.kind, t.owner, py::tuple(py::cast(t.tiles))));
        py::list log;
        for (const auto& l : e.taken_log) log.append(py::make_tuple(l[0], l[1], l[2], l[3]));
        py::tuple end = py::make_tuple(
            e.turn, e.current, end_racks, int(e.stock.size()), end_table, e.opened, e.opened_turn,
            e.thr_melds, e.thr_pairs, e.last_discard, e.discards, e.button_left, e.button_used,
            e.button_issued, log, e.took, e.taken, e.taken_base, e.turn_table_start);
        return py::make_tuple(r.actions, r.turn_seats, r.winner, r.joker_finish, end);
      },
      py::arg("open_cr"), py::arg("penalty_cr"), py::arg("players"), py::arg("increasing"), py::arg("turn"),
      py::arg("current"), py::arg("take_phase"), py::arg("racks"), py::arg("stock"), py::arg("table"),
      py::arg("opened"), py::arg("opened_turn"), py::arg("thr_melds"), py::arg("thr_pairs"),
      py::arg("last_discard"), py::arg("discards"), py::arg("button_left"), py::arg("button_used"),
      py::arg("button_issued"), py::arg("max_steps") = 100000,
      "A Rummy 101 round from a turn boundary to its end with the greedy bot in every seat\n"
      "(rummy101.sim.native_round): (actions, turn_seats, winner, joker_finish, end position).");
}
