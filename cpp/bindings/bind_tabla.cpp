// Registers the tabla functions of cpp/src/tabla.cpp (filled in by the tabla work).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

void register_tabla(py::module_& m) { (void)m; }
