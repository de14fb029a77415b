// `kir numerics cast|philox|ulp|eval`: inspect the numerics core from the shell — cast values
// between dtypes, print Philox words, measure ULP distances and evaluate scalar operations.
// Exit codes: 0 ok, 1 an operation reported an invalid value, 2 usage error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "numerics/arith.h"
#include "numerics/cast.h"
#include "numerics/float_extra.h"
#include "numerics/format.h"
#include "numerics/math.h"
#include "numerics/philox.h"
#include "numerics/value_text.h"
#include "kir/suggest.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

using num::Scalar;

struct Args {
  std::string src, dst, func, a, b;
  std::vector<std::string> xs;
  std::string seed, counter;
  uint64_t count = 1;
  std::vector<std::string> key, ctr;  // philox --key K0,K1 --ctr C0,C1,C2,C3 (raw block)
  bool json = false;                  // --json: one JSON document instead of text lines
};

// Where a command's results go: text lines on stdout, or with --json one JSON document printed at
// the end, `results` holding one record per result line. Errors stay on stderr either way (and in
// the record of a value that failed).
struct Out {
  bool json = false;
  nlohmann::json records = nlohmann::json::array();
  void line(const std::string& text, nlohmann::json record) {
    if (json) records.push_back(std::move(record));
    else std::cout << text << "\n";
  }
  int done(int rc, nlohmann::json doc = nlohmann::json::object()) {
    if (json) {
      doc["results"] = records;
      std::cout << doc.dump(2) << "\n";
    }
    return rc;
  }
};

nlohmann::json scalar_json(Scalar v) {
  return {{"dtype", std::string(name(v.dtype))}, {"bits", num::format_bits(v)}, {"value", num::format_value(v)}};
}

std::string hex32(uint32_t w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}

std::optional<DType> dtype_arg(const std::string& s) {
  auto d = parse_dtype(s);
  if (!d) {
    std::vector<std::string> all;
    for (DType x : {DType::Bool, DType::I8, DType::I16, DType::I32, DType::I64, DType::U8, DType::U16, DType::U32,
                    DType::U64, DType::Index, DType::F16, DType::BF16, DType::F32, DType::F64, DType::E4M3, DType::E5M2,
                    DType::E2M1, DType::E8M0})
      all.emplace_back(name(x));
    std::cerr << "kir numerics: unknown dtype '" << s << "'" << did_you_mean(s, all) << "; the dtypes are "
              << join_names(all) << "\n";
  }
  return d;
}

// `kir numerics format DTYPE`: the encoding of a dtype and what a cast into it does with values
// it cannot hold (the numerics contract's table, for one dtype).
int run_format(const Args& a) {
  auto d = dtype_arg(a.src);
  if (!d) return 2;
  // The text goes to `t`; --json prints `doc`, the same facts as fields.
  std::ostringstream t;
  nlohmann::json doc = {{"dtype", std::string(name(*d))}, {"bits", info(*d).bits}};
  auto finish = [&] {
    if (a.json) std::cout << doc.dump(2) << "\n";
    else std::cout << t.str();
    return 0;
  };
  t << name(*d) << ": " << info(*d).bits << " bits\n";
  if (*d == DType::Bool) {
    t << "  values: false (0), true (1)\n  cast into bool: x != 0 (NaN -> true, +-0 -> false)\n";
    doc["kind"] = "bool";
    doc["cast_into"] = "x != 0 (NaN -> true, +-0 -> false)";
    return finish();
  }
  if (is_integer(*d)) {
    const int b = info(*d).bits;
    const bool sgn = is_signed_integer(*d);
    const std::string lo = sgn ? "-" + std::to_string(uint64_t{1} << (b - 1)) : "0";
    const std::string hi = sgn ? std::to_string((uint64_t{1} << (b - 1)) - 1)
                               : (b == 64 ? std::string("18446744073709551615") : std::to_string((uint64_t{1} << b) - 1));
    t << "  " << (sgn ? "two's complement" : "unsigned") << ", range [" << lo << ", " << hi << "]\n"
              << "  cast from an integer: wraps (truncated to " << b << " bits, then " << (sgn ? "sign" : "zero")
              << "-extended)\n"
              << "  cast from a float: truncated toward zero; NaN, +-inf or a value outside the range is an "
                 "invalid-cast error\n";
    doc["kind"] = sgn ? "signed integer" : "unsigned integer";
    doc["min"] = lo;
    doc["max"] = hi;
    doc["cast_from_integer"] = "wraps";
    doc["cast_from_float"] = "truncated toward zero; NaN, +-inf or out of range is an invalid-cast error";
    return finish();
  }
  const num::FloatFormat& f = num::float_format(*d);
  auto val = [&](uint64_t bits) { return num::format_value(Scalar{*d, bits}) + " (" + num::format_bits(Scalar{*d, bits}) + ")"; };
  auto jval = [&](uint64_t bits) { return scalar_json(Scalar{*d, bits}); };
  doc["kind"] = "float";
  doc["sign_bits"] = f.has_sign ? 1 : 0;
  doc["exponent_bits"] = f.exp_bits;
  doc["mantissa_bits"] = f.man_bits;
  doc["bias"] = f.bias;
  doc["precision"] = f.precision;
  doc["emin"] = f.emin;
  doc["emax"] = f.emax;
  doc["max_finite"] = jval(num::max_finite(*d));
  t << "  sign/exponent/mantissa bits: " << (f.has_sign ? 1 : 0) << "/" << f.exp_bits << "/" << f.man_bits
            << ", bias " << f.bias << ", precision " << f.precision << " bits\n"
            << "  normal exponents: " << f.emin << ".." << f.emax << "\n"
            << "  max finite: " << val(num::max_finite(*d)) << "\n";
  uint64_t min_normal = num::zero_bits(*d), min_sub = 0;
  bool found_sub = false;
  // the smallest positive encodings, from +0 up (e8m0 has no zero: its encoding 0 is 2^-127)
  for (uint64_t b = f.has_zero ? num::next_up(num::zero_bits(*d), *d) : 0; num::is_finite(b, *d); b = num::next_up(b, *d)) {
    if (num::classify(b, *d) == num::FpClass::Subnormal) {
      if (!found_sub) min_sub = b, found_sub = true;
      continue;
    }
    min_normal = b;
    break;
  }
  t << "  min normal: " << val(min_normal) << "\n";
  t << "  min subnormal: " << (found_sub ? val(min_sub) : std::string("none (no subnormals)")) << "\n";
  t << "  infinity: " << (f.has_inf ? val(num::inf_bits(*d)) : std::string("none")) << "\n";
  t << "  NaN: " << (f.has_nan ? val(f.canonical_nan) + " (the NaN every operation returns)" : std::string("none"))
            << "\n";
  t << "  zero: " << (f.has_zero ? (f.has_sign ? "+0 and -0" : "0") : "none (e8m0 holds powers of two only)")
            << "\n";
  t << "  cast into " << name(*d) << ": rounds to nearest even once; a value too large becomes "
            << (f.overflow == num::OverflowRule::ToInf      ? "+-inf"
                : f.overflow == num::OverflowRule::ToNaN     ? "NaN (this format's cast does not saturate)"
                                                            : "+-max finite (saturates)")
            << "; NaN becomes " << (f.has_nan ? "the canonical NaN" : "an invalid-cast error") << "\n";
  doc["min_normal"] = jval(min_normal);
  doc["min_subnormal"] = found_sub ? jval(min_sub) : nlohmann::json(nullptr);
  doc["infinity"] = f.has_inf ? jval(num::inf_bits(*d)) : nlohmann::json(nullptr);
  doc["nan"] = f.has_nan ? jval(f.canonical_nan) : nlohmann::json(nullptr);
  doc["zero"] = f.has_zero ? (f.has_sign ? "+0 and -0" : "0") : "none";
  doc["cast_overflow"] = f.overflow == num::OverflowRule::ToInf ? "inf" : f.overflow == num::OverflowRule::ToNaN ? "nan" : "saturate";
  doc["cast_nan"] = f.has_nan ? "canonical NaN" : "invalid-cast error";
  return finish();
}

std::string show(Scalar v) {
  return std::string(name(v.dtype)) + " " + num::format_bits(v) + " " + num::format_value(v);
}

// Parses a value; prints the problem. Returns 2 for unparsable text, 1 for out-of-range values.
std::optional<Scalar> value_arg(const std::string& s, DType d, int& rc) {
  auto v = num::parse_value(s, d);
  if (v) return *v;
  std::cerr << "kir numerics: " << v.error().message << "\n";
  rc = std::max(rc, v.status() == num::Status::TypeMismatch ? 2 : 1);
  return std::nullopt;
}

// Why a cast between float dtypes did not give a nearby value: "" when it did (the result is the
// input rounded to nearest even), else the rule that applied.
std::string cast_note(Scalar in, Scalar out) {
  const DType s = in.dtype, d = out.dtype;
  if (!is_any_float(s) || !is_any_float(d) || !num::is_finite(in.bits, s)) return "";
  const double x = num::to_double(in.bits, s);
  const std::string max = num::format_value(Scalar{d, num::max_finite(d)});
  const std::string beyond = "|x| is beyond " + std::string(name(d)) + "'s largest finite value " + max;
  if (num::is_nan(out.bits, d)) return beyond + ", and a cast into " + std::string(name(d)) + " does not saturate: NaN";
  if (num::classify(out.bits, d) == num::FpClass::Infinite) return beyond + ": overflow to infinity";
  const uint64_t top = num::max_finite(d, x < 0);
  if (out.bits == top && std::fabs(x) > num::to_double(num::max_finite(d), d)) {
    // Beyond the midpoint above max (at it, when ties-to-even would leave max's odd encoding),
    // rounding alone would not give max: the cast saturated.
    const double mid = num::to_double(num::max_finite(d), d) + num::ulp_value(num::max_finite(d), d) / 2;
    if (std::fabs(x) > mid || (std::fabs(x) == mid && (num::max_finite(d) & 1)))
      return beyond + ", and a cast into " + std::string(name(d)) + " saturates there";
  }
  if (x != 0 && num::classify(out.bits, d) == num::FpClass::Zero) return "|x| is below half of " + std::string(name(d)) + "'s smallest value: underflow to zero";
  return "";
}

int run_cast(const Args& a) {
  auto src = dtype_arg(a.src), dst = dtype_arg(a.dst);
  if (!src || !dst) return 2;
  int rc = 0;
  Out out{a.json};
  for (const auto& x : a.xs) {
    auto v = value_arg(x, *src, rc);
    if (!v) continue;
    auto r = num::cast(*v, *dst);
    if (r) {
      const std::string note = cast_note(*v, *r);
      nlohmann::json record = {{"input", scalar_json(*v)}, {"output", scalar_json(*r)}};
      if (!note.empty()) record["note"] = note;
      out.line(show(*v) + " -> " + show(*r) + (note.empty() ? "" : " (" + note + ")"), record);
    } else {
      out.line(show(*v) + " -> error: " + r.error().message, {{"input", scalar_json(*v)}, {"error", r.error().message}});
      rc = std::max(rc, 1);
    }
  }
  rc = out.done(rc);
  return rc;
}

bool u64_arg(const std::string& s, uint64_t& out) {
  auto v = num::parse_value(s, DType::U64);
  if (!v) {
    std::cerr << "kir numerics: '" << s << "' is not an unsigned 64-bit integer\n";
    return false;
  }
  out = v->bits;
  return true;
}

// A 32-bit word of --key/--ctr (decimal or 0x...); false after a message naming `what`.
bool u32_arg(const std::string& s, const std::string& what, uint32_t& out) {
  auto v = num::parse_value(s, DType::U32);
  if (!v) {
    std::cerr << "kir numerics philox: " << what << ": '" << s << "' is not an unsigned 32-bit word\n";
    return false;
  }
  out = static_cast<uint32_t>(v->bits);
  return true;
}

// `--key K0,K1 --ctr C0,C1,C2,C3`: the four words of one Philox4x32-10 block, the generator
// itself with no mapping of seed and counter (to compare with another implementation).
int run_philox_raw(const Args& a) {
  if (a.key.size() != 2 || a.ctr.size() != 4) {
    std::cerr << "kir numerics philox: --key takes 2 words and --ctr 4 (got " << a.key.size() << " and " << a.ctr.size()
              << "), e.g. --key 0xa4093822,0x299f31d0 --ctr 0x243f6a88,0x85a308d3,0x13198a2e,0x03707344\n";
    return 2;
  }
  num::PhiloxKey key{};
  num::PhiloxCounter ctr{};
  for (size_t i = 0; i < 2; ++i)
    if (!u32_arg(a.key[i], "--key word " + std::to_string(i), key[i])) return 2;
  for (size_t i = 0; i < 4; ++i)
    if (!u32_arg(a.ctr[i], "--ctr word " + std::to_string(i), ctr[i])) return 2;
  const num::PhiloxCounter words = num::philox4x32_10(ctr, key);
  Out out{a.json};
  std::string text;
  nlohmann::json record = {{"key", {hex32(key[0]), hex32(key[1])}}, {"ctr", nlohmann::json::array()}, {"words", nlohmann::json::array()}};
  for (size_t i = 0; i < 4; ++i) {
    text += (i ? " " : "") + hex32(words[i]);
    record["ctr"].push_back(hex32(ctr[i]));
    record["words"].push_back(hex32(words[i]));
  }
  out.line(text, record);
  return out.done(0);
}

int run_philox(const Args& a) {
  if (!a.key.empty() || !a.ctr.empty()) {
    if (!a.seed.empty()) {
      std::cerr << "kir numerics philox: give SEED COUNTER or --key/--ctr, not both\n";
      return 2;
    }
    return run_philox_raw(a);
  }
  if (a.seed.empty() || a.counter.empty()) {
    std::cerr << "kir numerics philox: SEED and COUNTER are required (or --key K0,K1 --ctr C0,C1,C2,C3)\n";
    return 2;
  }
  uint64_t seed = 0, counter = 0;
  if (!u64_arg(a.seed, seed) || !u64_arg(a.counter, counter)) return 2;
  Out out{a.json};
  for (uint64_t i = 0; i < a.count; ++i) {
    const uint64_t c = counter + i;
    const std::string w = hex32(num::random_bits(seed, c));
    out.line(std::to_string(c) + " " + w, {{"seed", seed}, {"counter", c}, {"bits", w}});
  }
  return out.done(0);
}

int run_ulp(const Args& a) {
  auto d = dtype_arg(a.src);
  if (!d) return 2;
  if (!is_any_float(*d)) {
    std::cerr << "kir numerics: ulp needs a float dtype\n";
    return 2;
  }
  int rc = 0;
  auto x = value_arg(a.a, *d, rc), y = value_arg(a.b, *d, rc);
  if (!x || !y) return rc;
  if (num::is_nan(x->bits, *d) || num::is_nan(y->bits, *d)) {
    std::cerr << "kir numerics: ulp distance is undefined for NaN\n";
    return 1;
  }
  Out out{a.json};
  const uint64_t n = num::ulp_distance(x->bits, y->bits, *d);
  out.line(std::to_string(n), {{"a", scalar_json(*x)}, {"b", scalar_json(*y)}, {"ulps", n}});
  return out.done(0);
}

// `kir numerics eval FUNC DTYPE X [Y]`: what `kir run` computes for one element of a pointwise op
// (the same functions: num::pointwise_binary, num::unary, num::eval_unary), with the inputs shown
// as they were rounded into DTYPE.
int run_eval(const Args& a) {
  auto d = dtype_arg(a.src);
  if (!d) return 2;
  const std::string& f = a.func;
  const auto bop = num::parse_binary_op(f);
  const bool is_pow = f == "pow";
  const auto uop = num::parse_unary_op(f);
  const bool math = num::parse_math_fn(f).has_value();
  if (!bop && !is_pow && !uop && !math) {
    std::vector<std::string> fns;
    for (num::BinaryOp b : num::kBinaryOps) fns.emplace_back(num::op_name(b));
    fns.emplace_back("pow");
    for (num::UnaryOp u : num::kUnaryOps) fns.emplace_back(num::op_name(u));
    for (int i = 0; i < num::kNumMathFns; ++i)
      if (std::string n(num::name(static_cast<num::MathFn>(i))); std::find(fns.begin(), fns.end(), n) == fns.end())
        fns.push_back(n);
    std::cerr << "kir numerics: unknown function '" << f << "'" << did_you_mean(f, fns) << "; the functions are "
              << join_names(fns) << "\n";
    return 2;
  }
  int rc = 0;
  std::vector<Scalar> vals;
  for (const auto& x : a.xs) {
    auto v = value_arg(x, *d, rc);
    if (!v) return rc;
    vals.push_back(*v);
  }
  if (bop || is_pow) {
    if (vals.size() != 2) {
      std::cerr << "kir numerics: eval " << f << " takes exactly 2 values\n";
      return 2;
    }
    auto r = num::pointwise_binary(bop.value_or(num::BinaryOp::Add), is_pow, vals[0], vals[1]);
    Out out{a.json};
    const std::string head = f + "(" + show(vals[0]) + ", " + show(vals[1]) + ") -> ";
    nlohmann::json record = {{"function", f}, {"inputs", {scalar_json(vals[0]), scalar_json(vals[1])}}};
    if (!r) {
      record["error"] = r.error().message;
      out.line(head + "error: " + r.error().message, record);
      return out.done(1);
    }
    record["output"] = scalar_json(*r);
    out.line(head + show(*r), record);
    return out.done(0);
  }
  Out out{a.json};
  for (const Scalar& v : vals) {
    nlohmann::json record = {{"function", f}, {"input", scalar_json(v)}};
    if (uop) {
      auto r = num::unary(*uop, v);
      if (!r) {
        record["error"] = r.error().message;
        out.line(show(v) + " -> error: " + r.error().message, record);
        rc = std::max(rc, 1);
        continue;
      }
      record["output"] = scalar_json(*r);
      out.line(show(v) + " -> " + show(*r), record);
      continue;
    }
    auto r = num::eval_unary(f, *d, v.bits);
    if (!r) {
      std::cerr << "kir numerics: " << f << " takes f16, bf16, f32 or f64, not " << name(*d) << "\n";
      return 2;
    }
    record["output"] = scalar_json(Scalar{*d, *r});
    out.line(show(v) + " -> " + show(Scalar{*d, *r}), record);
  }
  return out.done(rc);
}

}  // namespace

void register_numerics_commands(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("numerics", "Inspect dtype formats, casts, Philox and scalar ops");
  cmd->require_subcommand(1);
  auto args = std::make_shared<Args>();

  auto* cast = cmd->add_subcommand("cast", "Cast values (decimal or 0x bit pattern) SRC -> DST");
  cast->add_option("SRC", args->src, "source dtype")->required();
  cast->add_option("DST", args->dst, "destination dtype")->required();
  cast->add_option("X", args->xs, "values: decimal or 0x bit pattern")->required();
  cast->add_flag("--json", args->json, "print one JSON document instead of text");
  cast->callback([args, &exit_code] { exit_code = run_cast(*args); });

  auto* philox = cmd->add_subcommand(
      "philox", "Print Philox4x32-10 words random_bits(SEED, c), or one raw block with --key K0,K1 --ctr C0,C1,C2,C3");
  philox->add_option("SEED", args->seed, "64-bit seed");
  philox->add_option("COUNTER", args->counter, "first logical counter");
  philox->add_option("--count", args->count, "number of consecutive words (default 1)");
  philox->add_option("--key", args->key, "raw mode: the two 32-bit key words (comma-separated)")->delimiter(',');
  philox->add_option("--ctr", args->ctr, "raw mode: the four 32-bit counter words (comma-separated)")->delimiter(',');
  philox->add_flag("--json", args->json, "print one JSON document instead of text");
  philox->callback([args, &exit_code] { exit_code = run_philox(*args); });

  auto* format = cmd->add_subcommand("format", "The encoding of DTYPE: bits, bias, range, special values, cast rules");
  format->add_option("DTYPE", args->src, "dtype")->required();
  format->add_flag("--json", args->json, "print one JSON document instead of text");
  format->callback([args, &exit_code] { exit_code = run_format(*args); });

  auto* ulp = cmd->add_subcommand("ulp", "Number of representable steps between A and B");
  ulp->add_option("DTYPE", args->src, "float dtype")->required();
  ulp->add_option("A", args->a, "value")->required();
  ulp->add_option("B", args->b, "value")->required();
  ulp->add_flag("--json", args->json, "print one JSON document instead of text");
  ulp->callback([args, &exit_code] { exit_code = run_ulp(*args); });

  auto* eval = cmd->add_subcommand(
      "eval", "Evaluate FUNC in DTYPE as kir run does: add sub mul div rem min max and or xor shl shr pow "
              "(2 values), neg not abs sqrt floor, or a math function (exp ... sigmoid)");
  eval->add_option("FUNC", args->func, "operation name")->required();
  eval->add_option("DTYPE", args->src, "dtype")->required();
  eval->add_option("X", args->xs, "values: decimal or 0x bit pattern")->required();
  eval->add_flag("--json", args->json, "print one JSON document instead of text");
  eval->callback([args, &exit_code] { exit_code = run_eval(*args); });
}

}  // namespace kir::tools
