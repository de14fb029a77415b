// The sequential contract implementation: per result element one accumulator in the
// accumulator dtype; the reduction points are visited in row-major order over the `reduce`
// pairs (first pair outermost); each product is rounded once into the accumulator and added
// with one rounding. This is one of the orders the numerics contract allows (it lies inside
// the reassociation envelope), and the interpreter evaluates exactly this order under
// `--policy accumulation=sequential`, so the two agree bit for bit. Integer accumulators wrap.
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
int precision(DType d) {
  switch (d) {
    case DType::F64: return 53;
    case DType::F32: return 24;
    case DType::F16: return 11;
    case DType::BF16: return 8;
    case DType::E4M3: return 4;
    case DType::E5M2: return 3;
    case DType::E2M1: return 2;
    default: return info(d).bits;  // integers: every value needs up to its width
  }
}


// Every value of `x` is exactly a value of `acc` (so the cast does not round).
namespace {
// Smallest/largest binary exponent of a nonzero finite value (subnormals included).
std::pair<int, int> exponent_range(DType d) {
  switch (d) {
    case DType::F64: return {-1074, 1023};
    case DType::F32: return {-149, 127};
    case DType::F16: return {-24, 15};
    case DType::BF16: return {-133, 127};
    case DType::E4M3: return {-9, 8};
    case DType::E5M2: return {-16, 15};
    case DType::E2M1: return {-1, 2};
    default: return {0, info(d).bits};
  }
}
}  // namespace

bool embeds(DType x, DType acc) {
  if (x == acc) return true;
  if (!is_float(acc)) return is_integer(x) && is_integer(acc) && info(x).bits <= info(acc).bits;
  if (x == DType::Bool || x == DType::E8M0) return false;
  auto [xl, xh] = exponent_range(x);
  auto [al, ah] = exponent_range(acc);
  if (is_integer(x)) return precision(x) <= precision(acc);
  return precision(x) <= precision(acc) && xl >= al && xh <= ah;
}

namespace {

std::string contract_applicable(const Program& P, const StructuredOp& st) {
  if (matmul_form(P, st).empty())
    return "a dense f32/f64 matrix product, the kind the packed implementations realize";
  if (int8_matmul_form(P, st).empty())
    return "a dense i8/u8 matrix product into i32, the kind the packed integer implementations realize";
  if (bf16_matmul_form(P, st).empty())
    return "a dense bf16 matrix product into f32, the kind the packed bf16 implementations realize";
  DType a = P.buf(st.operands[0]).dtype, b = P.buf(st.operands[1]).dtype, acc = st.acc;
  if (is_integer(acc)) {
    if (!is_integer(a) || !is_integer(b)) return "integer accumulator over non-integer operands";
    return "";
  }
  if (!is_float(acc)) return "accumulator " + std::string(name(acc)) + " is not a float or integer dtype";
  if (embeds(a, acc) && embeds(b, acc)) return "";
  if (embeds(a, DType::F64) && embeds(b, DType::F64) && precision(a) + precision(b) <= 53) return "";
  return "the product of " + std::string(name(a)) + " and " + std::string(name(b)) +
         " cannot be rounded once into " + std::string(name(acc));
}

std::vector<StmtP> expand_contract(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  auto reduce = pairs_of(st, "reduce"), batch = pairs_of(st, "batch");
  const Buffer& L = P.buf(st.operands[0]);
  const Buffer& R = P.buf(st.operands[1]);
  DType acc = st.acc;
  size_t lr = L.shape.size(), rr = R.shape.size();
  std::vector<int> lrole(lr, -1), rrole(rr, -1);  // -2 reduced; lhs >= 0: batch partner; rhs -3 batch
  std::vector<ExprP> red_ext;
  for (auto [l, r] : reduce) {
    lrole[static_cast<size_t>(l)] = -2;
    rrole[static_cast<size_t>(r)] = -2;
    red_ext.push_back(L.shape[static_cast<size_t>(l)]);
  }
  for (auto [l, r] : batch) {
    lrole[static_cast<size_t>(l)] = static_cast<int>(r);
    rrole[static_cast<size_t>(r)] = -3;
  }
  std::vector<VarId> ovars;
  std::vector<StmtP> out;
  out.push_back(loop_nest(P, ovars, P.buf(st.results[0]).shape, [&](std::vector<StmtP>& body) {
    const bool f32_acc = acc == DType::F64 && mutant_active(MutantId::ContractAccumulatesF32);
    const DType acc_t = f32_acc ? DType::F32 : acc;
    VarId a = P.add_var("acc", acc_t, VarRole::Carry);
    auto init = make_stmt(StmtKind::Assign, s.op_id);
    init->var = a;
    init->value = sum_start(acc_t);
    body.push_back(std::move(init));
    std::vector<VarId> qvars;
    std::vector<ExprP> loop_ext = red_ext;
    if (!loop_ext.empty() && mutant_active(MutantId::ContractUnrolledNoTail))
      loop_ext.back() = index_mul(make_binary("floordiv", loop_ext.back(), make_index(2)), make_index(2));
    body.push_back(loop_nest(P, qvars, loop_ext, [&](std::vector<StmtP>& inner) {
      std::vector<ExprP> li(lr), ri(rr);
      size_t o = 0;
      for (size_t k = 0; k < lr; ++k) {
        if (lrole[k] == -2) continue;
        li[k] = make_var(ovars[o], DType::Index);
        if (lrole[k] >= 0) ri[static_cast<size_t>(lrole[k])] = li[k];
        ++o;
      }
      for (size_t k = 0; k < rr; ++k)
        if (rrole[k] == -1) ri[k] = make_var(ovars[o++], DType::Index);
      for (size_t j = 0; j < reduce.size(); ++j) {
        li[static_cast<size_t>(reduce[j].first)] = make_var(qvars[j], DType::Index);
        ri[static_cast<size_t>(reduce[j].second)] = make_var(qvars[j], DType::Index);
      }
      ExprP x = make_load(L.id, L.dtype, li), y = make_load(R.id, R.dtype, ri);
      ExprP prod;
      if (is_integer(acc) || (embeds(L.dtype, acc) && embeds(R.dtype, acc))) {
        prod = make_binary("mul", make_cast(x, acc, s.op_id), make_cast(y, acc, s.op_id));
      } else {  // exact in f64, then one rounding into the accumulator
        prod = make_cast(make_binary("mul", make_cast(x, DType::F64), make_cast(y, DType::F64)), acc);
      }
      VarId t = let_var(P, inner, "term", prod);
      auto upd = make_stmt(StmtKind::Assign, s.op_id);
      upd->var = a;
      upd->value = make_binary("add", make_var(a, acc_t), f32_acc ? make_cast(make_var(t, acc), acc_t) : make_var(t, acc));
      inner.push_back(std::move(upd));
    }));
    auto w = make_stmt(StmtKind::Store, s.op_id);
    w->buf = st.results[0];
    for (VarId v : ovars) w->index.push_back(make_var(v, DType::Index));
    ExprP count = make_index(1);
    for (const auto& e : red_ext) count = index_mul(count, e);
    w->value = sum_result(f32_acc ? make_cast(make_var(a, acc_t), acc) : make_var(a, acc), count);
    body.push_back(std::move(w));
  }, true));
  return out;
}

}  // namespace

std::vector<Implementation> contract_implementations() {
  return {{"contract.sequential", "contract",
          "row-major over the reduce pairs, each product rounded once into the accumulator, then added "
          "(a legal order inside the reassociation envelope; integer accumulators wrap)",
          contract_applicable, expand_contract, {}, "", "sequential",
          {"none", "the operands as they are", "none", "the result buffer, element by element"}}};
}

}  // namespace kir::cpu
