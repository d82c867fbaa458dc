// Registers the melds functions of cpp/src/melds.cpp (filled in by the melds work).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

void register_melds(py::module_& m) { (void)m; }
