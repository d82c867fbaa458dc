// Registers the solver functions of cpp/src/solver.cpp and cpp/src/pairs.cpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rummy101/solver.hpp"

namespace py = pybind11;
using namespace rummy101;

namespace {

// ---- the one-rack call (issue 11, tenth round) -----------------------------------------------
// solve_melds is called once per rack by the public API, the bots and the engines, so its own
// cost counts: pybind11's std::vector<int> caster, its dispatcher and py::cast of the answer
// took ~3,100 of the ~25,100 instructions an empty rack cost from Python (callgrind). A list or
// tuple of 53 exact ints in 0..64 (what every
// caller in the package passes) is read directly (solve_melds_vectorcall below); anything else
// goes through pybind11's caster and to_counts as before, so the values read and the errors
// raised are unchanged.

// The counts of a list or tuple of 53 exact ints in 0..64, or false (the caller falls back).
bool read_counts_fast(PyObject* o, Counts& out) {
  if (!PyList_CheckExact(o) && !PyTuple_CheckExact(o)) return false;
  if (PySequence_Fast_GET_SIZE(o) != NUM_CODES) return false;
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (int i = 0; i < NUM_CODES; ++i) {
    PyObject* x = items[i];
    if (!PyLong_CheckExact(x)) return false;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(x, &overflow);
    if (overflow || v < 0 || v > 64) return false;
    out[size_t(i)] = int(v);
  }
  return true;
}

// A new list of the ints in [b, e) (a new reference), or throws with the Python error set.
template <class It>
PyObject* int_list(It b, It e) {
  PyObject* out = PyList_New(Py_ssize_t(e - b));
  if (!out) throw py::error_already_set();
  for (Py_ssize_t i = 0; b != e; ++b, ++i) {
    PyObject* x = PyLong_FromLong(long(*b));
    if (!x) {
      Py_DECREF(out);
      throw py::error_already_set();
    }
    PyList_SET_ITEM(out, i, x);
  }
  return out;
}

// One meld (kind, tiles, stand_for) as a new tuple of a new int and two new lists.
template <class It>
PyObject* meld_tuple(int kind_v, It tiles_b, It tiles_e, It stand_b) {
  py::object t_list = py::reinterpret_steal<py::object>(int_list(tiles_b, tiles_e));
  py::object s_list = py::reinterpret_steal<py::object>(int_list(stand_b, stand_b + (tiles_e - tiles_b)));
  py::object kind = py::reinterpret_steal<py::object>(PyLong_FromLong(kind_v));
  if (!kind) throw py::error_already_set();
  PyObject* t = PyTuple_New(3);
  if (!t) throw py::error_already_set();
  PyTuple_SET_ITEM(t, 0, kind.release().ptr());
  PyTuple_SET_ITEM(t, 1, t_list.release().ptr());
  PyTuple_SET_ITEM(t, 2, s_list.release().ptr());
  return t;
}

// (value, [(kind, tiles, stand_for), ...]): the same objects py::make_tuple built, made directly.
py::tuple to_py(const SolveResult& r) {
  py::list melds(r.melds.size());
  for (size_t i = 0; i < r.melds.size(); ++i) {
    const auto& m = r.melds[i];
    PyList_SET_ITEM(melds.ptr(), Py_ssize_t(i), meld_tuple(m.kind, m.tiles.begin(), m.tiles.end(), m.stand.begin()));
  }
  return py::make_tuple(r.value, melds);
}

// ---- packed batch answers (issue 11, eleventh round) --------------------------------------------
// solve_openings keeps one answer object per rack and builds its melds only when they are read.
// As Python lists, a batch's melds were ~20 container objects a rack, kept alive until the
// answers are built: their allocation and the garbage collector's passes over them were ~1/3 of
// the batch's cost above the solver (callgrind, racks_22). SolvedMelds keeps them packed, a
// byte per field (kind, length, then the codes and what they stand for), ~10 bytes a meld.
struct SolvedMelds {
  std::vector<uint8_t> data;    // per meld: kind, len, tiles[len], stand[len]
  std::vector<uint32_t> start;  // rack i's melds: data[start[i], start[i + 1])
  std::vector<uint16_t> count;  // melds of rack i

  void add(const SolveResult& r) {
    for (const MeldOut& m : r.melds) {
      data.push_back(uint8_t(m.kind));
      data.push_back(uint8_t(m.tiles.size()));
      for (int x : m.tiles) data.push_back(uint8_t(x));
      for (int x : m.stand) data.push_back(uint8_t(x));
    }
    start.push_back(uint32_t(data.size()));
    count.push_back(uint16_t(r.melds.size()));
  }

  py::list melds(py::ssize_t i) const {
    py::ssize_t n = py::ssize_t(count.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw py::index_error("SolvedMelds index out of range");
    py::list out(count[size_t(i)]);
    const uint8_t* p = data.data() + start[size_t(i)];
    for (py::ssize_t k = 0; k < py::ssize_t(count[size_t(i)]); ++k) {
      int kind = p[0], len = p[1];
      PyList_SET_ITEM(out.ptr(), k, meld_tuple(kind, p + 2, p + 2 + len, p + 2 + len));
      p += 2 + 2 * len;
    }
    return out;
  }
};

// ---- batch front end (issue 11, "a thin API") -------------------------------------------------
// tokenize_racks reads text racks by a token table handed over from Python (built there from
// the notation's parser, so both read a token alike); opening_answers_json solves validated racks
// and writes their CONTRACT.md opening objects as JSON. Twins: python/rummy101/_pure/batch.py.

// Python's str.split() separators among ASCII characters.
inline bool is_split_space(unsigned char ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f);
}

inline uint64_t token_key(const unsigned char* p, size_t n) {  // n <= 8
  uint64_t k = 0;
  for (size_t i = 0; i < n; ++i) k |= uint64_t(p[i]) << (8 * i);
  return k | (uint64_t(n) << 60);  // length-tagged: tokens of up to 7 bytes never collide
}

// One rack's codes (in order) and counts, or false when the text needs the Python parser.
bool tokenize_one(PyObject* obj, const std::unordered_map<uint64_t, int>& table, int copies, int max_jokers,
                  bool commas, long long max_tokens, long long max_chars, std::vector<uint8_t>& codes,
                  Counts& counts) {
  if (!PyUnicode_Check(obj) || !PyUnicode_IS_ASCII(obj)) return false;
  Py_ssize_t len = PyUnicode_GET_LENGTH(obj);
  if (len > max_chars) return false;
  const unsigned char* s = PyUnicode_1BYTE_DATA(obj);
  size_t start = codes.size();
  long long n_tokens = 0;
  Py_ssize_t i = 0;
  while (i < len) {
    unsigned char ch = s[i];
    if (is_split_space(ch) || (commas && ch == ',')) {
      ++i;
      continue;
    }
    Py_ssize_t j = i;
    while (j < len && !is_split_space(s[j]) && !(commas && s[j] == ',')) {
      if (s[j] == ',' || s[j] == '[') return false;
      ++j;
    }
    if (j - i > 7) return false;
    auto it = table.find(token_key(s + i, size_t(j - i)));
    if (it == table.end() || ++n_tokens > max_tokens) return false;
    codes.push_back(uint8_t(it->second));
    i = j;
  }
  if (n_tokens == 0) return false;
  counts.fill(0);
  for (size_t k = start; k < codes.size(); ++k) ++counts[codes[k]];
  for (int c = 0; c < NUM_CODES; ++c)
    if (counts[c] > (c == JOKER ? max_jokers : copies)) return false;
  return true;
}

// {token: code} as token_key -> code (tokenize_racks, TokenTable)
std::unordered_map<uint64_t, int> token_keys(py::dict table) {
  std::unordered_map<uint64_t, int> keys;
  for (auto item : table) {
    std::string t = py::cast<std::string>(item.first);
    int code = py::cast<int>(item.second);
    if (t.empty() || t.size() > 7 || code < 0 || code >= NUM_CODES)
      throw std::invalid_argument("token table: a token of 1 to 7 ASCII characters and a code 0..52");
    keys[token_key(reinterpret_cast<const unsigned char*>(t.data()), t.size())] = code;
  }
  return keys;
}

struct TokenTable {
  std::unordered_map<uint64_t, int> keys;
};

struct OpeningJob {
  const CoreRules* cr;
  int must_use, threshold, pairs_threshold;
  bool require_run, pairs_allowed;
  long long budget;
  const std::vector<std::string>* tok;  // JSON-escaped token of every code
  const std::string* rules_json;        // the rules as a JSON string literal
};

void write_meld(std::string& s, const OpeningJob& job, const char* kind, bool run, const std::vector<int>& tiles,
                const std::vector<int>& stand) {
  const auto& tok = *job.tok;
  s += "{\"kind\":\"";
  s += kind;
  s += "\",\"tiles\":[";
  for (size_t i = 0; i < tiles.size(); ++i) {
    if (i) s += ',';
    s += '"';
    s += tok[size_t(tiles[i])];
    s += '"';
  }
  int value = 0;
  if (run) {
    int first = stand[0] % NUM_NUMBERS + 1;
    for (size_t i = 0; i < tiles.size(); ++i) value += job.cr->run_value[size_t(first) + i];
  } else {
    for (int x : stand) value += job.cr->set_value[size_t(x % NUM_NUMBERS + 1)];
  }
  s += "],\"value\":";
  s += std::to_string(value);
  s += ",\"jokers\":{";
  bool any = false;
  for (size_t i = 0; i < tiles.size(); ++i) {
    if (tiles[i] != JOKER) continue;
    if (any) s += ',';
    any = true;
    s += '"';
    s += std::to_string(i);
    s += "\":\"";
    s += tok[size_t(stand[i])];
    s += '"';
  }
  s += "}}";
}

// The opening answer of one validated rack (python/rummy101/service/fast.py's decisions: the
// best runs/sets when they reach the threshold, else enough pairs (R101-8), else kind null with
// the best unconstrained selection). Throws BudgetExceeded.
void opening_json(const OpeningJob& job, const Counts& counts, const uint8_t* codes, size_t n_codes, bool keep,
                  std::string& s) {
  SolveResult res = solve_melds(*job.cr, counts, keep, job.must_use, job.require_run, job.budget);
  const char* kind = "null";
  int value = res.value;
  PairsResult pairs;
  bool use_pairs = false;
  if (!(res.value >= job.threshold && !res.melds.empty())) {
    // at most one pair per two equal real tiles and one per joker (R101-5): below the pairs
    // needed, the pairs search (whose answer could not be used) is not run
    int bound = counts[JOKER];
    for (int c = 0; c < JOKER; ++c) bound += counts[c] / 2;
    if (job.pairs_allowed && bound >= std::max(1, job.pairs_threshold)) {
      pairs = max_pairs(counts, keep, job.must_use, job.budget);
      use_pairs = pairs.n_pairs >= job.pairs_threshold && pairs.n_pairs > 0;
    }
    if (use_pairs) {
      kind = "\"pairs\"";
      value = pairs.n_pairs;
    } else if (value < 0) {  // must_use or the run requirement cannot be met
      res = solve_melds(*job.cr, counts, keep, -1, false, job.budget);
      value = std::max(res.value, 0);
    }
  } else {
    kind = "\"melds\"";
  }
  const auto& tok = *job.tok;
  Counts left = counts;
  s += "{\"rules\":";
  s += *job.rules_json;
  s += ",\"rack\":\"";
  for (size_t i = 0; i < n_codes; ++i) {
    if (i) s += ' ';
    s += tok[codes[i]];
  }
  s += "\",\"kind\":";
  s += kind;
  s += ",\"value\":";
  s += std::to_string(value);
  s += ",\"melds\":[";
  bool first = true;
  if (use_pairs) {
    for (auto [a, b] : pairs.pairs) {
      if (!first) s += ',';
      first = false;
      write_meld(s, job, "pair", false, {a, b}, {a, a});
      --left[size_t(a)];
      --left[size_t(b)];
    }
  } else {
    for (const auto& m : res.melds) {
      if (!first) s += ',';
      first = false;
      write_meld(s, job, m.kind == KIND_RUN ? "run" : "set", m.kind == KIND_RUN, m.tiles, m.stand);
      for (int c : m.tiles) --left[size_t(c)];
    }
  }
  s += "],\"rest\":[";
  first = true;
  for (int c = 0; c < NUM_CODES; ++c)
    for (int k = 0; k < left[size_t(c)]; ++k) {
      if (!first) s += ',';
      first = false;
      s += '"';
      s += tok[size_t(c)];
      s += '"';
    }
  s += "]}";
}

// solve_melds as a plain vectorcall function (issue 11, tenth round): pybind11's dispatcher cost
// ~2,000 instructions a call on top of the search. A call with 5 or 6 positional arguments of
// the exact types (a CoreRules, a list or tuple of 53 ints, True/False, ints) is answered here;
// any other call (keywords, numpy values, bad input) goes to the pybind11 function, which reads
// and checks its arguments and raises its errors as before.
py::object* solve_melds_checked = nullptr;  // the pybind11 function (module lifetime, never freed)
std::string solve_melds_doc;

bool exact_bool(PyObject* o, bool& out) {
  if (o == Py_True) { out = true; return true; }
  if (o == Py_False) { out = false; return true; }
  return false;
}

bool exact_int(PyObject* o, long long lo, long long hi, long long& out) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  out = PyLong_AsLongLongAndOverflow(o, &overflow);
  return !overflow && out >= lo && out <= hi;
}

// The fast path of solve_melds (Value = false) and solve_melds_value (Value = true, issue 11,
// forty-first round: the value alone, without the rebuild of the arrangement, for the callers
// that read only the value; its floor, the seventh argument, since the forty-second round). Any
// call that is not 5-6 (solve_melds) or 5-7 (solve_melds_value) exact positional arguments goes
// to `checked`, the pybind11 function.
template <bool Value>
PyObject* solve_vectorcall(py::object* checked, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  py::detail::make_caster<CoreRules> cr;
  Counts counts{};
  bool keep = false, require_run = false;
  long long must_use = 0, budget = DEFAULT_WORK_BUDGET, floor = -1;
  bool fast = kwnames == nullptr && nargs >= 5 && nargs <= (Value ? 7 : 6) && cr.load(args[0], false) &&
              read_counts_fast(args[1], counts) && exact_bool(args[2], keep) &&
              exact_int(args[3], INT_MIN, INT_MAX, must_use) && exact_bool(args[4], require_run) &&
              (nargs < 6 || exact_int(args[5], LLONG_MIN, LLONG_MAX, budget)) &&
              (nargs < 7 || exact_int(args[6], INT_MIN, INT_MAX, floor));
  if (!fast) return PyObject_Vectorcall(checked->ptr(), args, size_t(nargs), kwnames);
  try {
    const CoreRules& rules = py::detail::cast_op<const CoreRules&>(cr);
    if constexpr (Value) {
      int v;
      {
        py::gil_scoped_release release;
        v = solve_melds_value(rules, counts, keep, int(must_use), require_run, budget, int(floor));
      }
      return PyLong_FromLong(long(v));
    } else {
      SolveResult r;
      {
        py::gil_scoped_release release;
        r = solve_melds(rules, counts, keep, int(must_use), require_run, budget);
      }
      return to_py(r).release().ptr();
    }
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  } catch (...) {
    py::detail::try_translate_exceptions();  // the module's translators, as pybind11 would
    return nullptr;
  }
}

PyObject* solve_melds_vectorcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return solve_vectorcall<false>(solve_melds_checked, args, nargs, kwnames);
}

py::object* solve_value_checked = nullptr;  // the pybind11 solve_melds_value (never freed)
std::string solve_value_doc;

PyObject* solve_value_vectorcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return solve_vectorcall<true>(solve_value_checked, args, nargs, kwnames);
}

PyMethodDef solve_value_def = {"solve_melds_value", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(
                                                        &solve_value_vectorcall)),
                               METH_FASTCALL | METH_KEYWORDS, nullptr};

PyMethodDef solve_melds_def = {"solve_melds", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(
                                                  &solve_melds_vectorcall)),
                               METH_FASTCALL | METH_KEYWORDS, nullptr};

std::string shape_text(const py::array& a) {
  std::string shape = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    if (i) shape += ", ";
    shape += std::to_string(a.shape(i));
  }
  return shape + (a.ndim() == 1 ? ",)" : ")");
}

// The racks of a (n, 53) count array (solve_melds_batch, solve_melds_packed).
std::vector<Counts> rack_rows(const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& counts) {
  if (counts.ndim() != 2 || counts.shape(1) != NUM_CODES)
    throw std::invalid_argument("counts must have shape (n, 53), got " + shape_text(counts));
  py::ssize_t n = counts.shape(0);
  std::vector<Counts> racks(static_cast<size_t>(n));
  auto buf = counts.unchecked<2>();
  for (py::ssize_t i = 0; i < n; ++i)
    for (int j = 0; j < NUM_CODES; ++j) {
      int v = buf(i, j);
      if (v > 64) throw std::invalid_argument("tile count out of range at code " + std::to_string(j));
      racks[size_t(i)][j] = v;
    }
  return racks;
}

// Solves every rack of a batch with the GIL released: solve(i, rack) for each; a rack whose
// search spends its budget gets spent(i) instead, and the others keep their answers.
template <class Solve, class Spent>
void each_rack(const std::vector<Counts>& racks, Solve solve, Spent spent) {
  py::gil_scoped_release release;
  for (size_t i = 0; i < racks.size(); ++i) {
    try {
      solve(i, racks[i]);
    } catch (const BudgetExceeded&) {
      spent(i);
    }
  }
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
  // the same function behind the plain vectorcall entry (solve_melds_vectorcall above)
  solve_melds_checked = new py::object(m.attr("solve_melds"));
  solve_melds_doc = py::str(solve_melds_checked->attr("__doc__"));
  solve_melds_def.ml_doc = solve_melds_doc.c_str();
  py::object name = m.attr("__name__");
  m.attr("solve_melds") = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&solve_melds_def, nullptr, name.ptr()));

  m.def(
      "solve_melds_value",
      [](const CoreRules& cr, const std::vector<int>& counts, bool keep, int must_use, bool require_run,
         long long budget, int floor) {
        Counts c = to_counts(counts);
        py::gil_scoped_release release;
        return solve_melds_value(cr, c, keep, must_use, require_run, budget, floor);
      },
      py::arg("cr"), py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("require_run"),
      py::arg("budget") = DEFAULT_WORK_BUDGET, py::arg("floor") = -1,
      "solve_melds(...)[0] without building the arrangement: the same value (-1 if none), from the\n"
      "same search, which stops at the same node. Raises rummy101.errors.WorkBudgetExceeded when\n"
      "the value search needs more than `budget` nodes (the rebuild's nodes are not counted).\n"
      "floor >= 0: the value if it is above floor, else -1, from a search that cuts every state\n"
      "that cannot pass floor.");
  solve_value_checked = new py::object(m.attr("solve_melds_value"));
  solve_value_doc = py::str(solve_value_checked->attr("__doc__"));
  solve_value_def.ml_doc = solve_value_doc.c_str();
  m.attr("solve_melds_value") =
      py::reinterpret_steal<py::object>(PyCFunction_NewEx(&solve_value_def, nullptr, name.ptr()));

  m.def(
      "solve_values_batch",
      [](const CoreRules& cr, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> counts, bool keep,
         int must_use, bool require_run, long long budget) {
        check_budget(budget);
        std::vector<Counts> racks = rack_rows(counts);
        py::ssize_t n = py::ssize_t(racks.size());
        py::array_t<int64_t> values(n);
        int64_t* vp = values.mutable_data();
        each_rack(
            racks,
            [&](size_t i, const Counts& rack) { vp[i] = solve_melds_value(cr, rack, keep, must_use, require_run, budget); },
            [&](size_t i) { vp[i] = BUDGET_SPENT; });
        return values;
      },
      py::arg("cr"), py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("require_run"),
      py::arg("budget") = DEFAULT_WORK_BUDGET,
      "solve_melds_value on every row of a (n, 53) uint8 array, with the GIL released while solving:\n"
      "the values as a (n,) int64 array; a rack that spends its budget (each rack has its own) gets\n"
      "BUDGET_SPENT.");

  m.def(
      "_solver_table_bytes",
      []() {
        py::dict d;
        for (const auto& kv : solver_table_bytes()) d[py::str(kv.first)] = kv.second;
        return d;
      },
      "Bytes the calling thread's solver tables hold, by table (memory accounting; native only).");

  m.def(
      "solve_melds_batch",
      [](const CoreRules& cr, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> counts, bool keep,
         int must_use, bool require_run, long long budget) {
        check_budget(budget);
        std::vector<Counts> racks = rack_rows(counts);
        py::ssize_t n = py::ssize_t(racks.size());
        std::vector<SolveResult> out(static_cast<size_t>(n));
        each_rack(
            racks, [&](size_t i, const Counts& rack) { out[i] = solve_melds(cr, rack, keep, must_use, require_run, budget); },
            [&](size_t i) { out[i].value = BUDGET_SPENT; });
        py::list res;
        for (const auto& r : out) res.append(to_py(r));
        return res;
      },
      py::arg("cr"), py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("require_run"),
      py::arg("budget") = DEFAULT_WORK_BUDGET,
      "solve_melds on every row of a (n, 53) uint8 array, with the GIL released while solving; a rack\n"
      "that spends its budget (each rack has its own) gets (BUDGET_SPENT, []).");

  py::class_<SolvedMelds>(m, "SolvedMelds",
                          "The melds of a batch's racks (solve_melds_packed), packed until read:\n"
                          "melds[i] is rack i's list of (kind, tiles, stand_for), as solve_melds gives it.")
      .def("__len__", [](const SolvedMelds& s) { return s.count.size(); })
      .def("__getitem__", &SolvedMelds::melds, py::arg("i"));

  m.def(
      "solve_melds_packed",
      [](const CoreRules& cr, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> counts, bool keep,
         int must_use, bool require_run, long long budget) {
        check_budget(budget);
        std::vector<Counts> racks = rack_rows(counts);
        py::ssize_t n = py::ssize_t(racks.size());
        py::array_t<int64_t> values(n);
        int64_t* vp = values.mutable_data();
        auto packed = std::make_unique<SolvedMelds>();
        packed->start.reserve(size_t(n) + 1);
        packed->count.reserve(size_t(n));
        packed->data.reserve(size_t(n) * 48);
        packed->start.push_back(0);
        auto add = [&](size_t i, const SolveResult& r) {
          vp[i] = r.value;
          packed->add(r);
        };
        each_rack(
            racks, [&](size_t i, const Counts& rack) { add(i, solve_melds(cr, rack, keep, must_use, require_run, budget)); },
            [&](size_t i) {
              SolveResult r{};
              r.value = BUDGET_SPENT;  // this rack only; the others keep their answers
              add(i, r);
            });
py::array_t<int32_t> sizes(n);
        std::copy(packed->count.begin(), packed->count.end(), sizes.mutable_data());
        return py::make_tuple(values, sizes, py::cast(std::move(packed)));
      },
      py::arg("cr"), py::arg("counts"), py::arg("keep"), py::arg("must_use"), py::arg("require_run"),
      py::arg("budget") = DEFAULT_WORK_BUDGET,
      "solve_melds_batch with the answers packed: (values (n,) int64, sizes (n,) int32: melds per\n"
      "rack, melds: SolvedMelds, melds[i] built when read). A rack that spends its budget (each rack\n"
      "has its own) gets the value BUDGET_SPENT and no melds.");

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

  m.def(
      "tokenize_racks",
      [](py::sequence texts, py::dict table, int copies, int max_jokers, bool commas, long long max_tokens,
         long long max_chars) {
        const std::unordered_map<uint64_t, int> keys = token_keys(table);
        py::ssize_t n = py::len(texts);
        py::array_t<uint8_t> counts({n, py::ssize_t(NUM_CODES)});
        py::array_t<int64_t> offsets(n + 1);
        py::array_t<bool> ok(n);
        auto cnt = counts.mutable_unchecked<2>();
        auto off = offsets.mutable_unchecked<1>();
        auto okv = ok.mutable_unchecked<1>();
        std::vector<uint8_t> codes;
        codes.reserve(size_t(n) * 22);
        Counts c{};
        off(0) = 0;
        for (py::ssize_t i = 0; i < n; ++i) {
          py::object item = texts[i];
          size_t mark = codes.size();
          bool good = tokenize_one(item.ptr(), keys, copies, max_jokers, commas, max_tokens, max_chars, codes, c);
          if (!good) {
            codes.resize(mark);
            c.fill(0);
          }
          for (int j = 0; j < NUM_CODES; ++j) cnt(i, j) = uint8_t(c[size_t(j)]);
          okv(i) = good;
          off(i + 1) = int64_t(codes.size());
        }
        py::array_t<uint8_t> code_arr(py::ssize_t(codes.size()));
        std::copy(codes.begin(), codes.end(), code_arr.mutable_data());
        return py::make_tuple(counts, code_arr, offsets, ok);
      },
      py::arg("texts"), py::arg("table"), py::arg("copies"), py::arg("max_jokers"), py::arg("commas"),
      py::arg("max_tokens"), py::arg("max_chars"),
      "Read text racks by a token table {token: code}: (counts (n, 53) uint8, codes (m,) uint8 in rack\n"
      "order, offsets (n + 1,) int64, ok (n,) bool). A rack is ok when it is an ASCII str of at most\n"
      "max_chars characters whose tokens (split as str.split() does, and on ',' when commas) are all in\n"
      "the table, 1 to max_tokens of them, within copies per tile and max_jokers jokers; any other rack\n"
      "(no '[' and, without commas, no ',' allowed) gets ok False, zero counts and no codes: the caller\n"
      "reads it with the full parser, which gives the answer or the error message.");

  // One text rack's counts (solve.py's single-rack calls: solve_opening, solve_penalty, ...). The
  // table is converted once and kept (tokenize_racks converts its dict on every call, which is
  // nothing beside a batch but about as much as the read itself for one rack).
  py::class_<TokenTable>(m, "TokenTable",
                         "A token table {token: code} read once, for reading one text rack at a time.")
      .def(py::init([](py::dict table) {
             TokenTable t;
             t.keys = token_keys(table);
             return t;
           }),
           py::arg("table"))
      .def(
          "counts",
          [](const TokenTable& t, py::handle text, int copies, int max_jokers) -> py::object {
            std::vector<uint8_t> codes;
            Counts c{};
            if (!tokenize_one(text.ptr(), t.keys, copies, max_jokers, false, LLONG_MAX, LLONG_MAX, codes, c))
              return py::none();
            py::list out(NUM_CODES);
            for (int j = 0; j < NUM_CODES; ++j) PyList_SET_ITEM(out.ptr(), j, PyLong_FromLong(c[size_t(j)]));
            return std::move(out);
          },
          py::arg("text"), py::arg("copies"), py::arg("max_jokers"),
          "The count vector (a list of 53 ints) of one text rack that tokenize_racks would read as ok\n"
          "(commas False, no limits on tokens or characters), or None: the caller's full parser reads\n"
          "it, which gives the answer or the error message.");

  m.def(
      "opening_answers_json",
      [](const CoreRules& cr, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> counts,
         py::array_t<uint8_t, py::array::c_style | py::array::forcecast> codes,
         py::array_t<int64_t, py::array::c_style | py::array::forcecast> offsets,
         py::array_t<uint8_t, py::array::c_style | py::array::forcecast> keeps, int must_use, bool require_run,
         long long budget, int threshold, int pairs_threshold, bool pairs_allowed, std::vector<std::string> tokens,
         std::string rules_json) {
        check_budget(budget);
        if (counts.ndim() != 2 || counts.shape(1) != NUM_CODES)
          throw std::invalid_argument("counts must have shape (n, 53), got " + shape_text(counts));
        py::ssize_t n = counts.shape(0);
        if (offsets.ndim() != 1 || offsets.shape(0) != n + 1)
          throw std::invalid_argument("offsets must have shape (n + 1,), got " + shape_text(offsets));
        if (keeps.ndim() != 1 || keeps.shape(0) != n)
          throw std::invalid_argument("keeps must have shape (n,), got " + shape_text(keeps));
        if (tokens.size() != size_t(NUM_CODES)) throw std::invalid_argument("tokens must have 53 entries");
        if (threshold < 0 || pairs_threshold < 0) throw std::invalid_argument("thresholds must be >= 0");
        const uint8_t* cd = codes.data();
        const int64_t* off = offsets.data();
        py::ssize_t n_codes = codes.ndim() == 1 ? codes.shape(0) : -1;
        if (n_codes < 0) throw std::invalid_argument("codes must be one-dimensional");
        std::vector<Counts> racks(static_cast<size_t>(n));
        auto buf = counts.unchecked<2>();
        for (py::ssize_t i = 0; i < n; ++i) {
          if (off[i] < 0 || off[i] > off[i + 1] || off[i + 1] > n_codes)
            throw std::invalid_argument("offsets must rise from 0 to at most len(codes)");
          Counts in_order{};
          for (int64_t k = off[i]; k < off[i + 1]; ++k) {
            if (cd[k] >= NUM_CODES) throw std::invalid_argument("tile code out of range: " + std::to_string(cd[k]));
            ++in_order[cd[k]];
          }
          for (int j = 0; j < NUM_CODES; ++j) {
            racks[size_t(i)][size_t(j)] = buf(i, j);
            if (in_order[size_t(j)] != buf(i, j))
              throw std::invalid_argument("rack " + std::to_string(i) + ": its codes and counts differ");
          }
        }
        OpeningJob job{&cr, must_use, threshold, pairs_threshold, require_run, pairs_allowed, budget, &tokens,
                       &rules_json};
        const uint8_t* kp = keeps.data();
        std::vector<std::string> out(static_cast<size_t>(n));
        std::vector<char> spent(static_cast<size_t>(n), 0);
        {
          py::gil_scoped_release release;
          for (py::ssize_t i = 0; i < n; ++i) {
            try {
              out[size_t(i)].reserve(512);
              opening_json(job, racks[size_t(i)], cd + off[i], size_t(off[i + 1] - off[i]), kp[i] != 0,
                           out[size_t(i)]);
            } catch (const BudgetExceeded&) {
              spent[size_t(i)] = 1;  // this rack only; the others keep their answers
            }
          }
        }
        py::list res(n);
        for (py::ssize_t i = 0; i < n; ++i) {
          if (spent[size_t(i)])
            res[size_t(i)] = py::none();
          else
            res[size_t(i)] = py::bytes(out[size_t(i)]);
        }
        return res;
      },
      py::arg("cr"), py::arg("counts"), py::arg("codes"), py::arg("offsets"), py::arg("keeps"), py::arg("must_use"),
      py::arg("require_run"), py::arg("budget"), py::arg("threshold"), py::arg("pairs_threshold"),
      py::arg("pairs_allowed"), py::arg("tokens"), py::arg("rules_json"),
      "CONTRACT.md opening objects, as compact UTF-8 JSON, of validated racks (rows of counts; rack i's\n"
      "codes in order are codes[offsets[i]:offsets[i + 1]]; keeps[i]: a tile stays to discard), solved\n"
      "with the GIL released: the best runs/sets when worth >= threshold, else >= pairs_threshold pairs\n"
      "(pairs_allowed), else kind null with the best selection. tokens: the JSON-escaped token of each\n"
      "code; rules_json: the rules as a JSON string. None for a rack that spent its budget.");
}
