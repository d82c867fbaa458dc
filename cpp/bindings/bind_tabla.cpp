// Registers the tabla functions of cpp/src/tabla.cpp (RULES.md RO-11). Shapes as in
// python/rummy101/_pure/tabla.py: patterns are (pattern, row, row_stand_for, melds) tuples, closes
// (discard, pattern, score, row, row_stand_for, melds), melds (kind, tiles, stand_for).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "rummy101/tabla.hpp"

namespace py = pybind11;
using namespace rummy101;

namespace {

py::list melds_of(const std::vector<TablaMeld>& melds) {
  py::list out;
  for (const TablaMeld& m : melds) out.append(py::make_tuple(m.kind, m.tiles, m.stand_for));
  return out;
}

}  // namespace

void register_tabla(py::module_& m) {
  m.attr("PATTERN_SIMPLE") = PATTERN_SIMPLE;
  m.attr("PATTERN_MOZAIC") = PATTERN_MOZAIC;
  m.attr("PATTERN_BICOLOR") = PATTERN_BICOLOR;
  m.attr("PATTERN_MONOCOLOR") = PATTERN_MONOCOLOR;
  m.attr("PATTERN_SCORES") = std::vector<int>(PATTERN_SCORES.begin(), PATTERN_SCORES.end());
  m.attr("TABLA_TILES") = TABLA_TILES;

  m.def(
      "tabla_patterns",
      [](const CoreRules& cr, const std::vector<int>& counts) {
        py::list out;
        for (const TablaPattern& p : tabla_patterns(cr, counts))
          out.append(py::make_tuple(p.pattern, p.row, p.stand_for, melds_of(p.melds)));
        return out;
      },
      py::arg("cr"), py::arg("counts"),
      "Every RO-11 pattern a 14-tile rack forms, best first: "
      "(pattern, row, row_stand_for, melds).");
  m.def(
      "tabla_closes",
      [](const CoreRules& cr, const std::vector<int>& counts) {
        py::list out;
        for (const TablaClose& c : tabla_closes(cr, counts))
          out.append(py::make_tuple(c.discard, c.best.pattern, c.score, c.best.row,
                                    c.best.stand_for, melds_of(c.best.melds)));
        return out;
      },
      py::arg("cr"), py::arg("counts"),
      "For a 15-tile rack: (discard, pattern, score, row, row_stand_for, melds) per distinct "
      "discard that leaves a close (RO-11), ascending code, the Joly last.");
  m.def(
      "tabla_distance",
      [](const CoreRules& cr, const std::vector<int>& counts) {
        std::array<int, 4> d = tabla_distance(cr, counts);
        return std::vector<int>(d.begin(), d.end());
      },
      py::arg("cr"), py::arg("counts"),
      "[simple, mozaic, bicolor, monocolor] distances of a 14-tile rack "
      "(see rummy101._pure.tabla).");
}
