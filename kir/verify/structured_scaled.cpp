// Verifier rules of scaled_contract (seed 000 §11: L11.1, L11.2): one closed positional schema —
// lhs carrier u8[M, G, C_lhs], lhs_scale e8m0[M, G], rhs carrier u8[G, C_rhs, N], rhs_scale
// e8m0[N, G], reduce [[1, 0], [2, 1]], batch [], result [M, N] of a float accumulator dtype —
// where C is fixed by the format (e2m1 packs two elements per byte) and the shared group size.
#include <cctype>

#include "kir/verify/structured_checks.h"
#include "kir/verify/structured_schema.h"

namespace kir::verify::structured {

namespace {

const std::string R = "L11.1";

// Logical elements per u8 carrier byte of a scaled format; 0 if not a scaled format.
int elements_per_byte(const std::string& f) {
  if (f == "e2m1") return 2;
  if (f == "e4m3" || f == "e5m2") return 1;
  return 0;
}

// A packed integer format (int4, uint2, i4, u8, ...): the author decodes it for ordinary contract.
bool integer_format(const std::string& f) {
  if (auto d = parse_dtype(f); d && is_integer(*d)) return true;
  size_t i = f.rfind("uint", 0) == 0 ? 4 : f.rfind("int", 0) == 0 ? 3 : (f[0] == 'i' || f[0] == 'u') ? 1 : 0;
  if (i == 0 || i >= f.size()) return false;
  for (; i < f.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(f[i]))) return false;
  return true;
}

std::optional<std::string> format_attr(Context& cx, const Operation& op, const std::string& key) {
  const Attribute* a = cx.attr(op, key, Attribute::Kind::Keyword, R);
  if (!a) return std::nullopt;
  if (elements_per_byte(a->s)) return a->s;
  if (!a->s.empty() && integer_format(a->s))
    cx.error(op, "L11.2", key + " '" + a->s + "' is a packed integer format, not a scaled format; decode it "
                          "explicitly and use contract");
  else
    cx.error(op, R, key + " '" + a->s + "' is not a scaled format (e2m1, e4m3, e5m2)");
  return std::nullopt;
}

std::optional<int64_t> group_attr(Context& cx, const Operation& op, const std::string& key) {
  const Attribute* a = cx.attr(op, key, Attribute::Kind::Int, R);
  if (!a) return std::nullopt;
  if (a->i <= 0 || a->i > (static_cast<int128>(1) << 40)) {
    cx.error(op, R, key + " " + int128_str(a->i) + " must be a positive group size");
    return std::nullopt;
  }
  return static_cast<int64_t>(a->i);
}

bool tensor_of(const Type& t, DType d, size_t rank) { return t.is_tensor() && t.dtype() == d && t.rank() == rank; }

std::string spell(const Type& t) { return t ? t.str() : std::string("<none>"); }

}  // namespace

void check_scaled_contract(const Operation& op, Context& cx) {
  cx.only_attrs(op, {"lhs_format", "rhs_format", "lhs_group_size", "rhs_group_size", "reduce", "batch"}, R);
  if (!cx.operands(op, 4, R) || !cx.results(op, 1, R)) return;
  auto lf = format_attr(cx, op, "lhs_format");
  auto rf = format_attr(cx, op, "rhs_format");
  auto lg = group_attr(cx, op, "lhs_group_size");
  auto rg = group_attr(cx, op, "rhs_group_size");
  auto reduce = cx.pairs_attr(op, "reduce", R);
  auto batch = cx.pairs_attr(op, "batch", R);
  if (!lf || !rf || !lg || !rg || !reduce || !batch) return;
  if (*lg != *rg) {
    cx.error(op, R, "lhs_group_size " + std::to_string(*lg) + " differs from rhs_group_size " + std::to_string(*rg) +
                        "; both sides share one logical scale-group axis G");
    return;
  }
  int lper = elements_per_byte(*lf), rper = elements_per_byte(*rf);
  if (*lg % lper != 0 || *lg % rper != 0) {
    cx.error(op, R, "group size " + std::to_string(*lg) + " is odd; e2m1 packs two elements per byte");
    return;
  }
  std::vector<std::pair<int64_t, int64_t>> want{{1, 0}, {2, 1}};
  if (*reduce != want || !batch->empty()) {
    cx.error(op, R, "the closed schema fixes reduce = [[1, 0], [2, 1]] and batch = [], got reduce = " +
                        op.attr("reduce")->str() + ", batch = " + op.attr("batch")->str());
    return;
  }
  Type l = operand_type(op, 0), ls = operand_type(op, 1), r = operand_type(op, 2), rs = operand_type(op, 3);
  if (!tensor_of(l, DType::U8, 3)) {
    cx.error(op, R, "lhs carrier must be a u8[M, G, C] tensor, got " + spell(l));
    return;
  }
  if (!tensor_of(ls, DType::E8M0, 2)) {
    cx.error(op, R, "lhs_scale must be an e8m0[M, G] tensor, got " + spell(ls));
    return;
  }
  if (!tensor_of(r, DType::U8, 3)) {
    cx.error(op, R, "rhs carrier must be a u8[G, C, N] tensor, got " + spell(r));
    return;
  }
  if (!tensor_of(rs, DType::E8M0, 2)) {
    cx.error(op, R, "rhs_scale must be an e8m0[N, G] tensor, got " + spell(rs));
    return;
  }
  const Extent &m = l.shape()[0], &g = l.shape()[1], &n = r.shape()[2];
  auto same = [&](const Extent& got, const Extent& exp, const std::string& what) {
    if (got == exp) return true;
    cx.error(op, R, what + " is " + got.str() + " but must be " + exp.str());
    return false;
  };
  if (!same(ls.shape()[0], m, "lhs_scale extent M (axis 0)") || !same(ls.shape()[1], g, "lhs_scale extent G (axis 1)") ||
      !same(r.shape()[0], g, "rhs carrier extent G (axis 0)") || !same(rs.shape()[0], n, "rhs_scale extent N (axis 0)") ||
      !same(rs.shape()[1], g, "rhs_scale extent G (axis 1)"))
    return;
  Extent cl = Extent::constant(*lg / lper), cr = Extent::constant(*rg / rper);
  if (l.shape()[2] != cl) {
    cx.error(op, R, "lhs carrier extent C (axis 2) is " + l.shape()[2].str() + " but must be " + cl.str() + " (group size " +
                        std::to_string(*lg) + ", " + std::to_string(lper) + " " + *lf + " element(s) per byte)");
    return;
  }
  if (r.shape()[1] != cr) {
    cx.error(op, R, "rhs carrier extent C (axis 1) is " + r.shape()[1].str() + " but must be " + cr.str() + " (group size " +
                        std::to_string(*rg) + ", " + std::to_string(rper) + " " + *rf + " element(s) per byte)");
    return;
  }
  Type res = result_type(op, 0);
  if (!res.is_tensor() || !is_float(res.dtype()) || res.shape() != std::vector<Extent>{m, n}) {
    cx.error(op, R, "result must be a [" + m.str() + ", " + n.str() + "] tensor of f16, bf16, f32 or f64, got " +
                        spell(res));
  }
}

}  // namespace kir::verify::structured
