// Registers the solver functions of cpp/src/solver.cpp and cpp/src/pairs.cpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "rummy101/solver.hpp"

namespace py = pybind11;
using namespace rummy101;

namespace {

py::tuple to_py(const SolveResult& r) {
  py::list melds;
  for (const auto& m : r.melds) melds.append(py::make_tuple(m.kind, py::cast(m.tiles), py::cast(m.stand)));
  return py::make_tuple(r.value, melds);
}

}  // namespace

void register_solver(py::module_& m) {
  m.attr("DEFAULT_WORK_BUDGET") = DEFAULT_WORK_BUDGET;
  m.attr("UNLIMITED_BUDGET") = UNLIMITED_BUDGET;
  m.attr("BUDGET_SPENT") = BUDGET_SPENT;
  // A spent budget raises rummy101.errors.WorkBudgetExceeded(message, budget), the class the
  // pure twin raises, so that callers of either backend catch one type.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const BudgetExceeded& e) {
      py::object cls = py::module_::import("rummy101.errors").attr("WorkBudgetExceeded");
      py::object exc = cls(e.what(), e.budget);
      PyErr_SetObject(cls.ptr(), exc.ptr());
    }
  });

  m.def(
      "solve_melds",
      [](const CoreRules& cr, const std::vector<int>& counts, bool keep, int must_use, bool require_run,
         long long budget) {
        Counts c = to_counts(counts);
        SolveResult r;
        {
          py::gil_scoped_release release;
          r = solve_melds(cr, c, keep, must_use, require_run, budget);
        }
        return to_py(r);
      },
      py::arg("cr"), py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("require_run"),
      py::arg("budget") = DEFAULT_WORK_BUDGET,
      "Maximum total value of disjoint runs/sets: (value, [(kind, tiles, stand_for), ...]); (-1, []) if none.\n"
      "Raises rummy101.errors.WorkBudgetExceeded when the search needs more than `budget` nodes.");

  m.def(
      "solve_melds_batch",
      [](const CoreRules& cr, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> counts, bool keep,
         int must_use, bool require_run, long long budget) {
        check_budget(budget);
        if (counts.ndim() != 2 || counts.shape(1) != NUM_CODES) {
          std::string shape = "(";
          for (py::ssize_t i = 0; i < counts.ndim(); ++i) {
            if (i) shape += ", ";
            shape += std::to_string(counts.shape(i));
          }
          shape += counts.ndim() == 1 ? ",)" : ")";
          throw std::invalid_argument("counts must have shape (n, 53), got " + shape);
        }
        py::ssize_t n = counts.shape(0);
        std::vector<Counts> racks(static_cast<size_t>(n));
        auto buf = counts.unchecked<2>();
        for (py::ssize_t i = 0; i < n; ++i)
          for (int j = 0; j < NUM_CODES; ++j) {
            int v = buf(i, j);
            if (v > 64) throw std::invalid_argument("tile count out of range at code " + std::to_string(j));
            racks[size_t(i)][j] = v;
          }
        std::vector<SolveResult> out(static_cast<size_t>(n));
        {
          py::gil_scoped_release release;
          for (py::ssize_t i = 0; i < n; ++i) {
            try {
              out[size_t(i)] = solve_melds(cr, racks[size_t(i)], keep, must_use, require_run, budget);
            } catch (const BudgetExceeded&) {
              out[size_t(i)].value = BUDGET_SPENT;  // this rack only; the others keep their answers
            }
          }
        }
        py::list res;
        for (const auto& r : out) res.append(to_py(r));
        return res;
      },
      py::arg("cr"), py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("require_run"),
      py::arg("budget") = DEFAULT_WORK_BUDGET,
      "solve_melds on every row of a (n, 53) uint8 array, with the GIL released while solving; a rack\n"
      "that spends its budget (each rack has its own) gets (BUDGET_SPENT, []).");

  m.def(
      "max_pairs",
      [](const std::vector<int>& counts, bool keep, int must_use, long long budget) {
        Counts c = to_counts(counts);
        PairsResult r = max_pairs(c, keep, must_use, budget);
        py::list pairs;
        for (auto [a, b] : r.pairs) pairs.append(py::make_tuple(a, b));
        return py::make_tuple(r.n_pairs, pairs);
      },
      py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("budget") = DEFAULT_WORK_BUDGET,
      "Most pairs (R101-5, R101-8): (n_pairs, [(code, code_or_joker), ...]); (-1, []) if none.");
}
