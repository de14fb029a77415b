// See common.h.
#include "common.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "interp/npy.h"
#include "numerics/format.h"
#include "numerics/scalar.h"

namespace kir::py_kir {

namespace {

PyObject* g_kir_error = nullptr;  // intent._kir.KirError (a new reference, kept for the process)

py::dict diag_dict(const DiagInfo& d) {
  py::dict x;
  x["file"] = d.file;
  x["line"] = d.line;
  x["col"] = d.col;
  x["severity"] = d.severity;
  x["rule"] = d.rule;
  x["message"] = d.message;
  for (const auto& [k, v] : d.extra) x[py::str(k)] = v;
  return x;
}

void raise_kir_error(const KirFailure& f) {
  py::list diags;
  for (const auto& d : f.diags) diags.append(diag_dict(d));
  py::object type = py::reinterpret_borrow<py::object>(g_kir_error);
  py::object err = type(py::str(f.text), diags);
  py::list trace;
  for (const auto& t : f.trace) trace.append(t);
  err.attr("trace") = trace;
  PyErr_SetObject(g_kir_error, err.ptr());
}

// The Python side of KirError: an Exception whose `diagnostics` is a list of dicts.
const char* kKirErrorSource = R"PY(
class KirError(Exception):
    """A kir failure: parse, normalization or verification diagnostics, an interpreter error,
    a backend failure, or a bad argument.

    str(e) is the rendered diagnostics, one per line (`file:line:col: error[RULE]: message`, the
    text the `kir` command line prints, without source excerpts) or the run-time error's message.
    e.diagnostics is a list of dicts {"file", "line", "col", "severity", "rule", "message"} (run-time
    errors add "op", "coords" and "kind"); it is empty when the error names no location.
    e.trace: the --trace lines of a run(trace=True) up to the error (else empty).
    """

    def __init__(self, message="", diagnostics=None, trace=None):
        super().__init__(message)
        self.diagnostics = list(diagnostics) if diagnostics else []
        self.trace = list(trace) if trace else []
)PY";

}  // namespace

bool parse_location(const std::string& loc, std::string& file, int64_t& line, int64_t& col) {
  const size_t c2 = loc.rfind(':');
  if (c2 == std::string::npos || c2 == 0) return false;
  const size_t c1 = loc.rfind(':', c2 - 1);
  if (c1 == std::string::npos) return false;
  const std::string l = loc.substr(c1 + 1, c2 - c1 - 1), c = loc.substr(c2 + 1);
  auto digits = [](const std::string& s) { return !s.empty() && s.size() < 10 && s.find_first_not_of("0123456789") == std::string::npos; };
  if (!digits(l) || !digits(c)) return false;
  file = loc.substr(0, c1);
  line = std::stoll(l);
  col = std::stoll(c);
  return line > 0;
}

KirFailure failure_from(const Diagnostics& diags) {
  std::vector<DiagInfo> out;
  for (const auto& d : diags.all()) {
    DiagInfo x;
    if (d.loc.known()) {
      x.file = d.loc.file ? *d.loc.file : std::string("<input>");
      x.line = d.loc.line;
      x.col = d.loc.col;
    } else if (d.loc.file) {
      x.file = *d.loc.file;
    }
    x.severity = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    x.rule = d.rule;
    x.message = d.message;
    out.push_back(std::move(x));
  }
  std::string text = diags.render("");
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.empty()) text = "kir: failed without diagnostics";
  return KirFailure(text, std::move(out));
}

KirFailure failure_from(const interp::RuntimeError& e) {
  std::vector<DiagInfo> out;
  DiagInfo x;
  if (parse_location(e.location(), x.file, x.line, x.col)) {
    x.rule = interp::kind_name(e.kind());
    x.message = e.op().empty() ? e.message() : "op '" + e.op() + "': " + e.message();
    if (!e.coords().empty()) x.message += " at " + e.coords();
    x.extra["kind"] = interp::kind_name(e.kind());
    x.extra["op"] = e.op();
    x.extra["coords"] = e.coords();
    out.push_back(std::move(x));
  }
  return KirFailure(e.what(), std::move(out));
}

std::vector<DiagInfo> diags_in_text(const std::string& text) {
  // "file:line:col: something[rule]: message" at the start of a line.
  std::vector<DiagInfo> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // The location ends at the first ": " after a "digits:digits" pair.
    size_t pos = 0;
    while ((pos = line.find(": ", pos)) != std::string::npos) {
      DiagInfo d;
      if (parse_location(line.substr(0, pos), d.file, d.line, d.col)) {
        std::string rest = line.substr(pos + 2);
        const size_t open = rest.find('['), close = rest.find("]: ");
        if (open != std::string::npos && close != std::string::npos && open < close) {
          d.rule = rest.substr(open + 1, close - open - 1);
          rest = rest.substr(close + 3);
        }
        d.message = rest;
        out.push_back(std::move(d));
        break;
      }
      pos += 2;
    }
  }
  return out;
}

void register_kir_error(py::module_& m) {
  py::dict scope;
  scope["__builtins__"] = py::module_::import("builtins");
  scope["__name__"] = "intent._kir";
  py::exec(kKirErrorSource, scope);
  py::object cls = scope["KirError"];
  cls.attr("__module__") = "intent._kir";
  g_kir_error = cls.inc_ref().ptr();
  m.attr("KirError") = cls;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const KirFailure& f) {
      raise_kir_error(f);
    } catch (const interp::RuntimeError& e) {
      raise_kir_error(failure_from(e));
    }
  });
}

// ---- plain arguments ----

namespace {
std::string repr_of(py::handle v) { return py::repr(v).cast<std::string>(); }
bool is_int(py::handle v) {
  return (py::isinstance<py::int_>(v) || py::hasattr(v, "__index__")) && !py::isinstance<py::bool_>(v) &&
         !py::isinstance<py::float_>(v);
}
}  // namespace

std::optional<std::string> opt_str(py::handle v, const std::string& what) {
  if (v.is_none()) return std::nullopt;
  if (!py::isinstance<py::str>(v)) throw KirFailure(what + " takes a str, got " + repr_of(v));
  return v.cast<std::string>();
}

std::vector<std::string> str_list(py::handle v, const std::string& what) {
  std::vector<std::string> out;
  if (v.is_none()) return out;
  if (py::isinstance<py::str>(v)) return {v.cast<std::string>()};
  if (!py::isinstance<py::iterable>(v)) throw KirFailure(what + " takes a list of str, got " + repr_of(v));
  for (auto x : v) {
    if (!py::isinstance<py::str>(x)) throw KirFailure(what + " takes a list of str, got an element " + repr_of(x));
    out.push_back(x.cast<std::string>());
  }
  return out;
}

std::optional<int64_t> opt_int(py::handle v, const std::string& what) {
  if (v.is_none()) return std::nullopt;
  if (!is_int(v)) throw KirFailure(what + " takes an int, got " + repr_of(v));
  try {
    return py::int_(py::reinterpret_borrow<py::object>(v)).cast<int64_t>();
  } catch (const std::exception&) {
    throw KirFailure(what + " is out of range: " + repr_of(v));
  }
}

uint64_t u64_arg(py::handle v, const std::string& what) {
  if (!is_int(v)) throw KirFailure(what + " takes an int, got " + repr_of(v));
  py::int_ i(py::reinterpret_borrow<py::object>(v));
  if (i < py::int_(0)) throw KirFailure(what + " must be in [0, 2^64), got " + repr_of(v));
  try {
    return i.cast<uint64_t>();
  } catch (const std::exception&) {
    throw KirFailure(what + " must be in [0, 2^64), got " + repr_of(v));
  }
}

std::optional<double> opt_float(py::handle v, const std::string& what) {
  if (v.is_none()) return std::nullopt;
  if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::float_>(v) || is_int(v) || py::hasattr(v, "__float__")))
    throw KirFailure(what + " takes a number, got " + repr_of(v));
  return py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
}

// ---- dtypes and arrays ----

DType dtype_arg(const std::string& n) {
  auto d = parse_dtype(n);
  if (!d) {
    std::string names;
    for (int i = 0; i < kNumDTypes; ++i) names += (i ? ", " : "") + std::string(name(static_cast<DType>(i)));
    throw KirFailure("unknown dtype '" + n + "' (one of " + names + ")");
  }
  return *d;
}

py::dtype carrier_dtype(DType d) { return py::dtype(interp::npy_descr(d)); }

bool has_dtype(py::handle arr, const py::dtype& want) {
  py::object got = arr.attr("dtype");
  const int r = PyObject_RichCompareBool(got.ptr(), want.ptr(), Py_EQ);
  if (r < 0) throw py::error_already_set();
  return r == 1;
}

bool has_native_numpy_type(DType d) { return d != DType::BF16 && !is_small_float(d); }

namespace {

py::module_ numpy() { return py::module_::import("numpy"); }

std::string dtype_str(py::handle arr) { return py::str(arr.attr("dtype")).cast<std::string>(); }

// Copies a C-contiguous array of d's carrier dtype into bit patterns.
Bits read_carrier(const py::array& a, DType d, const std::string& what) {
  Bits out;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) out.shape.push_back(static_cast<int64_t>(a.shape(i)));
  const size_t n = static_cast<size_t>(a.size());
  const size_t isz = static_cast<size_t>(a.itemsize());
  out.bits.resize(n);
  const auto* p = static_cast<const uint8_t*>(a.data());
  const uint64_t mask = num::width_mask(d);
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, p + i * isz, isz);  // little-endian host (x86-64)
    if (d == DType::Bool) v = v != 0;
    else if (v & ~mask)
      throw KirFailure(what + ": element " + std::to_string(i) + " = " + std::to_string(v) + " is not a " +
                       std::string(name(d)) + " bit pattern (" + std::to_string(info(d).bits) + " bits)");
    out.bits[i] = v;
  }
  return out;
}

Bits from_float_values(const py::array& values, DType d) {
  py::array f = numpy().attr("asarray")(values, "float64", "C");  // asarray keeps 0-d arrays 0-d
  Bits out;
  for (py::ssize_t i = 0; i < f.ndim(); ++i) out.shape.push_back(static_cast<int64_t>(f.shape(i)));
  const auto* p = static_cast<const double*>(f.data());
  out.bits.resize(static_cast<size_t>(f.size()));
  for (size_t i = 0; i < out.bits.size(); ++i) out.bits[i] = num::from_double(p[i], d);
  return out;
}

}  // namespace

Bits array_bits(py::handle given, DType d, const std::string& what) {
  py::object obj = py::reinterpret_borrow<py::object>(given);  // owns what it is reassigned to below
  py::module_ np = numpy();
  // An intent Array: raw bits tagged with a kir dtype.
  if (py::hasattr(obj, "bits") && py::hasattr(obj, "dtype") && py::isinstance<py::str>(obj.attr("dtype"))) {
    const std::string tag = obj.attr("dtype").cast<std::string>();
    if (tag != name(d))
      throw KirFailure(what + ": expected " + std::string(name(d)) + " elements, got an Array of " + tag);
    obj = obj.attr("bits");
  }
  const py::dtype want = carrier_dtype(d);
  py::array a;
  if (py::isinstance<py::array>(obj)) {
    a = py::reinterpret_borrow<py::array>(obj);
    if (!has_dtype(a, want)) {
      const std::string got = dtype_str(a);
      throw KirFailure(what + ": expected " + std::string(name(d)) + " elements (a NumPy array of dtype " +
                       py::str(py::reinterpret_borrow<py::object>(want)).cast<std::string>() +
                       (has_native_numpy_type(d) ? "" : ", its bit patterns, or an intent Array") + "), got dtype " + got);
    }
  } else {
    // Lists, tuples, Python and NumPy scalars: converted where no value can change silently.
    py::array v;
    try {
      v = np.attr("asarray")(obj);
    } catch (const py::error_already_set& e) {
      throw KirFailure(what + ": not an array: " + std::string(e.what()));
    }
    const char kind = v.dtype().kind();
    if (d == DType::Bool) {
      if (kind != 'b') throw KirFailure(what + ": expected bool elements, got " + dtype_str(v));
      a = v;
    } else if (is_integer(d)) {
      if (kind != 'i' && kind != 'u' && kind != 'b')
        throw KirFailure(what + ": expected " + std::string(name(d)) + " (integer) elements, got " + dtype_str(v));
      py::object converted = v.attr("astype")(want);
      if (!np.attr("array_equal")(converted, v).cast<bool>())
        throw KirFailure(what + ": some elements do not fit " + std::string(name(d)));
      a = converted;
    } else {
      if (kind != 'f' && kind != 'i' && kind != 'u')
        throw KirFailure(what + ": expected " + std::string(name(d)) + " (float) elements, got " + dtype_str(v));
      if (!has_native_numpy_type(d)) return from_float_values(v, d);
      a = v.attr("astype")(want);
    }
  }
  py::array c = np.attr("asarray")(a, py::none(), "C");  // not ascontiguousarray: it makes 0-d arrays 1-d
  return read_carrier(c, d, what);
}

py::array bits_array(DType d, const interp::Shape& shape, const std::vector<uint64_t>& bits) {
  std::vector<py::ssize_t> sh(shape.begin(), shape.end());
  py::array a(carrier_dtype(d), sh);
  const size_t isz = static_cast<size_t>(a.itemsize());
  auto* p = static_cast<uint8_t*>(a.mutable_data());
  const size_t n = std::min(bits.size(), static_cast<size_t>(a.size()));
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = bits[i];
    if (d == DType::Bool) v = v != 0;
    std::memcpy(p + i * isz, &v, isz);
  }
  return a;
}

py::object json_to_python(const std::string& json_text) {
  return py::module_::import("json").attr("loads")(json_text);
}

}  // namespace kir::py_kir
