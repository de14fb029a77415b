// The vectorized q4_K x q8_K decode-dot (quantized_dot.q4k_q8k.avx512 / .avx2; checklist C6, C7):
// the result loop over the rows of both operands, one micro-kernel call per result element
// (ir/ukernels.h `qdot.q4k_q8k.<isa>`, rt/kir_uk_qdot.h) reading the row's q4_K and q8_K record
// fields in place through their strides. The kernel computes numerics/kquant.cpp's
// vec_dot_q4_K_q8_K bit for bit — exact integer parts, the reference's f32 operations in its
// order without fma — so these implementations keep quantized_dot.q4k_q8k's contract (no
// accumulation order to declare: the result is bitwise defined). The result loop is the
// expansion's outermost loop with the unique-write fact, so the task partition splits the rows
// across tasks.
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/ir/ukernels.h"
#include "backends/cpu/runtime/capabilities.h"

namespace kir::cpu {
namespace {

constexpr int32_t kFaultShapeMismatch = 7;

// The first element of block 0 of field `b` in the row `lead` (a [..., NB] or [..., NB, per]
// buffer, or a flat [..., NB * per] one).
ExprP block0(const Program& P, BufId b, const std::vector<ExprP>& lead) {
  std::vector<ExprP> idx = lead;
  const size_t rank = P.buf(b).shape.size();
  while (idx.size() < rank) idx.push_back(make_index(0));
  return make_load(b, P.buf(b).dtype, std::move(idx));
}

std::vector<StmtP> expand(Program& P, const Stmt& s, const QdotUKernel& uk) {
  const StructuredOp& st = *s.structured;
  const BufId LD = st.operands[0], RD = st.operands[4], OUT = st.results[0];
  const std::vector<ExprP> lds = P.buf(LD).shape, rds = P.buf(RD).shape;
  const ExprP nb = lds.back();
  std::vector<StmtP> out;
  out.push_back(make_stmt(StmtKind::Block));
  auto& body = out.back()->body;
  // Both sides hold the same number of super-blocks (the fault quantized_dot.q4k_q8k raises).
  auto cl = const_index(nb), cr = const_index(rds.back());
  if (!(cl && cr && *cl == *cr) && !same_expr(*nb, *rds.back())) {
    auto chk = make_stmt(StmtKind::Check, s.op_id);
    chk->value = cl && cr ? make_const(DType::Bool, 0) : make_compare("eq", nb, rds.back());
    chk->fault = kFaultShapeMismatch;
    chk->detail = {nb, rds.back()};
    body.push_back(std::move(chk));
  }
  const size_t ll = lds.size() - 1;
  std::vector<VarId> vars;
  body.push_back(loop_nest(P, vars, P.buf(OUT).shape, [&](std::vector<StmtP>& inner) {
    std::vector<ExprP> o, li, ri;
    for (size_t k = 0; k < vars.size(); ++k) {
      o.push_back(make_var(vars[k], DType::Index));
      (k < ll ? li : ri).push_back(o.back());
    }
    auto k = make_stmt(StmtKind::Kernel, s.op_id);
    k->op = uk.name();
    k->buf = OUT;
    k->index = o;
    for (size_t f = 0; f < 7; ++f) k->detail.push_back(block0(P, st.operands[f], f < 4 ? li : ri));
    k->detail.push_back(nb);
    inner.push_back(std::move(k));
  }, true));
  return out;
}

Implementation make(const std::string& isa) {
  const QdotUKernel uk{isa};
  Implementation impl;
  impl.name = "quantized_dot.q4k_q8k." + isa;
  impl.computation = "quantized_dot";
  impl.contract =
      "numerics/kquant.cpp's vec_dot_q4_K_q8_K (ggml reference order, f32, no fma), bit for bit: exact integer "
      "lanes in " + isa + " vectors, the eight f32 lanes as one vector";
  impl.applicable = [isa](const Program& P, const StructuredOp& st) {
    if (auto why = q4k_q8k_dot_form(P, st); !why.empty()) return why;
    const auto& caps = rt::host_capabilities();
    if (isa == "avx512" && !caps.avx512bw) return std::string("needs avx512bw, which this CPU does not have");
    return std::string();
  };
  impl.expand = [uk](Program& P, const Stmt& s) { return expand(P, s, uk); };
  impl.capability = uk.capability();
  impl.needs = {"none", "q4_K and q8_K record fields read in place (any strides)", "none",
                "one f32 per result element, one " + uk.name() + " call each"};
  return impl;
}

}  // namespace

std::vector<Implementation> qdot_packed_implementations() { return {make("avx512"), make("avx2")}; }

}  // namespace kir::cpu
