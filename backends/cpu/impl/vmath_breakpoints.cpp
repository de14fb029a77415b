// Loading and checking of the vector math breakpoint catalogue (vmath_breakpoints.h).
#include "backends/cpu/impl/vmath_breakpoints.h"
#include "backends/cpu/impl/yaml_where.h"

#include <yaml-cpp/yaml.h>

#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "numerics/math.h"

namespace kir::cpu {
namespace {

const char* const kFile = "backends/cpu/impl/vmath_breakpoints.yaml";

std::string at(const std::string& file, const YAML::Node& n) { return yaml_where(file, n.Mark()); }

[[noreturn]] void fail(const std::string& file, const YAML::Node& n, const std::string& msg) {
  throw BreakpointError(at(file, n) + ": error: vmath breakpoints: " + msg);
}

std::string scalar(const std::string& file, const YAML::Node& map, const char* key, const std::string& what) {
  const YAML::Node n = map[key];
  if (!n) fail(file, map, what + " needs `" + key + "`");
  if (!n.IsScalar() || n.Scalar().empty()) fail(file, n, what + ": `" + key + "` must be a non-empty scalar");
  return n.Scalar();
}

void only_keys(const std::string& file, const YAML::Node& map, const std::set<std::string>& keys, const std::string& what) {
  for (const auto& kv : map) {
    const std::string k = kv.first.Scalar();
    if (!keys.count(k)) {
      std::string list;
      for (const auto& x : keys) list += (list.empty() ? "" : ", ") + x;
      fail(file, kv.first, "unknown key `" + k + "` in " + what + " (expected " + list + ")");
    }
  }
}

// x as written: decimal or hex-float (strtod), or inf / -inf; the nearest f32.
float parse_x(const std::string& file, const YAML::Node& n, const std::string& what) {
  const std::string s = n.Scalar();
  if (s == "inf" || s == "+inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || std::isnan(d) || std::isinf(d))
    fail(file, n, what + ": x must be a decimal or hex-float number (or inf, -inf), got '" + s + "'");
  const float f = static_cast<float>(d);
  if (std::isinf(f)) fail(file, n, what + ": x = " + s + " is beyond the f32 range (write inf for infinity)");
  return f;
}

bool valid_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

const char* vmath_kernel_name(std::string_view function) {
  // As the serializer (provider/cpp_serializer.cpp, ExprKind::Math) emits f32 math: these nine
  // from rt/kir_vmath.h; sqrt is a plain unary op of the CPU IR (kir_rt::sqrt_f32).
  static const std::pair<const char*, const char*> kKernels[] = {
      {"exp", "kir_vmath::exp_f32"},     {"exp2", "kir_vmath::exp2_f32"},   {"erf", "kir_vmath::erf_f32"},
      {"tanh", "kir_vmath::tanh_f32"},   {"log", "kir_vmath::log_f32"},     {"log1p", "kir_vmath::log1p_f32"},
      {"sin", "kir_vmath::sin_f32"},     {"cos", "kir_vmath::cos_f32"},     {"rsqrt", "kir_vmath::rsqrt_f32"},
      {"sqrt", "kir_rt::sqrt_f32"},
  };
  for (const auto& [f, k] : kKernels)
    if (function == f) return k;
  return nullptr;
}

std::vector<MathBreakpoint> parse_vmath_breakpoints(const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    const std::string where = yaml_where(file, e.mark);
    throw BreakpointError(where + ": error: vmath breakpoints: YAML does not parse: " + e.msg);
  }
  if (!root.IsMap()) throw BreakpointError(file + ":1:1: error: vmath breakpoints: expected a mapping with `functions`");
  only_keys(file, root, {"functions"}, "the catalogue");
  const YAML::Node fns = root["functions"];
  if (!fns || !fns.IsSequence() || fns.size() == 0) fail(file, root, "`functions` must be a non-empty list");
  std::vector<MathBreakpoint> out;
  std::set<std::string> seen_fn;
  for (const auto& f : fns) {
    if (!f.IsMap()) fail(file, f, "a function entry is a mapping (function, kernel, symmetry, points)");
    only_keys(file, f, {"function", "kernel", "symmetry", "points"}, "a function entry");
    const std::string fn = scalar(file, f, "function", "a function entry");
    if (!num::parse_math_fn(fn)) fail(file, f["function"], "`" + fn + "` is not a math function of the language");
    const char* kernel = vmath_kernel_name(fn);
    if (!kernel) fail(file, f["function"], "`" + fn + "` has no vector kernel in the CPU backend (its f32 math is the numerics library's)");
    if (!seen_fn.insert(fn).second) fail(file, f["function"], "function `" + fn + "` is listed twice");
    const std::string what = "function `" + fn + "`";
    const std::string k = scalar(file, f, "kernel", what);
    if (k != kernel) fail(file, f["kernel"], what + ": its vector kernel is " + kernel + ", not " + k);
    const std::string sym = scalar(file, f, "symmetry", what);
    if (sym != "odd" && sym != "even" && sym != "none") fail(file, f["symmetry"], what + ": symmetry is odd, even or none, not " + sym);
    const YAML::Node pts = f["points"];
    if (!pts || !pts.IsSequence() || pts.size() == 0) fail(file, f, what + " needs a non-empty `points` list");
    std::vector<MathBreakpoint> listed;
    std::set<std::string> names;
    std::set<uint32_t> bits_listed;
    for (const auto& p : pts) {
      if (!p.IsMap()) fail(file, p, what + ": a point is a mapping (name, x, why, bits)");
      only_keys(file, p, {"name", "x", "why", "bits"}, "a point of " + what);
      MathBreakpoint b;
      b.function = fn;
      b.name = scalar(file, p, "name", "a point of " + what);
      if (!valid_name(b.name)) fail(file, p["name"], what + ": a point's name is letters, digits and _, got '" + b.name + "'");
      if (!names.insert(b.name).second) fail(file, p["name"], what + ": point `" + b.name + "` is defined twice");
      const std::string pw = "point `" + fn + "." + b.name + "`";
      b.why = scalar(file, p, "why", pw);
      if (!p["x"] || !p["x"].IsScalar()) fail(file, p, pw + " needs a number `x`");
      b.x = parse_x(file, p["x"], pw);
      if (const YAML::Node bn = p["bits"]) {
        const std::string s = bn.IsScalar() ? bn.Scalar() : "";
        char* end = nullptr;
        const unsigned long long v = s.rfind("0x", 0) == 0 ? std::strtoull(s.c_str() + 2, &end, 16) : 0;
        if (s.size() <= 2 || s.rfind("0x", 0) != 0 || end != s.c_str() + s.size() || v > 0xffffffffull)
          fail(file, bn, pw + ": bits must be a 32-bit hex pattern (0x...), got '" + s + "'");
        const uint32_t xb = std::bit_cast<uint32_t>(b.x);
        if (v != xb) {
          char buf[96];
          std::snprintf(buf, sizeof buf, "x is the f32 %a with bits 0x%08x, but bits say 0x%08llx", static_cast<double>(b.x), xb, v);
          fail(file, bn, pw + ": " + buf);
        }
      }
      bits_listed.insert(std::bit_cast<uint32_t>(b.x));
      listed.push_back(std::move(b));
    }
    for (auto& b : listed) {
      const float neg = -b.x;
      const bool mirror = sym != "none" && b.x != 0.0f && !bits_listed.count(std::bit_cast<uint32_t>(neg));
      MathBreakpoint m{fn, "-" + b.name, "the negative of " + b.name + " (" + fn + " is " + sym + "): " + b.why, neg};
      out.push_back(std::move(b));
      if (mirror) out.push_back(std::move(m));
    }
  }
  return out;
}

const std::vector<MathBreakpoint>& vmath_breakpoints() {
  static const std::vector<MathBreakpoint> all = parse_vmath_breakpoints(std::string(vmath_breakpoints_text()), kFile);
  return all;
}

std::vector<MathBreakpoint> vmath_breakpoints_of(std::string_view function) {
  std::vector<MathBreakpoint> r;
  for (const auto& b : vmath_breakpoints())
    if (b.function == function) r.push_back(b);
  return r;
}

}  // namespace kir::cpu
