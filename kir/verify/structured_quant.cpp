// Verifier rules of the closed quantized computations (seed 000 §11.1: L11.3): quantize to q8_k
// and quantized_dot of q4_k by q8_k, whose record layouts are fixed per 256-element super-block
// (q8_k: d, qs, bsums per 16; q4_k: d, dmin, 12 scale bytes, 128 packed bytes).
#include "kir/verify/structured_checks.h"
#include "kir/verify/structured_schema.h"

namespace kir::verify::structured {

namespace {

const std::string R = "L11.3";

std::string spell(const Type& t) { return t ? t.str() : std::string("<none>"); }

// `blocks` counts the `size`-element blocks of K: floordiv(K, size), or K == size*blocks.
bool per_block(const Extent& blocks, const Extent& k, int64_t size) {
  return blocks == Extent::floordiv(k, Extent::constant(size)) || blocks * Extent::constant(size) == k;
}

std::vector<Extent> concat(std::vector<Extent> a, std::initializer_list<Extent> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The record's fields, if it is a record with exactly these field names in this order.
std::optional<std::vector<Type>> fields_of(const Type& t, std::initializer_list<const char*> names) {
  if (!t.is(TypeKind::Record) || t.fields().size() != names.size()) return std::nullopt;
  std::vector<Type> out;
  size_t i = 0;
  for (const char* n : names) {
    if (t.fields()[i].first != n) return std::nullopt;
    out.push_back(t.fields()[i++].second);
  }
  return out;
}

bool keyword_is(Context& cx, const Operation& op, const std::string& key, const std::string& want) {
  const Attribute* a = cx.attr(op, key, Attribute::Kind::Keyword, R);
  if (!a) return false;
  if (a->s == want) return true;
  cx.error(op, R, key + " '" + a->s + "' is not supported: " + op.name + " takes " + key + " = " + want);
  return false;
}

bool k_multiple_of_256(Context& cx, const Operation& op, const Extent& k) {
  auto v = k.constant_value();
  if (!v || *v % 256 == 0) return true;
  cx.error(op, R, "K = " + std::to_string(*v) + " is not a multiple of the 256-element super-block");
  return false;
}

bool tensor_like(const Type& t, DType d, const std::vector<Extent>& shape) {
  return t.is_tensor() && t.dtype() == d && t.shape() == shape;
}

}  // namespace

void check_quantize(const Operation& op, Context& cx) {
  cx.only_attrs(op, {"format"}, R);
  if (!cx.operands(op, 1, R) || !cx.results(op, 1, R)) return;
  if (!keyword_is(cx, op, "format", "q8_k")) return;
  Type v = operand_type(op, 0);
  if (!v.is_tensor() || v.dtype() != DType::F32 || v.rank() == 0) {
    cx.error(op, R, "values must be an f32 tensor [..., K], got " + spell(v));
    return;
  }
  std::vector<Extent> lead(v.shape().begin(), v.shape().end() - 1);
  const Extent& k = v.shape().back();
  if (!k_multiple_of_256(cx, op, k)) return;
  Type want = Type::record({{"d", Type::tensor(DType::F32, concat(lead, {Extent::floordiv(k, Extent::constant(256))}))},
                            {"qs", Type::tensor(DType::I8, v.shape())},
                            {"bsums", Type::tensor(DType::I16, concat(lead, {Extent::floordiv(k, Extent::constant(16))}))}});
  Type res = result_type(op, 0);
  auto f = fields_of(res, {"d", "qs", "bsums"});
  bool ok = f && (*f)[0].is_tensor() && (*f)[2].is_tensor() && (*f)[0].rank() == v.rank() &&
            (*f)[2].rank() == v.rank();
  if (ok) {
    ok = tensor_like((*f)[0], DType::F32, concat(lead, {(*f)[0].shape().back()})) &&
         per_block((*f)[0].shape().back(), k, 256) && tensor_like((*f)[1], DType::I8, v.shape()) &&
         tensor_like((*f)[2], DType::I16, concat(lead, {(*f)[2].shape().back()})) &&
         per_block((*f)[2].shape().back(), k, 16);
  }
  if (!ok) cx.error(op, R, "result must be " + want.str() + " for values " + v.str() + ", got " + spell(res));
}

void check_quantized_dot(const Operation& op, Context& cx) {
  cx.only_attrs(op, {"lhs_format", "rhs_format"}, R);
  if (!cx.operands(op, 2, R) || !cx.results(op, 1, R)) return;
  bool formats = keyword_is(cx, op, "lhs_format", "q4_k");
  formats = keyword_is(cx, op, "rhs_format", "q8_k") && formats;
  if (!formats) return;
  Type l = operand_type(op, 0), r = operand_type(op, 1);
  const char* lhs_schema = "record<d: f16[L..., NB], dmin: f16[L..., NB], scales: u8[L..., NB, 12], "
                           "qs: u8[L..., NB, 128]>";
  auto lf = fields_of(l, {"d", "dmin", "scales", "qs"});
  if (!lf || !(*lf)[0].is_tensor() || (*lf)[0].rank() == 0) {
    cx.error(op, R, std::string("lhs (q4_k) must be ") + lhs_schema + ", got " + spell(l));
    return;
  }
  const auto& ld = (*lf)[0].shape();
  std::vector<Extent> lead(ld.begin(), ld.end() - 1);
  const Extent& nb = ld.back();
  if (!tensor_like((*lf)[0], DType::F16, ld) || !tensor_like((*lf)[1], DType::F16, ld) ||
      !tensor_like((*lf)[2], DType::U8, concat(ld, {Extent::constant(12)})) ||
      !tensor_like((*lf)[3], DType::U8, concat(ld, {Extent::constant(128)}))) {
    cx.error(op, R, std::string("lhs (q4_k) must be ") + lhs_schema + ", got " + l.str());
    return;
  }
  const char* rhs_schema = "record<d: f32[R..., NB], qs: i8[R..., K], bsums: i16[R..., floordiv(K, 16)]>";
  auto rf = fields_of(r, {"d", "qs", "bsums"});
  if (!rf || !(*rf)[1].is_tensor() || (*rf)[1].rank() == 0) {
    cx.error(op, R, std::string("rhs (q8_k) must be ") + rhs_schema + ", got " + spell(r));
    return;
  }
  const auto& rq = (*rf)[1].shape();
  std::vector<Extent> rlead(rq.begin(), rq.end() - 1);
  const Extent& k = rq.back();
  const Type& bs = (*rf)[2];
  if ((*rf)[1].dtype() != DType::I8 || !tensor_like((*rf)[0], DType::F32, concat(rlead, {nb})) || !bs.is_tensor() ||
      !tensor_like(bs, DType::I16, concat(rlead, {bs.rank() ? bs.shape().back() : Extent()})) ||
      bs.rank() != rq.size() || !per_block(bs.shape().back(), k, 16)) {
    cx.error(op, R, std::string("rhs (q8_k) must be ") + rhs_schema + " with the lhs block count NB = " + nb.str() +
                        ", got " + r.str());
    return;
  }
  if (!k_multiple_of_256(cx, op, k)) return;
  if (!per_block(nb, k, 256)) {
    cx.error(op, R, "block count NB = " + nb.str() + " must be floordiv(K, 256) for K = " + k.str() +
                        " (or K = 256*NB)");
    return;
  }
  std::vector<Extent> shape = lead;
  shape.insert(shape.end(), rlead.begin(), rlead.end());
  Type want = Type::tensor(DType::F32, shape);
  if (result_type(op, 0) != want)
    cx.error(op, R, "result must be " + want.str() + " (lhs leading axes, then rhs leading axes), got " +
                        spell(result_type(op, 0)));
}

}  // namespace kir::verify::structured
