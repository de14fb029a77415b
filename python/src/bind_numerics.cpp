// intent._kir's numerics functions (intent.numerics wraps them): kir's exact conversions, ULP
// distances, Philox random bits and the uniform conversion, and one pointwise op evaluated by the
// interpreter itself (a one-op helper run through interp::Interpreter::call_helper), so every
// result is the bits the interpreter computes. Arrays travel as carriers (bf16 as uint16, ...).
#include <pybind11/stl.h>

#include <cctype>
#include <mutex>
#include <sstream>

#include "common.h"
#include "interp/interpreter.h"
#include "kir/load.h"
#include "numerics/cast.h"
#include "numerics/format.h"
#include "numerics/philox.h"
#include "numerics/value_text.h"

namespace kir::py_kir {

namespace {

py::array as_u64(py::handle counters) {
  py::module_ np = py::module_::import("numpy");
  py::array v = np.attr("asarray")(counters);
  const char kind = v.dtype().kind();
  if (kind != 'i' && kind != 'u') throw KirFailure("counters must be non-negative integers, got " + py::str(v.attr("dtype")).cast<std::string>());
  if (v.size() && np.attr("any")(np.attr("less")(v, 0)).cast<bool>()) throw KirFailure("counters must be non-negative");
  return np.attr("asarray")(v, "uint64", "C");
}

interp::Shape shape_of(const py::array& a) {
  interp::Shape s;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s.push_back(static_cast<int64_t>(a.shape(i)));
  return s;
}

py::dict dtype_info(const std::string& n) {
  const DType d = dtype_arg(n);
  const auto& i = info(d);
  static const char* classes[] = {"bool", "signed", "unsigned", "index", "float", "small-float", "scale"};
  py::dict out;
  out["name"] = std::string(i.name);
  out["bits"] = i.bits;
  out["class"] = classes[static_cast<int>(i.cls)];
  out["carrier"] = carrier_dtype(d);
  out["float"] = is_any_float(d);
  return out;
}

py::array from_float(py::handle values, const std::string& dtype) {
  const DType d = dtype_arg(dtype);
  if (!is_any_float(d)) throw KirFailure("from_float needs a float dtype, got " + dtype);
  py::array v = py::module_::import("numpy").attr("asarray")(values, "float64", "C");
  std::vector<uint64_t> bits(static_cast<size_t>(v.size()));
  const auto* p = static_cast<const double*>(v.data());
  for (size_t i = 0; i < bits.size(); ++i) bits[i] = num::from_double(p[i], d);
  return bits_array(d, shape_of(v), bits);
}

py::array to_float64(py::handle bits, const std::string& dtype) {
  const DType d = dtype_arg(dtype);
  if (!is_any_float(d)) throw KirFailure("to_float64 needs a float dtype, got " + dtype);
  Bits b = array_bits(bits, d, "bits");
  std::vector<py::ssize_t> sh(b.shape.begin(), b.shape.end());
  py::array_t<double> out(sh);
  double* p = out.mutable_data();
  for (size_t i = 0; i < b.bits.size(); ++i) p[i] = num::to_double(b.bits[i], d);
  return out;
}

py::array cast(py::handle values, const std::string& src, const std::string& to, bool bit) {
  const DType s = dtype_arg(src), t = dtype_arg(to);
  Bits b = array_bits(values, s, "values");
  std::vector<uint64_t> out(b.bits.size());
  for (size_t i = 0; i < b.bits.size(); ++i) {
    num::Scalar x{s, b.bits[i]};
    auto r = bit ? num::bitcast(x, t) : num::cast(x, t);
    if (!r)
      throw KirFailure(std::string(bit ? "bitcast" : "cast") + " " + src + " -> " + to + ": element " +
                       interp::coord_str(interp::unravel(static_cast<int64_t>(i), b.shape)) + " = " + num::format_value(x) +
                       ": " + r.error().message);
    out[i] = r->bits;
  }
  return bits_array(t, b.shape, out);
}

py::array ulp_distance(py::handle a, py::handle b, const std::string& dtype) {
  const DType d = dtype_arg(dtype);
  if (!is_any_float(d)) throw KirFailure("ulp_distance needs a float dtype, got " + dtype);
  Bits x = array_bits(a, d, "a"), y = array_bits(b, d, "b");
  if (x.shape != y.shape)
    throw KirFailure("ulp_distance: shapes " + interp::shape_str(x.shape) + " and " + interp::shape_str(y.shape) + " differ");
  std::vector<py::ssize_t> sh(x.shape.begin(), x.shape.end());
  py::array_t<uint64_t> out(sh);
  uint64_t* p = out.mutable_data();
  for (size_t i = 0; i < x.bits.size(); ++i) {
    if (num::is_nan(x.bits[i], d) || num::is_nan(y.bits[i], d))
      throw KirFailure("ulp distance is undefined for NaN (element " +
                       interp::coord_str(interp::unravel(static_cast<int64_t>(i), x.shape)) + ")");
    p[i] = num::ulp_distance(x.bits[i], y.bits[i], d);
  }
  return out;
}

py::object philox(uint64_t seed, py::handle counter) {
  if (py::isinstance<py::int_>(counter)) return py::int_(num::random_bits(seed, u64_arg(counter, "counter")));
  py::array c = as_u64(counter);
  std::vector<py::ssize_t> sh;
  for (py::ssize_t i = 0; i < c.ndim(); ++i) sh.push_back(c.shape(i));
  py::array_t<uint32_t> out(sh);
  const auto* in = static_cast<const uint64_t*>(c.data());
  uint32_t* p = out.mutable_data();
  for (py::ssize_t i = 0; i < c.size(); ++i) p[i] = num::random_bits(seed, in[i]);
  return out;
}

py::array uniform(uint64_t seed, py::handle counter, const std::string& dtype) {
  const DType d = dtype_arg(dtype);
  py::array c = as_u64(counter);
  std::vector<uint64_t> out(static_cast<size_t>(c.size()));
  const auto* in = static_cast<const uint64_t*>(c.data());
  for (size_t i = 0; i < out.size(); ++i) {
    auto r = num::uniform(num::random_bits(seed, in[i]), d);
    if (!r) throw KirFailure("uniform: " + r.error().message);
    out[i] = r->bits;
  }
  return bits_array(d, shape_of(c), out);
}

// ---- eval: one op through the interpreter ----

bool identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.')) return false;
  return true;
}

std::string attr_text(const std::string& key, py::handle v) {
  if (!identifier(key)) throw KirFailure("eval: bad attribute name '" + key + "'");
  if (py::isinstance<py::bool_>(v)) return key + " = " + (v.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::int_>(v)) return key + " = " + py::str(v).cast<std::string>();
  if (py::isinstance<py::float_>(v)) return key + " = " + float_str(v.cast<double>());
  if (py::isinstance<py::str>(v)) {
    const std::string s = v.cast<std::string>();
    if (!identifier(s)) throw KirFailure("eval: attribute " + key + " takes a keyword, got '" + s + "'");
    return key + " = " + s;
  }
  throw KirFailure("eval: attribute " + key + " takes a bool, int, float or keyword");
}

std::mutex g_eval_mu;
std::map<std::string, std::shared_ptr<const Module>> g_eval_cache;

std::shared_ptr<const Module> eval_module(const std::string& text) {
  {
    std::lock_guard<std::mutex> lock(g_eval_mu);
    auto it = g_eval_cache.find(text);
    if (it != g_eval_cache.end()) return it->second;
  }
  Diagnostics diags;
  auto m = load_canonical_text(text, "<eval>", diags);
  if (!m) {
    KirFailure f = failure_from(diags);
    f.text += "\nin the op evaluated:\n" + text;
    throw f;
  }
  std::shared_ptr<const Module> sm(std::move(m));
  std::lock_guard<std::mutex> lock(g_eval_mu);
  if (g_eval_cache.size() > 512) g_eval_cache.clear();
  g_eval_cache[text] = sm;
  return sm;
}

py::array eval_op(const std::string& op, const py::list& args, const std::string& dtype, const py::dict& attrs,
                  const std::optional<std::string>& to) {
  if (!identifier(op)) throw KirFailure("eval: bad op name '" + op + "'");
  const DType d = dtype_arg(dtype);
  DType result = d;
  std::vector<DType> arg_dtypes(args.size(), d);
  if (op == "cmp") result = DType::Bool;
  if (op == "select" && !arg_dtypes.empty()) arg_dtypes[0] = DType::Bool;
  if (op == "cast" || op == "bitcast") {
    if (!to) throw KirFailure("eval: " + op + " needs to=DTYPE");
    result = dtype_arg(*to);
  } else if (to) {
    throw KirFailure("eval: to= applies to cast and bitcast only");
  }
  std::vector<interp::Value> values;
  interp::Shape shape;
  for (size_t i = 0; i < args.size(); ++i) {
    Bits b = array_bits(args[i], arg_dtypes[i], "argument " + std::to_string(i));
    if (b.shape.size() != 1) throw KirFailure("eval: arguments must be flat arrays (intent.numerics.eval broadcasts them)");
    if (i == 0) shape = b.shape;
    else if (b.shape != shape) throw KirFailure("eval: arguments of different lengths");
    interp::Tensor t;
    t.dtype = arg_dtypes[i];
    t.shape = b.shape;
    t.bits = std::move(b.bits);
    values.emplace_back(std::move(t));
  }
  std::ostringstream text;
  text << "fn @eval(";
  for (size_t i = 0; i < args.size(); ++i) text << (i ? ", " : "") << "%a" << i << ": " << name(arg_dtypes[i]) << "[N]";
  text << ") -> " << name(result) << "[N] {\n  %r = " << op << "(";
  for (size_t i = 0; i < args.size(); ++i) text << (i ? ", " : "") << "%a" << i;
  text << ")";
  if (!attrs.empty()) {
    std::string a;
    for (auto [k, v] : attrs) a += (a.empty() ? "" : ", ") + attr_text(py::str(k).cast<std::string>(), v);
    text << " {" << a << "}";
  }
  text << " : " << name(result) << "[N]\n  return(%r)\n}\n";
  auto m = eval_module(text.str());
  std::vector<interp::Value> out;
  {
    py::gil_scoped_release release;
    interp::Interpreter it(*m);
    out = it.call_helper("eval", values);
  }
  if (out.size() != 1 || !out[0].is_tensor()) throw KirFailure("eval: the op did not produce one tensor");
  const interp::Tensor& t = out[0].tensor();
  return bits_array(t.dtype, t.shape, t.bits);
}

std::string format_value(uint64_t bits, const std::string& dtype) {
  const DType d = dtype_arg(dtype);
  if (bits & ~num::width_mask(d)) throw KirFailure("format_value: " + std::to_string(bits) + " is not a " + dtype + " bit pattern");
  return num::format_value(num::Scalar{d, bits});
}

uint64_t parse_value(const std::string& text, const std::string& dtype) {
  auto r = num::parse_value(text, dtype_arg(dtype));
  if (!r) throw KirFailure("parse_value: " + r.error().message);
  return r->bits;
}

}  // namespace

void bind_numerics(py::module_& m) {
  m.def("dtypes", [] {
    std::vector<std::string> out;
    for (int i = 0; i < kNumDTypes; ++i) out.emplace_back(name(static_cast<DType>(i)));
    return out;
  }, "Every kir dtype name.");
  m.def("dtype_info", [](const std::string& n) { return guarded([&] { return dtype_info(n); }); }, py::arg("dtype"),
        "A dtype's properties: name, bits, class, carrier (its NumPy dtype), float.");
  m.def("from_float", [](py::object v, const std::string& d) { return guarded([&] { return from_float(v, d); }); },
        py::arg("values"), py::arg("dtype"),
        "Float values (as float64) rounded once to nearest even into a float dtype: carrier bit patterns.");
  m.def("to_float64", [](py::object b, const std::string& d) { return guarded([&] { return to_float64(b, d); }); },
        py::arg("bits"), py::arg("dtype"), "The exact values of float bit patterns as float64.");
  m.def("cast",
        [](py::object v, const std::string& s, const std::string& t) { return guarded([&] { return cast(v, s, t, false); }); },
        py::arg("values"), py::arg("src"), py::arg("to"), "kir's cast src -> to of carrier arrays (numerics/cast.h).");
  m.def("bitcast",
        [](py::object v, const std::string& s, const std::string& t) { return guarded([&] { return cast(v, s, t, true); }); },
        py::arg("values"), py::arg("src"), py::arg("to"), "kir's bitcast between dtypes of equal width.");
  m.def("ulp_distance",
        [](py::object a, py::object b, const std::string& d) { return guarded([&] { return ulp_distance(a, b, d); }); },
        py::arg("a"), py::arg("b"), py::arg("dtype"), "Representable steps between a and b (uint64 array).");
  m.def("philox", [](py::object seed, py::object c) { return guarded([&] { return philox(u64_arg(seed, "seed"), c); }); },
        py::arg("seed"), py::arg("counter"),
        "random.bits(seed, counter): word counter % 4 of Philox4x32-10 at block counter // 4.");
  m.def("uniform",
        [](py::object seed, py::object c, const std::string& d) {
          return guarded([&] { return uniform(u64_arg(seed, "seed"), c, d); });
        },
        py::arg("seed"), py::arg("counter"), py::arg("dtype"), "random.uniform(seed, counter) in dtype: carrier array.");
  m.def("eval",
        [](const std::string& op, py::list args, const std::string& d, py::dict attrs, std::optional<std::string> to) {
          return guarded([&] { return eval_op(op, args, d, attrs, to); });
        },
        py::arg("op"), py::arg("args"), py::arg("dtype"), py::arg("attrs") = py::dict(), py::arg("to") = py::none(),
        "One op on flat carrier arrays, evaluated by the interpreter (a one-op helper).");
  m.def("format_value", [](py::object b, const std::string& d) { return guarded([&] { return format_value(u64_arg(b, "bits"), d); }); },
        py::arg("bits"), py::arg("dtype"), "The exact decimal text of one bit pattern.");
  m.def("parse_value", [](const std::string& t, const std::string& d) { return guarded([&] { return parse_value(t, d); }); },
        py::arg("text"), py::arg("dtype"), "A decimal (rounded once) or 0x bit pattern as the dtype's bits.");
}

}  // namespace kir::py_kir
