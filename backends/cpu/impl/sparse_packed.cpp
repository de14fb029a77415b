// The packed 2:4 / 1:2 sparse_contract (checklist C6, C7, C11): sparse_contract.packed.<isa> for
// avx512, avx2 and portable. The kind (sparse_packed_form, contract_packed.h): values [M, Kc] and
// integer metadata [M, Kc] (reduce pair [1, 0], no batch), a dense rhs [Kd, N] (Kd = Kc / keep *
// group), an f32 or f64 accumulator into which both operands embed exactly and a result [M, N]
// of the accumulator dtype; sparse_contract.sequential takes every other sparse_contract.
//
// The order is "sequential-fused" over the kept terms: per element acc = -0, then for the kept
// dense positions increasing (group by group; within a group the metadata is strictly
// increasing, so that is the compressed order) acc = fma(value, rhs[position, n], acc); no terms
// give +0. A dropped position is no term at all: nothing is decompressed to a zero, so an Inf or
// NaN of the rhs there never meets a 0 (0 * Inf = NaN), and no +0 product turns a -0 sum to +0.
//
// Expansion: the metadata validation and shape check of sparse_contract.sequential (the same
// faults and messages), then the packed contract's BLIS nest (contract_packed.h) with the sparse
// A: KC blocks cut on group boundaries; B packed densely into KC x NR panels; A packed per
// micro-panel of MR rows as its kept terms of the block (kc / group * keep per row, term-major)
// with each term's k within the block; the micro-kernel gemm_sparse.<T>.<isa>.<MR>x<NV> loads, for
// row i's term t, the B panel row at that term's own k and fmas it with the broadcast value.
#include "backends/cpu/impl/contract_packed.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

bool sparse_kind(const StructuredOp& st, int64_t& group, int64_t& keep) {
  auto it = st.attrs.find("format");
  if (it == st.attrs.end()) return false;
  if (it->second.s == "two_of_four") { group = 4; keep = 2; return true; }
  if (it->second.s == "one_of_two") { group = 2; keep = 1; return true; }
  return false;
}

ExprP idx(int64_t v) { return make_index(v); }
ExprP bin(const char* o, ExprP a, ExprP b) { return make_binary(o, std::move(a), std::move(b)); }

struct Sp {
  Program& P;
  const Stmt& s;
  BufId V, Mt, R;
  DType acc;
  int64_t group, keep;

  VarId loop_var(const std::string& n) const { return P.add_var(n, DType::Index, VarRole::Loop); }
  ExprP var(VarId v) const { return make_var(v, P.var(v).dtype); }
  StmtP loop(VarId v, ExprP lo, ExprP hi) const { return make_loop(v, std::move(lo), std::move(hi), idx(1), s.op_id); }
  ExprP let(std::vector<StmtP>& into, const std::string& n, ExprP value) const {
    if (value->kind == ExprKind::Const || value->kind == ExprKind::Var) return value;
    return var(let_var(P, into, n, std::move(value)));
  }
  StmtP store(BufId b, std::vector<ExprP> at, ExprP value) const {
    auto st = make_stmt(StmtKind::Store, kNone);
    st->buf = b;
    st->index = std::move(at);
    st->value = std::move(value);
    return st;
  }
  ExprP as_acc(ExprP x) const { return x->dtype == acc ? x : make_cast(std::move(x), acc); }

  // B (side 1 only): panel[(p * kc + kk) * W + w] = rhs[pc + kk, base + p * W + w], +0 beyond n.
  StmtP pack_b(BufId panel, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W) const {
    VarId p = loop_var("jp"), kk = loop_var("kk"), w = loop_var("jj"), z = loop_var("pad"), kz = loop_var("kz");
    auto lp = loop(p, idx(0), bin("floordiv", index_add(n, idx(W - 1)), idx(W)));
    ExprP width = let(lp->body, "width", index_min(idx(W), index_sub(n, index_mul(var(p), idx(W)))));
    auto at = [&](VarId k, ExprP col) { return index_add(index_mul(index_add(index_mul(var(p), kc), var(k)), idx(W)), col); };
    auto lk = loop(kk, idx(0), kc);
    auto lw = loop(w, idx(0), width);
    const Buffer& B = P.buf(R);
    lw->body.push_back(store(panel, {at(kk, var(w))},
                             as_acc(make_load(B.id, B.dtype, {index_add(pc, var(kk)), index_add(base, index_add(index_mul(var(p), idx(W)), var(w)))}))));
    lk->body.push_back(std::move(lw));
    lp->body.push_back(std::move(lk));
    auto lkz = loop(kz, idx(0), kc);
    auto lz = loop(z, width, idx(W));
    lz->body.push_back(store(panel, {at(kz, var(z))}, make_const(acc, 0)));
    lkz->body.push_back(std::move(lz));
    lp->body.push_back(std::move(lkz));
    return lp;
  }

  // A: vals[(p * kt + t) * W + w] = values[f, pc / group * keep + t] and ks[...] its k within the
  // block, (t / keep) * group + metadata; 0 and 0 for rows beyond n.
  StmtP pack_kept(BufId vals, BufId ks, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W) const {
    VarId p = loop_var("ip"), t = loop_var("t"), w = loop_var("ii"), z = loop_var("pad"), tz = loop_var("tz");
    auto lp = loop(p, idx(0), bin("floordiv", index_add(n, idx(W - 1)), idx(W)));
    auto& pb = lp->body;
    ExprP width = let(pb, "width", index_min(idx(W), index_sub(n, index_mul(var(p), idx(W)))));
    ExprP kt = let(pb, "kt", index_mul(bin("floordiv", kc, idx(group)), idx(keep)));
    ExprP c0 = let(pb, "c0", index_mul(bin("floordiv", pc, idx(group)), idx(keep)));
    auto at = [&](VarId tt, ExprP row) { return index_add(index_mul(index_add(index_mul(var(p), kt), var(tt)), idx(W)), row); };
    auto lw = loop(w, idx(0), width);
    auto lt = loop(t, idx(0), kt);
    ExprP f = let(lw->body, "f", index_add(base, index_add(index_mul(var(p), idx(W)), var(w))));
    ExprP ck = let(lt->body, "ck", index_add(c0, var(t)));
    const Buffer &Vb = P.buf(V), &Mb = P.buf(Mt);
    lt->body.push_back(store(vals, {at(t, var(w))}, as_acc(make_load(Vb.id, Vb.dtype, {f, ck}))));
    ExprP pos = make_cast(make_load(Mb.id, Mb.dtype, {f, ck}), DType::I32);
    ExprP k = bin("add", make_cast(index_mul(bin("floordiv", var(t), idx(keep)), idx(group)), DType::I32), pos);
    if (mutant_active(MutantId::SparseKeptKNoGroupBase)) k = pos;
    lt->body.push_back(store(ks, {at(t, var(w))}, k));
    lw->body.push_back(std::move(lt));
    pb.push_back(std::move(lw));
    auto ltz = loop(tz, idx(0), kt);
    auto lz = loop(z, width, idx(W));
    lz->body.push_back(store(vals, {at(tz, var(z))}, make_const(acc, 0)));
    lz->body.push_back(store(ks, {at(tz, var(z))}, make_const(DType::I32, 0)));
    ltz->body.push_back(std::move(lz));
    pb.push_back(std::move(ltz));
    return lp;
  }
};

std::vector<StmtP> expand_sparse_packed(const PackedIsa& isa, Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  int64_t group = 0, keep = 0;
  sparse_kind(st, group, keep);
  Sp sp{P, s, st.operands[0], st.operands[1], st.operands[2], st.acc, group, keep};
  std::vector<StmtP> out = sparse_validation(P, s);
  const Buffer &Vb = P.buf(sp.V), &R = P.buf(sp.R);
  PackedSource src;
  src.M = Vb.shape[0];
  src.N = R.shape[1];
  src.K = index_mul(bin("floordiv", Vb.shape[1], idx(keep)), idx(group));  // dense k (the shape check made it R's)
  src.group = group;
  src.keep = keep;
  src.pack = [&sp](BufId panel, int side, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W) {
    if (side != 1) throw std::logic_error("sparse_contract.packed packs A through pack_kept");
    return sp.pack_b(panel, std::move(base), std::move(n), std::move(pc), std::move(kc), W);
  };
  src.pack_kept = [&sp](BufId vals, BufId ks, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W) {
    return sp.pack_kept(vals, ks, std::move(base), std::move(n), std::move(pc), std::move(kc), W);
  };
  for (auto& x : expand_packed_nest(isa, P, s, src)) out.push_back(std::move(x));
  return out;
}

Implementation sparse_packed(const PackedIsa& isa) {
  Implementation impl;
  impl.name = "sparse_contract.packed." + isa.name;
  impl.computation = "sparse_contract";
  impl.contract =
      "per element one accumulator from -0 through the kept terms only (kept dense positions increasing), one fma "
      "per kept term (a dropped position adds nothing, not even a zero product); no terms give +0; metadata "
      "validated first, as sparse_contract.sequential";
  impl.applicable = [isa](const Program& P, const StructuredOp& st) {
    if (std::string why = sparse_packed_form(P, st); !why.empty()) return why;
    const int64_t mr = param(st, "mr"), nv = param(st, "nv");
    // Accumulators, one B vector and the broadcast value.
    if (isa.name != "portable" && mr * nv + 2 > isa.registers)
      return "a " + std::to_string(mr) + "x" + std::to_string(nv) + " micro-tile needs " + std::to_string(mr * nv + 2) +
             " vector registers; " + isa.name + " has " + std::to_string(isa.registers);
    return std::string();
  };
  impl.expand = [isa](Program& P, const Stmt& s) { return expand_sparse_packed(isa, P, s); };
  impl.params = {{"mr", 1, 16, 1, false},         {"nv", 1, isa.name == "portable" ? 16 : 8, 1, false},
                 {"task_m", 0, 1 << 30, 1, true}, {"task_n", 0, 1 << 30, 1, true},
                 {"mc", 1, 1 << 20, 1, true},     {"nc", 1, 1 << 24, 1, true},
                 {"kc", 1, 1 << 16, 1, true}};
  impl.capability = isa.capability;
  impl.order = "sequential-fused";
  impl.needs = {"task tiles task_m x task_n, blocks NC x KC x MC (BLIS order jc, pc, ic) as contract.packed, KC "
                "rounded down to whole groups (at least one)",
                "A's kept values and their k (i32) in MR-row micro-panels, term-major; B into NR-column micro-panels, "
                "k-major, zero-padded",
                "three panels per task, owned by the task",
                "the result buffer, MR x NR blocks written by the gemm_sparse micro-kernel"};
  return impl;
}

}  // namespace

std::string sparse_packed_form(const Program& P, const StructuredOp& st) {
  if (st.kind != "sparse_contract") return "not a sparse_contract";
  int64_t group = 0, keep = 0;
  if (!sparse_kind(st, group, keep)) return "the format is not two_of_four/one_of_two";
  if (st.operands.size() != 3 || st.results.size() != 1) return "expects values, metadata, rhs";
  if (!pairs_of(st, "batch").empty()) return "batch pairs";
  const auto reduce = pairs_of(st, "reduce");
  if (reduce.size() != 1 || reduce[0].first != 1 || reduce[0].second != 0) return "the reduce pairs are not [[1, 0]]";
  const Buffer &V = P.buf(st.operands[0]), &Mt = P.buf(st.operands[1]), &R = P.buf(st.operands[2]), &O = P.buf(st.results[0]);
  if (V.shape.size() != 2 || Mt.shape.size() != 2 || R.shape.size() != 2 || O.shape.size() != 2)
    return "operands are not values [M, Kc], metadata [M, Kc], rhs [Kd, N] with a result [M, N]";
  if (!is_integer(Mt.dtype)) return "metadata is not integer";
  if (st.acc != DType::F32 && st.acc != DType::F64) return "the accumulator is " + std::string(name(st.acc)) + ", not f32 or f64";
  if (!embeds(V.dtype, st.acc) || !embeds(R.dtype, st.acc))
    return "an operand (" + std::string(name(V.dtype)) + ", " + std::string(name(R.dtype)) + ") does not embed in " +
           std::string(name(st.acc));
  if (O.dtype != st.acc) return "the result is " + std::string(name(O.dtype)) + ", not the accumulator dtype";
  return "";
}

std::vector<Implementation> sparse_packed_implementations() {
  return {sparse_packed({"avx512", "avx512f", 32}), sparse_packed({"avx2", "avx2", 16}), sparse_packed({"portable", "", 0})};
}

}  // namespace kir::cpu
