// Registers relaxed_cover of cpp/src/relax.cpp (the Atu check's relaxation, RULES.md RO-4).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "rummy101/relax.hpp"

namespace py = pybind11;

void register_relax(py::module_& m) {
  m.def(
      "relaxed_cover",
      [](const std::vector<int>& counts, bool high_ace, const std::vector<std::array<int, 3>>& runs,
         long long budget) { return rummy101::relaxed_cover(counts, high_ace, runs, budget); },
      py::arg("counts"), py::arg("high_ace"), py::arg("runs"), py::arg("budget"),
      "False only when counts cannot all but one tile be split into runs and sets (Jolys standing "
      "for any tile) with each (colour, lo, hi) of runs inside one run; True proves nothing (also "
      "when the search expands more than budget states).");
}
