// Pointwise families: binary arithmetic/bitwise ops (integer divisors and shift amounts
// guarded), unary and math ops (with the f32 approximation options), compare, select, casts
// (guarded by cast_to), bitcasts between equal widths, and constants with special values.
#include "fuzz/gen/families.h"
#include "fuzz/gen/inputs.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

// A compute-typed operand from the pool, or a new value of a random compute type.
PoolValue operand(Ctx& c, FnBuilder& fb, Rng& r, const Pred& p, const std::function<bool(DType)>& ok) {
  if (auto v = pick(fb, r, p); v && r.chance(0.9)) return *v;
  VType t = r.chance(0.25) ? VType::scalar(random_dtype(c, r, ok)) : random_tensor_type(c, fb, r, ok);
  return {get(c, fb, r, t), t, 1};
}

// b with zeros replaced by one, and (signed) -1 replaced by one where a is the minimum.
std::string guard_divisor(FnBuilder& fb, const std::string& a, const std::string& b, const VType& t) {
  const VType bt = t.with(DType::Bool);
  const std::string one = splat(fb, t, int_bits(t.dt, 1));
  const std::string z = fb.def("cmp(" + b + ", " + splat(fb, t, 0) + ") {pred = eq}", bt, false);
  std::string b1 = fb.def("select(" + z + ", " + one + ", " + b + ")", t, false);
  if (is_signed_integer(t.dt)) {
    const std::string am = fb.def("cmp(" + a + ", " + splat(fb, t, int_min_bits(t.dt)) + ") {pred = eq}", bt, false);
    const std::string bm = fb.def("cmp(" + b1 + ", " + splat(fb, t, all_ones_bits(t.dt)) + ") {pred = eq}", bt, false);
    const std::string bad = fb.def("and(" + am + ", " + bm + ")", bt, false);
    b1 = fb.def("select(" + bad + ", " + one + ", " + b1 + ")", t, false);
  }
  return b1;
}

}  // namespace

namespace {

std::string binary_with(Ctx& c, FnBuilder& fb, Rng& r, const PoolValue& a) {
  const VType t = a.type;
  std::vector<std::string> ops;
  if (is_float(t.dt)) ops = {"add", "sub", "mul", "div", "rem", "min", "max", "pow", "add", "mul", "sub"};
  else if (t.dt == DType::Bool) ops = {"and", "or", "xor"};
  else ops = {"add", "sub", "mul", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr", "add", "mul"};
  const std::string op = r.pick(ops);
  std::string b = get(c, fb, r, t);
  std::string attrs;
  if (op == "div" && t.dt == DType::F32 && r.chance(0.2)) {
    attrs = std::string(" {approximate = true, flush_to_zero = ") + (r.chance(0.5) ? "true" : "false") + "}";
    c.family("div.approximate");
  }
  if ((op == "div" || op == "rem") && is_integer(t.dt)) b = guard_divisor(fb, a.name, b, t);
  if (op == "shl" || op == "shr") {
    // The amount is masked to the width, except now and then: an amount out of range is a
    // located fault the backend must report too (shift masking is a classic compiler bug).
    // Kernel bodies only for now: the CPU backend drops a faulting op whose result is dead in a
    // reduce/scan combine (a missed error; the chance is drawn anyway to keep the stream).
    if (r.chance(0.06) && fb.kernel) c.family("shift.unmasked");
    else b = fb.def("and(" + b + ", " + splat(fb, t, int_bits(t.dt, info(t.dt).bits - 1)) + ")", t, false);
  }
  return fb.def(op + "(" + a.name + ", " + b + ")" + attrs, t);
}

std::string unary_with(Ctx& c, FnBuilder& fb, Rng& r, const PoolValue& x) {
  const VType t = x.type;
  std::string op, attrs;
  if (is_float(t.dt)) {
    static const std::vector<std::string> math = {"neg", "exp", "exp2", "log", "log1p", "lgamma", "sin", "asin", "cos",
                                                  "tanh", "floor", "erf", "erfc", "i0", "rsqrt", "sqrt", "sigmoid", "abs"};
    op = r.pick(math);
    // An input the operand comes from often gets data around op's breakpoints (inputs.h).
    if (fb.kernel && has_breakpoints(op))
      if (auto src = traced_input(fb.lines, c.inputs, x.name))
        c.recipes.push_back(math_breakpoint_recipe(src->input, op, src->negated));
    if (t.dt == DType::F32 && (op == "exp2" || op == "tanh") && r.chance(0.3)) {
      attrs = op == "exp2" ? std::string(" {approximate = true, flush_to_zero = ") + (r.chance(0.5) ? "true" : "false") + "}"
                           : " {approximate = true}";
      c.family("math.approximate");
    }
  } else if (t.dt == DType::Bool) {
    op = "not";
  } else {
    op = r.chance(0.5) ? "neg" : "not";
  }
  return fb.def(op + "(" + x.name + ")" + attrs, t);
}

}  // namespace

std::string pointwise_on(Ctx& c, FnBuilder& fb, Rng& r, const PoolValue& x) {
  if (!is_compute(x.type.dt)) return x.name;
  fb.use(x.name);
  return r.chance(0.7) ? binary_with(c, fb, r, x) : unary_with(c, fb, r, x);
}

bool fam_binary(Ctx& c, FnBuilder& fb, Rng& r) {
  const PoolValue a = operand(c, fb, r, [](const VType& t) { return is_compute(t.dt); }, is_compute);
  if (is_float(a.type.dt) && r.chance(0.4)) {  // a * b + c, the most common chain (two roundings)
    const std::string m = fb.def("mul(" + a.name + ", " + get(c, fb, r, a.type) + ")", a.type, false);
    fb.def("add(" + m + ", " + get(c, fb, r, a.type) + ")", a.type);
    c.family("binary.muladd");
    return true;
  }
  binary_with(c, fb, r, a);
  return true;
}

bool fam_unary(Ctx& c, FnBuilder& fb, Rng& r) {
  unary_with(c, fb, r, operand(c, fb, r, [](const VType& t) { return is_compute(t.dt); }, is_compute));
  return true;
}

bool fam_compare(Ctx& c, FnBuilder& fb, Rng& r) {
  PoolValue a = operand(c, fb, r, [](const VType& t) { return is_compute(t.dt); }, is_compute);
  const std::string b = get(c, fb, r, a.type);
  const std::string pred = r.pick({"eq", "ne", "lt", "le", "gt", "ge"});
  fb.def("cmp(" + a.name + ", " + b + ") {pred = " + pred + "}", a.type.with(DType::Bool));
  return true;
}

bool fam_select(Ctx& c, FnBuilder& fb, Rng& r) {
  PoolValue a = operand(c, fb, r, [](const VType& t) { return is_compute(t.dt); }, is_compute);
  const std::string cond = get(c, fb, r, a.type.with(DType::Bool));
  const std::string b = get(c, fb, r, a.type);
  fb.def("select(" + cond + ", " + a.name + ", " + b + ")", a.type);
  return true;
}

bool fam_cast(Ctx& c, FnBuilder& fb, Rng& r) {
  PoolValue x = operand(c, fb, r, [](const VType&) { return true; }, [](DType) { return true; });
  DType to = random_dtype(c, r, [&](DType d) { return d != x.type.dt; });
  const DType wide = r.chance(0.5) ? DType::I64 : DType::U64, narrow = r.chance(0.5) ? DType::F32 : DType::BF16;
  if (fb.kernel && r.chance(0.1) && c.allowed(wide) && c.allowed(narrow)) {
    // 64-bit integer data to a narrow float: the conversion must round once (the specials of
    // 64-bit integers include values where rounding through f64 first goes the wrong way).
    const VType t = VType::of(wide, random_shape(c, fb, r, 1));
    if (c.fits(fb, t.shape)) {
      x = PoolValue{fb.def("view.load(" + new_view(c, t, Access::In, &r) + ", " + ident_relation(c, fb, t.shape) + ")", t), t, 0};
      to = narrow;
      c.family("cast.wide_int");
    }
  }
  if (is_small_float(to) || is_small_float(x.type.dt)) c.family("cast.small");
  const std::string y = cast_to(c, fb, x.name, x.type, to);
  if (r.chance(0.25)) {  // and back (quantize-dequantize): only the wide dtype's value is observed
    cast_to(c, fb, y, x.type.with(to), x.type.dt);
    c.family("cast.roundtrip");
  }
  return true;
}

bool fam_bitcast(Ctx& c, FnBuilder& fb, Rng& r) {
  PoolValue x = operand(c, fb, r, [](const VType& t) { return width_bits(t.dt) > 0; },
                        [](DType d) { return width_bits(d) > 0; });
  if (width_bits(x.type.dt) == 0) return false;
  const DType to = random_dtype(c, r, [&](DType d) { return d != x.type.dt && width_bits(d) == width_bits(x.type.dt); });
  if (to == x.type.dt || width_bits(to) != width_bits(x.type.dt) || !c.allowed(to)) return false;
  fb.def("bitcast(" + x.name + ")", x.type.with(to));
  return true;
}

bool fam_const(Ctx& c, FnBuilder& fb, Rng& r) {
  const DType d = random_dtype(c, r, [](DType) { return true; });
  const uint64_t bits = r.chance(0.3) ? special_bits(d, r) : nice_bits(d, r);
  if (r.chance(0.4)) {
    fb.def("const() {value = " + literal(d, bits) + "}", VType::scalar(d));
  } else {
    VType t = VType::of(d, random_shape(c, fb, r, static_cast<int>(r.range(1, 2))));
    fb.def("full(" + const_scalar(fb, d, bits) + ")", t);
  }
  return true;
}

}  // namespace kir::fuzz
