// Registers the meld functions of cpp/src/melds.cpp with the same names and signatures as
// python/rummy101/_pure/melds.py (docs/DESIGN.md "Core functions / melds").
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <tuple>
#include <vector>

#include "rummy101/melds.hpp"

namespace py = pybind11;
using rummy101::CoreRules;

void register_melds(py::module_& m) {
  m.attr("REASON_OK") = rummy101::REASON_OK;
  m.attr("REASON_TOO_SHORT") = rummy101::REASON_TOO_SHORT;
  m.attr("REASON_TOO_LONG") = rummy101::REASON_TOO_LONG;
  m.attr("REASON_NO_REAL_TILE") = rummy101::REASON_NO_REAL_TILE;
  m.attr("REASON_NOT_A_PAIR") = rummy101::REASON_NOT_A_PAIR;
  m.attr("REASON_JOKER_RATIO") = rummy101::REASON_JOKER_RATIO;
  m.attr("REASON_SET_REPEATED_COLOUR") = rummy101::REASON_SET_REPEATED_COLOUR;
  m.attr("REASON_SET_TOO_LONG") = rummy101::REASON_SET_TOO_LONG;
  m.attr("REASON_RUN_NOT_CONSECUTIVE") = rummy101::REASON_RUN_NOT_CONSECUTIVE;
  m.attr("REASON_RUN_OUT_OF_RANGE") = rummy101::REASON_RUN_OUT_OF_RANGE;
  m.attr("REASON_RUN_HIGH_ACE") = rummy101::REASON_RUN_HIGH_ACE;
  m.attr("REASON_RUN_WRAPS") = rummy101::REASON_RUN_WRAPS;
  m.attr("REASON_MIXED") = rummy101::REASON_MIXED;

  m.def("classify_meld",
        [](const CoreRules& cr, const std::vector<int>& tiles) {
          const rummy101::Classified c = rummy101::classify(cr, tiles);
          return std::make_tuple(c.kind, c.stand_for, c.reason);
        },
        py::arg("cr"), py::arg("tiles"),
        "(kind, stand_for, reason); (KIND_INVALID, [], reason >= 1) when the tiles are no meld.");
  m.def("meld_value", &rummy101::meld_value, py::arg("cr"), py::arg("tiles"),
        "Sum of the values by position; raises CoreInputError on an invalid meld.");
  m.def("meld_additions", &rummy101::meld_additions, py::arg("cr"), py::arg("tiles"),
        "Every single tile (position, code) that keeps the meld valid, sorted; 52 = a joker.");
  m.def("joker_releases", &rummy101::joker_releases, py::arg("cr"), py::arg("tiles"),
        py::arg("both_missing_for_set3"),
        "For each joker index, the alternative tile lists that release it (R101-9, RO-9.6).");
  m.def("rack_value",
        [](const CoreRules& cr, const std::vector<int>& counts) {
          return rummy101::rack_value(cr, rummy101::to_counts(counts));
        },
        py::arg("cr"), py::arg("counts"),
        "Sum of set_value of the real tiles plus joker_value per joker.");
}
