// rummy101._core: registers the binding-free algorithms of cpp/src, one register_* per area.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "rummy101/encoding.hpp"

namespace py = pybind11;

void register_melds(py::module_& m);   // bind_melds.cpp
void register_solver(py::module_& m);  // bind_solver.cpp
void register_tabla(py::module_& m);   // bind_tabla.cpp
void register_round101(py::module_& m);  // bind_round101.cpp
void register_relax(py::module_& m);  // bind_relax.cpp

PYBIND11_MODULE(_core, m) {
  m.doc() = "rummy101 native core (C++). Same functions and signatures as rummy101._pure.";
  m.attr("NUM_COLOURS") = rummy101::NUM_COLOURS;
  m.attr("NUM_NUMBERS") = rummy101::NUM_NUMBERS;
  m.attr("JOKER") = rummy101::JOKER;
  m.attr("NUM_CODES") = rummy101::NUM_CODES;
  m.attr("HIGH_ACE") = rummy101::HIGH_ACE;
  m.attr("KIND_INVALID") = rummy101::KIND_INVALID;
  m.attr("KIND_RUN") = rummy101::KIND_RUN;
  m.attr("KIND_SET") = rummy101::KIND_SET;
  m.attr("KIND_PAIR") = rummy101::KIND_PAIR;

  py::class_<rummy101::CoreRules>(m, "CoreRules")
      .def(py::init<bool, int, const std::vector<int>&, const std::vector<int>&, int>(),
           py::arg("high_ace"), py::arg("joker_ratio"), py::arg("run_value"), py::arg("set_value"),
           py::arg("joker_value"))
      .def_readonly("high_ace", &rummy101::CoreRules::high_ace)
      .def_readonly("joker_ratio", &rummy101::CoreRules::joker_ratio)
      .def_property_readonly("run_value", [](const rummy101::CoreRules& r) {
        return std::vector<int>(r.run_value.begin(), r.run_value.end());
      })
      .def_property_readonly("set_value", [](const rummy101::CoreRules& r) {
        return std::vector<int>(r.set_value.begin(), r.set_value.end());
      })
      .def_readonly("joker_value", &rummy101::CoreRules::joker_value);

  py::register_exception<std::invalid_argument>(m, "CoreInputError", PyExc_ValueError);

  register_melds(m);
  register_solver(m);
  register_tabla(m);
  register_round101(m);
  register_relax(m);
}
