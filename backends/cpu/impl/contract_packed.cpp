// The packed contract implementations (checklist C6, C7, C11): BLIS's five loops around a
// register-blocked micro-kernel, for the dense matrix product of two kinds — f32/f64
// (matmul_form) and i8/u8 operands into i32 (int8_matmul_form). Per task tile of the result
// (task_m x task_n, the row's shared bindings) the expansion builds:
//
//   for jc in [n0, n1) step NC:                      nc = min(NC, n1 - jc)
//     for pc in [0, K) step KC:                      kc = min(KC, K - pc)
//       pack B[pc.., jc..] into Bp: kc x NR micro-panels, k-major, zero beyond nc
//       for ic in [m0, m1) step MC:                  mc = min(MC, m1 - ic)
//         pack A[ic.., pc..] into Ap: MR x kc micro-panels, k-major, zero beyond mc
//         for jr, ir over the micro-tiles: kernel gemm.<form>.<isa>.<MR>x<NV>(C[ic + ir, jc + jr])
//
// Batch pairs: the tasks run over the batch elements too (task t: tile t % tiles of batch
// element t / tiles); each works on its element's matrices as above, reading the operands and
// writing the result at the element's batch coordinates.
//
// A float tile of at most 4 rows whose operands need no conversion takes instead, in the same
// order, one gemv kernel reading A and B in place (a matrix-vector product would otherwise read B
// twice: once to pack it, once from the panel).
//
// Packing reads the operands through ordinary loads at any layout (strides, transposes, several
// reduce pairs flattened row-major); the panels are Scratch buffers the tasks own.
//
// Float: the panels hold the operands converted exactly into the accumulator dtype. Every
// element of C is one accumulator taken through the terms in row-major order over the reduce
// pairs with one fma per term, starting at -0 (the "sequential-fused" order, a legal order of
// the contract: each product exact inside an fma, every addition rounded once); no terms give +0.
//
// Integer (i8 x i8 or u8 x u8 into i32): the micro-kernel multiplies u8 by i8 (VNNI's vpdpbusd),
// so an i8 lhs is packed as a + 128 (oa = 128) and a u8 rhs as b - 128 (ob = -128), k in groups
// of four. Over one KC block, sum (a + oa)(b + ob) = sum ab + oa sum_k b + ob sum_k a + kc oa ob
// (the last term is 0: the operands share their dtype, so one offset is 0), so the kernel adds
// the row terms -ob sum_k a and the column terms -oa sum_k b, computed from the operands beside
// the packing. All of it is modulo 2^32, where integer contracts wrap: the value is the
// contract's exact one, in any order.
//
// An epilogue the epilogue pass handed over (a pointwise Compute over the result) is applied
// to each MC x NC block right after its last KC block (the block is still in L2, and its rows are
// long enough for the vector loop), and to the whole tile on the paths without
// micro-tiles (no terms, gemv).
//
// bf16 x bf16 into f32 (bf16_matmul_form): the panels keep the bf16 bits, k in pairs, and the
// micro-kernel takes each pair second first (AVX512-BF16's vdpbf16ps; the "sequential-fused-pairs"
// order). vdpbf16ps flushes subnormal inputs, products and sums to zero, which the contract does
// not allow; the packing kernels record each micro-panel's exponent range, and the micro-kernel
// uses the instruction only where the ranges (and C) prove nothing subnormal can arise, the same
// order in f32 fmas elsewhere (ir/ukernels.h), so the result does not depend on the data's path.
//
// A sparse A (2:4 / 1:2, sparse_packed.cpp through contract_packed.h): KC blocks hold whole
// groups, A's micro-panels hold each row's kept terms of the block with their k, and the
// gemm_sparse micro-kernel takes one fma per kept term.
//
// The micro-kernels are the catalog's (ir/ukernels.h) for the ISA the implementation names.
#include "backends/cpu/impl/contract_packed.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/ir/ukernels.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {

namespace {
// A dense (batched) matrix product: each operand with exactly one free axis; the lhs free axis
// after its batch axes, so that the result's last two axes are the rows and the columns.
std::string matrix_product_shape(const Program& P, const StructuredOp& st) {
  if (st.kind != "contract") return "not a contract";
  const Buffer& L = P.buf(st.operands[0]);
  const Buffer& R = P.buf(st.operands[1]);
  const auto batch = pairs_of(st, "batch"), reduce = pairs_of(st, "reduce");
  const size_t nred = reduce.size(), nb = batch.size();
  if (L.shape.size() != nb + nred + 1 || R.shape.size() != nb + nred + 1)
    return "an operand has no or several free axes (lhs rank " + std::to_string(L.shape.size()) + ", rhs rank " +
           std::to_string(R.shape.size()) + ", " + std::to_string(nb) + " batch and " + std::to_string(nred) +
           " reduce pairs)";
  std::vector<bool> bound(L.shape.size());
  for (auto [l, r] : reduce) bound[static_cast<size_t>(l)] = true;
  for (auto [l, r] : batch) bound[static_cast<size_t>(l)] = true;
  size_t free = 0;
  while (bound[free]) ++free;
  for (auto [l, r] : batch)
    if (static_cast<size_t>(l) > free)
      return "lhs batch axis " + std::to_string(l) + " follows its free axis (the result's rows would not be its "
             "second-to-last axis)";
  return "";
}
bool byte_int(DType d) { return d == DType::I8 || d == DType::U8; }
}  // namespace

std::string bf16_matmul_form(const Program& P, const StructuredOp& st) {
  if (std::string why = matrix_product_shape(P, st); !why.empty()) return why;
  if (st.acc != DType::F32) return "the accumulator is " + std::string(name(st.acc)) + ", not f32";
  const DType a = P.buf(st.operands[0]).dtype, b = P.buf(st.operands[1]).dtype;
  if (a != DType::BF16 || b != DType::BF16) return "the operands (" + std::string(name(a)) + ", " + std::string(name(b)) + ") are not both bf16";
  if (pairs_of(st, "reduce").size() != 1) return "not exactly one reduce pair";
  return "";
}

std::string matmul_form(const Program& P, const StructuredOp& st) {
  if (std::string why = matrix_product_shape(P, st); !why.empty()) return why;
  if (bf16_matmul_form(P, st).empty()) return "a bf16 matrix product into f32 (the kind of contract.packed_bf16)";
  if (st.acc != DType::F32 && st.acc != DType::F64)
    return "the accumulator is " + std::string(name(st.acc)) + ", not f32 or f64";
  const Buffer& L = P.buf(st.operands[0]);
  const Buffer& R = P.buf(st.operands[1]);
  if (!embeds(L.dtype, st.acc) || !embeds(R.dtype, st.acc))
    return "an operand (" + std::string(name(L.dtype)) + ", " + std::string(name(R.dtype)) + ") does not embed in " +
           std::string(name(st.acc));
  return "";
}

std::string int8_matmul_form(const Program& P, const StructuredOp& st) {
  if (std::string why = matrix_product_shape(P, st); !why.empty()) return why;
  if (st.acc != DType::I32) return "the accumulator is " + std::string(name(st.acc)) + ", not i32";
  const DType a = P.buf(st.operands[0]).dtype, b = P.buf(st.operands[1]).dtype;
  if (!byte_int(a) || a != b) return "the operands (" + std::string(name(a)) + ", " + std::string(name(b)) + ") are not both i8 or both u8";
  if (pairs_of(st, "reduce").size() != 1) return "not exactly one reduce pair";
  return "";
}

namespace {

// The three forms of the packed product (the typed kinds above).
enum class Form { Float, Int8, Bf16 };

struct Isa {
  std::string name;        // avx512 | avx2 | portable
  std::string capability;  // host capability the micro-kernel needs
  int registers;           // vector registers of the ISA (the micro-tile must fit)
};

GemmUKernel ukernel_of(const Isa& isa, Form form, const StructuredOp& st) {
  GemmUKernel g;
  g.dtype = st.acc;  // f32, f64, or i32 (u8 x i8 panels)
  g.bf16 = form == Form::Bf16;
  g.isa = isa.name;
  g.mr = static_cast<int>(param(st, "mr"));
  g.nv = static_cast<int>(param(st, "nv"));
  return g;
}

std::string packed_applicable(const Isa& isa, Form form, const Program& P, const StructuredOp& st) {
  const std::string why = form == Form::Int8 ? int8_matmul_form(P, st) : form == Form::Bf16 ? bf16_matmul_form(P, st) : matmul_form(P, st);
  if (!why.empty()) return why;
  if (form == Form::Bf16 && param(st, "kc") % 2 != 0) return "kc " + std::to_string(param(st, "kc")) + " is odd (a KC block must hold whole k pairs)";
  const int64_t mr = param(st, "mr"), nv = param(st, "nv");
  // Accumulators, one B vector per column vector and the broadcast A element.
  if (isa.name != "portable" && mr * nv + nv + 1 > isa.registers)
    return "a " + std::to_string(mr) + "x" + std::to_string(nv) + " micro-tile needs " + std::to_string(mr * nv + nv + 1) +
           " vector registers; " + isa.name + " has " + std::to_string(isa.registers);
  return "";
}

// Pieces of the expansion.
struct Ctx {
  Program& P;
  const Stmt& s;
  const StructuredOp& st;
  GemmUKernel uk;
  std::vector<std::pair<int64_t, int64_t>> reduce, batch;
  std::vector<ExprP> bcoord;    // the task's batch element: one coordinate per batch pair
  size_t lfree = 0, rfree = 0;  // the free axis of each operand
  std::vector<ExprP> red_ext;   // extents of the reduce pairs (lhs side)
  ExprP M, N, K;
  const PackedSource* src = nullptr;  // another computation's extents and packing (contract_packed.h)

  ExprP idx(int64_t v) const { return make_index(v); }
  ExprP var(VarId v) const { return make_var(v, DType::Index); }
  ExprP div(ExprP a, ExprP b) const { return make_binary("floordiv", std::move(a), std::move(b)); }
  ExprP ceil_div(ExprP a, ExprP b) const { return div(index_add(std::move(a), index_sub(b, idx(1))), b); }
  ExprP ceil_div(ExprP a, int64_t b) const { return ceil_div(std::move(a), idx(b)); }
  ExprP min(ExprP a, ExprP b) const { return index_min(std::move(a), std::move(b)); }
  ExprP max(ExprP a, ExprP b) const { return make_binary("max", std::move(a), std::move(b)); }
  ExprP lt(ExprP a, ExprP b) const { return make_compare("lt", std::move(a), std::move(b)); }

  StmtP loop(VarId v, ExprP lo, ExprP hi, ExprP step) const {
    return make_loop(v, std::move(lo), std::move(hi), std::move(step), s.op_id);
  }
  VarId let(std::vector<StmtP>& into, const std::string& n, ExprP value) const { return let_var(P, into, n, std::move(value)); }
  VarId loop_var(const std::string& n) const { return P.add_var(n, DType::Index, VarRole::Loop); }

  // The operand element at free index `f` and flattened reduce index `k` (row-major over the
  // reduce pairs, first pair outermost), converted exactly into the accumulator dtype.
  ExprP operand(int side, ExprP f, ExprP k) const {
    ExprP x = raw_operand(side, std::move(f), std::move(k));
    return x->dtype == st.acc ? x : make_cast(x, st.acc);
  }
  ExprP raw_operand(int side, ExprP f, ExprP k) const {
    const Buffer& B = P.buf(st.operands[static_cast<size_t>(side)]);
    std::vector<ExprP> at(B.shape.size());
    at[side == 0 ? lfree : rfree] = std::move(f);
    for (size_t j = 0; j < batch.size(); ++j)
      at[static_cast<size_t>(side == 0 ? batch[j].first : batch[j].second)] = bcoord[j];
    ExprP rest = std::move(k);
    for (size_t j = reduce.size(); j-- > 0;) {
      const size_t axis = static_cast<size_t>(side == 0 ? reduce[j].first : reduce[j].second);
      if (j == 0) {
        at[axis] = rest;
      } else {
        at[axis] = make_binary("rem", rest, red_ext[j]);
        rest = div(rest, red_ext[j]);
      }
    }
    return make_load(B.id, B.dtype, std::move(at));
  }

  // pack[(p * kc + kk) * W + w] = operand(side, base + p * W + w, pc + kk) for p < ceil(n / W),
  // kk < kc, w < min(W, n - p * W); the rest of the last micro-panel is zero. With k_inner the
  // k loop is innermost (the operand's last axis is the reduced one: its reads are contiguous),
  // otherwise the w loop is.
  StmtP pack(BufId pack_buf, int side, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W, bool k_inner) const {
    VarId p = loop_var(side ? "jp" : "ip"), kk = loop_var("kk"), w = loop_var(side ? "jj" : "ii");
    VarId z = loop_var("pad"), kz = loop_var("kz");
    auto lp = loop(p, idx(0), ceil_div(n, W), idx(1));
    VarId width = let(lp->body, "width", min(idx(W), index_sub(n, index_mul(var(p), idx(W)))));
    auto lk = loop(kk, idx(0), kc, idx(1));
    auto lw = loop(w, idx(0), var(width), idx(1));
    auto at = [&](VarId k, ExprP col) { return index_add(index_mul(index_add(index_mul(var(p), kc), var(k)), idx(W)), col); };
    auto st_ = make_stmt(StmtKind::Store, kNone);
    st_->buf = pack_buf;
    st_->index = {at(kk, var(w))};
    st_->value = operand(side, index_add(base, index_add(index_mul(var(p), idx(W)), var(w))), index_add(pc, var(kk)));
    auto lkz = loop(kz, idx(0), kc, idx(1));
    auto lz = loop(z, var(width), idx(W), idx(1));
    auto zs = make_stmt(StmtKind::Store, kNone);
    zs->buf = pack_buf;
    zs->index = {at(kz, var(z))};
    zs->value = make_const(st.acc, 0);
    lz->body.push_back(std::move(zs));
    lkz->body.push_back(std::move(lz));
    if (k_inner) {
      lk->body.push_back(std::move(st_));
      lw->body.push_back(std::move(lk));
      lp->body.push_back(std::move(lw));
    } else {
      lw->body.push_back(std::move(st_));
      lk->body.push_back(std::move(lw));
      lp->body.push_back(std::move(lk));
    }
    lp->body.push_back(std::move(lkz));
    return lp;
  }

  // A packing kernel of the catalog (pack.<src>.<panel>.w<W>) for the n x kc block of operand
  // `side` from free index `base` and k `pc`, into `pack_buf`; the integer form also writes
  // `terms` = factor * the sums over k (see the header); the bf16 form writes the micro-panels'
  // exponent ranges into `terms` and pads with the bits `factor`.
  StmtP pack_kernel(BufId pack_buf, int side, ExprP base, ExprP n, ExprP pc, ExprP kc, ExprP kcp, int64_t W, BufId terms,
                    int64_t factor) const {
    const Buffer& B = P.buf(st.operands[static_cast<size_t>(side)]);
    const PackUKernel k{B.dtype, side == 0 ? uk.a_panel() : uk.b_panel(), static_cast<int>(W)};
    auto ks = make_stmt(StmtKind::Kernel, s.op_id);
    ks->op = k.name();
    ks->buf = pack_buf;
    ks->index = {idx(0)};
    const auto& pair = reduce.front();
    ks->detail = {raw_operand(side, std::move(base), std::move(pc)), idx(static_cast<int64_t>(side == 0 ? lfree : rfree)),
                  idx(side == 0 ? pair.first : pair.second), std::move(n), std::move(kc), std::move(kcp)};
    if (uk.side_args()) {  // integer: the terms and their factor; bf16: the ranges and the pad's bits
      ks->detail.push_back(make_load(terms, DType::I32, {idx(0)}));
      ks->detail.push_back(make_const(DType::I32, static_cast<uint32_t>(static_cast<int32_t>(factor))));
    }
    return ks;
  }
  // The element (row, col) of the result in the task's batch element: the result's axes are the
  // lhs axes that are not reduced, in order, then the rhs free axis.
  std::vector<ExprP> result_at(ExprP row, ExprP col) const {
    if (src) return {std::move(row), std::move(col)};
    std::vector<ExprP> at;
    const size_t rank = P.buf(st.operands[0]).shape.size();
    for (size_t a = 0; a < rank; ++a) {
      if (a == lfree) at.push_back(row);
      for (size_t j = 0; j < batch.size(); ++j)
        if (static_cast<size_t>(batch[j].first) == a) at.push_back(bcoord[j]);
    }
    at.push_back(std::move(col));
    return at;
  }
  // Whether tiles of at most 4 rows may take the gemv kernel: the float form with one reduce
  // pair and operands already of the accumulator dtype (the kernel reads them in place).
  bool gemv_reads_in_place() const {
    return !src && !uk.integer() && reduce.size() == 1 && P.buf(st.operands[0]).dtype == st.acc &&
           P.buf(st.operands[1]).dtype == st.acc;
  }
  // Whether operand `side` is packed by a kernel (one reduce pair, a conversion the catalog
  // has); otherwise by the loops of pack().
  bool kernel_packs(int side) const {
    return !src && reduce.size() == 1 &&
           packable(P.buf(st.operands[static_cast<size_t>(side)]).dtype, side == 0 ? uk.a_panel() : uk.b_panel());
  }
};

// `src`: another computation's extents and packing (contract_packed.h), else the contract's.
std::vector<StmtP> expand_packed(const Isa& isa, Form form, Program& P, const Stmt& s, const PackedSource* src = nullptr) {
  const StructuredOp& st = *s.structured;
  Ctx c{P, s, st, ukernel_of(isa, form, st), pairs_of(st, "reduce"), pairs_of(st, "batch"), {}, 0, 0, {}, nullptr, nullptr, nullptr};
  if (src) c.reduce.clear(), c.batch.clear();  // its operands are not the contract's: M, N, K come with src
  const bool sparse = src && src->keep > 0;
  c.uk.sparse = sparse;
  const Buffer& L = P.buf(st.operands[0]);
  const Buffer& R = P.buf(st.operands[1]);
  std::vector<bool> lred(L.shape.size()), rred(R.shape.size());
  ExprP K = make_index(1);
  for (auto [l, r] : c.reduce) {
    lred[static_cast<size_t>(l)] = rred[static_cast<size_t>(r)] = true;
    c.red_ext.push_back(L.shape[static_cast<size_t>(l)]);
    K = index_mul(K, L.shape[static_cast<size_t>(l)]);
  }
  ExprP batches = make_index(1);  // batch elements, row-major over the batch pairs
  for (auto [l, r] : c.batch) {
    lred[static_cast<size_t>(l)] = rred[static_cast<size_t>(r)] = true;
    batches = index_mul(batches, L.shape[static_cast<size_t>(l)]);
  }
  while (lred[c.lfree]) ++c.lfree;
  while (rred[c.rfree]) ++c.rfree;
  c.M = L.shape[c.lfree];
  c.N = R.shape[c.rfree];
  c.K = K;
  if ((c.src = src)) {
    c.M = src->M;
    c.N = src->N;
    c.K = src->K;
  }
  const bool integer = c.uk.integer();
  // Integer form: the offsets packing adds to A (oa) and B (ob); see the header.
  const int64_t oa = integer && L.dtype == DType::I8 ? 128 : 0, ob = integer && R.dtype == DType::U8 ? -128 : 0;
  const int64_t MR = c.uk.mr, NR = c.uk.nr();
  const int64_t MC = std::max(param(st, "mc") / MR, int64_t{1}) * MR;
  const int64_t NC = std::max(param(st, "nc") / NR, int64_t{1}) * NR;
  // A sparse A's KC blocks hold whole groups.
  const int64_t KC = sparse ? std::max(param(st, "kc") / src->group, int64_t{1}) * src->group : param(st, "kc");
  const int64_t task_m = param(st, "task_m"), task_n = param(st, "task_n");
  const BufId C = st.results[0];
  // Row-major operands whose last axis is the last reduced one are read along k.
  const bool a_k_inner = !c.reduce.empty() && static_cast<size_t>(c.reduce.back().first) + 1 == L.shape.size();
  const bool b_k_inner = !c.reduce.empty() && static_cast<size_t>(c.reduce.back().second) + 1 == R.shape.size();

  std::vector<StmtP> out;
  // Task tiles: the row's grain, or (0) automatic: one task for small products, otherwise two
  // tiles along the longer of M and N (rounded to whole micro-tiles). Every task packs its own
  // panels, so more tiles than workers repack the shared operand for nothing. Batched: one tile
  // per batch element (the batch elements are the tasks).
  ExprP small = c.batch.empty() ? c.lt(index_mul(index_mul(c.M, c.N), c.K), c.idx(int64_t{1} << 18))
                                : make_const(DType::Bool, 1);
  ExprP longer_m = make_compare("ge", c.M, c.N);
  auto auto_tile = [&](ExprP ext, int64_t unit, ExprP along) {
    ExprP half = index_mul(c.ceil_div(c.ceil_div(ext, 2), unit), c.idx(unit));
    ExprP whole = c.max(ext, c.idx(1));
    return make_select(small, whole, make_select(along, c.max(half, c.idx(1)), whole));
  };
  VarId TM = c.let(out, "task_rows", task_m > 0 ? c.idx(task_m) : auto_tile(c.M, MR, longer_m));
  VarId TN = c.let(out, "task_cols", task_n > 0 ? c.idx(task_n) : auto_tile(c.N, NR, make_compare("lt", c.M, c.N)));
  VarId ntn = c.let(out, "tasks_n", c.ceil_div(c.N, c.var(TN)));
  if (mutant_active(MutantId::PackedTaskColsRoundDown)) ntn = c.let(out, "tasks_n", c.div(c.N, c.var(TN)));
  ExprP ntm = c.ceil_div(c.M, c.var(TM));
  if (mutant_active(MutantId::PackedTaskRowsRoundDown)) ntm = c.div(c.M, c.var(TM));
  // Coverage (driver/coverage.h): the task split, the K blocks.
  const std::string cell = st.implementation + "/";
  out.push_back(cover_split(P, cell + "task-rows", c.M, c.var(TM)));
  out.push_back(cover_split(P, cell + "task-cols", c.N, c.var(TN)));
  out.push_back(cover_tail(P, cell + "KC", c.K, KC));

  auto tasks = make_stmt(StmtKind::Tasks, s.op_id);
  tasks->var = P.add_var("tile", DType::Index, VarRole::Task);
  tasks->lo = c.idx(0);
  tasks->hi = index_mul(ntm, c.var(ntn));
  tasks->step = c.idx(1);
  tasks->unique_writes = true;
  auto& tb = tasks->body;
  ExprP t = c.var(tasks->var);
  if (!c.batch.empty()) {
    // Task t is tile t % tiles of batch element t / tiles (row-major over the batch pairs).
    VarId tiles = c.let(out, "tiles", tasks->hi);
    tasks->hi = index_mul(c.var(tiles), batches);
    ExprP rest = c.div(t, c.var(tiles));
    c.bcoord.resize(c.batch.size());
    for (size_t j = c.batch.size(); j-- > 0;) {
      ExprP ext = L.shape[static_cast<size_t>(c.batch[j].first)];
      c.bcoord[j] = c.var(c.let(tb, "b" + std::to_string(j), j == 0 ? rest : make_binary("rem", rest, ext)));
      if (j > 0) rest = c.div(rest, ext);
    }
    t = c.var(c.let(tb, "t", make_binary("rem", t, c.var(tiles))));
  }
  VarId m0 = c.let(tb, "m0", index_mul(c.div(t, c.var(ntn)), c.var(TM)));
  VarId n0 = c.let(tb, "n0", index_mul(make_binary("rem", t, c.var(ntn)), c.var(TN)));
  VarId m1 = c.let(tb, "m1", c.min(index_add(c.var(m0), c.var(TM)), c.M));
  VarId n1 = c.let(tb, "n1", c.min(index_add(c.var(n0), c.var(TN)), c.N));

  // A panel holds whole micro-panels of `unit` rows by at most KC k (rounded up to the group);
  // `depth` 0 makes a vector of one element per row (the integer form's correction terms).
  auto panel = [&](const std::string& n, DType dt, ExprP rows, int64_t unit, bool depth) {
    Buffer b;
    b.name = n;
    b.kind = BufKind::Scratch;
    b.dtype = dt;
    const int64_t G = c.uk.group();
    ExprP whole = index_mul(c.ceil_div(std::move(rows), unit), c.idx(unit));
    b.shape = {depth ? index_mul(whole, index_mul(c.ceil_div(c.min(c.idx(KC), c.max(c.K, c.idx(1))), G), c.idx(G))) : whole};
    return P.add_buffer(std::move(b));
  };
  ExprP a_rows = c.min(c.idx(MC), index_sub(c.var(m1), c.var(m0)));
  ExprP b_cols = c.min(c.idx(NC), index_sub(c.var(n1), c.var(n0)));
  const std::string cn = P.buf(C).name;
  const BufId Ap = sparse ? kNone : panel(cn + "_apanel", c.uk.a_panel(), a_rows, MR, true);
  const BufId Bp = panel(cn + "_bpanel", c.uk.b_panel(), b_cols, NR, true);
  // Sparse: the kept values of A and their k, KC / group * keep terms per row of a micro-panel.
  auto kept_panel = [&](const std::string& n, DType dt) {
    Buffer b;
    b.name = n;
    b.kind = BufKind::Scratch;
    b.dtype = dt;
    b.shape = {index_mul(index_mul(c.ceil_div(a_rows, MR), c.idx(MR)), c.idx(KC / (sparse ? src->group : 1) * (sparse ? src->keep : 1)))};
    return P.add_buffer(std::move(b));
  };
  const BufId Ak = sparse ? kept_panel(cn + "_akpanel", DType::I32) : kNone;
  const BufId Av = sparse ? kept_panel(cn + "_apanel", c.uk.a_panel()) : Ap;
  const bool bf16 = c.uk.bf16;
  // Integer: one term per row / column; bf16: one exponent range per micro-panel.
  const BufId Ar = integer ? panel(cn + "_rowterms", DType::I32, a_rows, MR, false)
                   : bf16  ? panel(cn + "_aranges", DType::I32, a_rows, MR, false)
                           : kNone;
  const BufId Bc = integer ? panel(cn + "_colterms", DType::I32, b_cols, NR, false)
                   : bf16  ? panel(cn + "_branges", DType::I32, b_cols, NR, false)
                           : kNone;

  VarId jc = c.loop_var("jc"), pc = c.loop_var("pc"), ic = c.loop_var("ic"), jr = c.loop_var("jr"), ir = c.loop_var("ir");
  auto ljc = c.loop(jc, c.var(n0), c.var(n1), c.idx(NC));
  VarId nc = c.let(ljc->body, "nc", c.min(c.idx(NC), index_sub(c.var(n1), c.var(jc))));
  ljc->body.push_back(cover_tail(P, cell + "NR", c.var(nc), NR, true));
  auto lpc = c.loop(pc, c.idx(0), c.K, c.idx(KC));
  VarId kc = c.let(lpc->body, "kc", c.min(c.idx(KC), index_sub(c.K, c.var(pc))));
  // The k extent of a micro-panel: kc, rounded up to the group of the integer (4) or bf16 (2) form.
  const int64_t G = c.uk.group();
  VarId kcp = G > 1 ? c.let(lpc->body, "kcp", index_mul(c.ceil_div(c.var(kc), G), c.idx(G))) : kc;
  if (G > 1 && integer && mutant_active(MutantId::PackedI8GroupsRoundDown)) kcp = c.let(lpc->body, "kcp", index_mul(c.div(c.var(kc), c.idx(G)), c.idx(G)));
  // Sparse: the kept terms of a row in this block (kc holds whole groups).
  VarId kt = sparse ? c.let(lpc->body, "kt", index_mul(c.div(c.var(kc), c.idx(src->group)), c.idx(src->keep))) : kc;
  auto lic = c.loop(ic, c.var(m0), c.var(m1), c.idx(MC));
  VarId mc = c.let(lic->body, "mc", c.min(c.idx(MC), index_sub(c.var(m1), c.var(ic))));
  lic->body.push_back(cover_tail(P, cell + "MR", c.var(mc), MR, true));
  // Integer form: the column terms -oa * sum_k b come with B's panel, the row terms -ob * sum_k a
  // with A's (the header).
  // bf16: an odd kc is padded with -0 in A and +0 in B, a -0 product, which adds nothing.
  int64_t b_side = bf16 ? 0 : -oa, a_side = bf16 ? 0x8000 : -ob;
  if (mutant_active(MutantId::PackedI8ColTermSign)) b_side = bf16 ? 0 : oa;
  if (mutant_active(MutantId::PackedI8RowTermSign)) a_side = bf16 ? 0x8000 : ob;
  if (mutant_active(MutantId::PackedBf16PadPositiveZero)) a_side = bf16 ? 0 : -ob;
  // The first K block's depth (kcp rounded as kc is), which a mutant reuses for every block.
  auto first_kcp = [&] { return index_mul(c.ceil_div(c.min(c.idx(KC), c.K), G), c.idx(G)); };
  lpc->body.push_back(src ? src->pack(Bp, 1, c.var(jc), c.var(nc), c.var(pc), c.var(kc), NR)
                      : c.kernel_packs(1)
                          ? c.pack_kernel(Bp, 1, c.var(jc), c.var(nc), c.var(pc), c.var(kc), c.var(kcp), NR, Bc, b_side)
                          : c.pack(Bp, 1, c.var(jc), c.var(nc), c.var(pc), c.var(kc), NR, b_k_inner));
  lic->body.push_back(sparse ? src->pack_kept(Av, Ak, c.var(ic), c.var(mc), c.var(pc), c.var(kc), MR)
                      : src ? src->pack(Ap, 0, c.var(ic), c.var(mc), c.var(pc), c.var(kc), MR)
                      : c.kernel_packs(0)
                          ? c.pack_kernel(Ap, 0, c.var(ic), c.var(mc), c.var(pc), c.var(kc),
                                          mutant_active(MutantId::PackedAFirstKcLen) ? first_kcp() : c.var(kcp), MR, Ar, a_side)
                          : c.pack(Ap, 0, c.var(ic), c.var(mc), c.var(pc), c.var(kc), MR, a_k_inner));
  auto ljr = c.loop(jr, c.idx(0), c.var(nc), c.idx(NR));
  auto lir = c.loop(ir, c.idx(0), c.var(mc), c.idx(MR));
  auto k = make_stmt(StmtKind::Kernel, s.op_id);
  k->op = c.uk.name();
  k->buf = C;
  k->index = c.result_at(index_add(c.var(ic), c.var(ir)), index_add(c.var(jc), c.var(jr)));
  // ir / MR micro-panels of MR x kcp (sparse: MR x kt kept terms)
  k->detail = {make_load(Av, c.uk.a_panel(), {index_mul(c.var(ir), c.var(sparse ? kt : kcp))}),
               make_load(Bp, c.uk.b_panel(), {index_mul(c.var(jr), mutant_active(MutantId::PackedBPanelOffsetFirstKc) ? first_kcp() : c.var(kcp))}),
               c.var(kt),
               c.min(c.idx(MR), index_sub(c.var(mc), c.var(ir))),
               c.min(c.idx(NR), index_sub(c.var(nc), c.var(jr))),
               make_compare("eq", c.var(pc), c.idx(0))};
  if (mutant_active(MutantId::PackedFirstFlagLastBlock)) k->detail[5] = make_compare("eq", index_add(c.var(pc), c.var(kc)), c.K);
  if (sparse) k->detail.push_back(make_load(Ak, DType::I32, {index_mul(c.var(ir), c.var(kt))}));
  if (integer) {
    k->detail.push_back(make_load(Ar, DType::I32, {c.var(ir)}));
    k->detail.push_back(make_load(Bc, DType::I32, {c.var(jr)}));
  } else if (bf16) {  // the ranges of the micro-panels ir / MR and jr / NR
    k->detail.push_back(make_load(Ar, DType::I32, {c.div(c.var(ir), c.idx(MR))}));
    k->detail.push_back(make_load(Bc, DType::I32, {c.div(c.var(jr), c.idx(NR))}));
  }
  // A float tile's last KC block stores its NaNs canonical (ir/ukernels.h).
  if (!integer) k->detail.push_back(make_compare("eq", index_add(c.var(pc), c.var(kc)), c.K));
  lir->body.push_back(std::move(k));
  const Stmt* epi = st.epilogue.get();
  // The epilogue of the whole task tile (the paths without micro-tiles).
  auto tile_epilogue = [&](std::vector<StmtP>& into, const std::string& path) {
    if (epi) into.push_back(cover_epilogue(P, st, *epi, path));
    if (epi)
      into.push_back(epilogue_block(P, *epi, c.var(m0), c.var(n0), index_sub(c.var(m1), c.var(m0)),
                                    index_sub(c.var(n1), c.var(n0))));
  };
  ljr->body.push_back(std::move(lir));
  lic->body.push_back(std::move(ljr));
  // The epilogue of an MC x NC block once its last KC block is in: the block was just written
  // and is still in L2, and its rows are long enough for the vector loop.
  if (epi) {
    auto last = make_stmt(StmtKind::If, s.op_id);
    last->value = make_compare("eq", index_add(c.var(pc), c.var(kc)), c.K);
    if (mutant_active(MutantId::PackedEpilogueBeforeLastKc)) last->value = make_compare("eq", c.var(pc), c.idx(0));
    last->body.push_back(cover_epilogue(P, st, *epi, "block"));
    if (mutant_active(MutantId::PackedEpilogueAtTileOrigin)) last->body.push_back(epilogue_block(P, *epi, c.var(m0), c.var(n0), c.var(mc), c.var(nc)));
    else last->body.push_back(epilogue_block(P, *epi, c.var(ic), c.var(jc), c.var(mc), c.var(nc)));
    lic->body.push_back(std::move(last));
  }
  lpc->body.push_back(std::move(lic));
  ljc->body.push_back(std::move(lpc));
  // The blocked path: its MC and NC blocks of the task tile, then the loops.
  auto packed_path = [&](std::vector<StmtP>& into) {
    into.push_back(make_cover(P, {cell + "path:packed"}));
    into.push_back(cover_tail(P, cell + "MC", index_sub(c.var(m1), c.var(m0)), MC, true));
    into.push_back(cover_tail(P, cell + "NC", index_sub(c.var(n1), c.var(n0)), NC, true));
    into.push_back(std::move(ljc));
  };
  // No terms (K = 0): every element is +0.
  auto none = make_stmt(StmtKind::If, s.op_id);
  none->value = make_compare("eq", c.K, c.idx(0));
  {
    VarId i = c.loop_var("i"), j = c.loop_var("j");
    auto li = c.loop(i, c.var(m0), c.var(m1), c.idx(1));
    auto lj = c.loop(j, c.var(n0), c.var(n1), c.idx(1));
    auto z = make_stmt(StmtKind::Store, s.op_id);
    z->buf = C;
    z->index = c.result_at(c.var(i), c.var(j));
    z->value = make_const(st.acc, 0);
    lj->body.push_back(std::move(z));
    li->body.push_back(std::move(lj));
    none->body.push_back(make_cover(P, {cell + "path:no-terms"}));
    none->body.push_back(std::move(li));
    if (!mutant_active(MutantId::PackedNoTermsDropsEpilogue)) tile_epilogue(none->body, "no-terms");
  }
  // At most 4 rows in the tile (a matrix-vector or few-row product): the gemv kernel reads A and
  // B in place, in the same order — packing B would read it twice.
  if (c.gemv_reads_in_place()) {
    auto few = make_stmt(StmtKind::If, s.op_id);
    few->value = make_compare("le", index_sub(c.var(m1), c.var(m0)), c.idx(4));
    const auto& pair = c.reduce.front();
    auto g = make_stmt(StmtKind::Kernel, s.op_id);
    g->op = GemvUKernel{st.acc, isa.name}.name();
    g->buf = C;
    g->index = c.result_at(c.var(m0), c.var(n0));
    g->detail = {c.raw_operand(0, c.var(m0), c.idx(0)), c.idx(static_cast<int64_t>(c.lfree)), c.idx(pair.first),
                 c.raw_operand(1, c.var(n0), c.idx(0)), c.idx(pair.second), c.idx(static_cast<int64_t>(c.rfree)),
                 c.K, index_sub(c.var(m1), c.var(m0)), index_sub(c.var(n1), c.var(n0))};
    few->body.push_back(make_cover(P, {cell + "path:gemv"}));
    few->body.push_back(std::move(g));
    if (!mutant_active(MutantId::PackedGemvDropsEpilogue)) tile_epilogue(few->body, "gemv");
    packed_path(few->orelse);
    none->orelse.push_back(std::move(few));
  } else {
    packed_path(none->orelse);
  }
  tb.push_back(std::move(none));
  out.push_back(std::move(tasks));
  return out;
}

Implementation packed(const Isa& isa, Form form) {
  const bool integer = form == Form::Int8;
  Implementation impl;
  impl.name = (integer ? "contract.packed_i8." : form == Form::Bf16 ? "contract.packed_bf16." : "contract.packed.") + isa.name;
  impl.computation = "contract";
  impl.contract =
      integer ? "the exact sum of products modulo 2^32 (integer contracts wrap, so every order gives it); no terms give 0"
      : form == Form::Bf16
          ? "per element one accumulator through the terms with one fma per term, starting at -0, the reduce points in "
            "pairs (0, 1), (2, 3), ... each taken second first, a last point without a partner last (a legal order: "
            "products exact inside the fma, every addition rounded once); no terms give +0"
          : "per element one accumulator through the terms in row-major order over the reduce pairs, one fma per term, "
            "starting at -0 (a legal order: products exact inside the fma, every addition rounded once); no terms give +0";
  impl.applicable = [isa, form](const Program& P, const StructuredOp& st) { return packed_applicable(isa, form, P, st); };
  impl.expand = [isa, form](Program& P, const Stmt& s) { return expand_packed(isa, form, P, s); };
  impl.params = {{"mr", 1, 16, 1, false},      {"nv", 1, isa.name == "portable" ? 16 : 8, 1, false},
                 {"task_m", 0, 1 << 30, 1, true}, {"task_n", 0, 1 << 30, 1, true},
                 {"mc", 1, 1 << 20, 1, true},    {"nc", 1, 1 << 24, 1, true},
                 {"kc", 1, 1 << 16, 1, true}};
  impl.capability = isa.capability;
  impl.order = integer ? "" : form == Form::Bf16 ? "sequential-fused-pairs" : "sequential-fused";
  impl.takes_epilogue = true;
  impl.needs = {"task tiles task_m x task_n, blocks NC x KC x MC (BLIS order jc, pc, ic)",
                integer ? "A packed as u8 (i8 + 128) into MR-row micro-panels, B as i8 (u8 - 128) into NR-column "
                          "micro-panels, k in groups of four, zero-padded"
                : form == Form::Bf16
                    ? "A and B packed as bf16 into MR-row / NR-column micro-panels, k in pairs, with each "
                      "micro-panel's exponent range"
                    : "A packed into MR-row micro-panels, B into NR-column micro-panels, k-major, zero-padded",
                integer ? "two panels and two i32 term vectors per task, owned by the task"
                : form == Form::Bf16 ? "two panels and two i32 range vectors per task, owned by the task"
                        : "two panels per task (MC x KC and KC x NC elements of the accumulator dtype), owned by the task",
                "the result buffer, MR x NR blocks written by the micro-kernel; a pointwise epilogue applied to "
                "each MR x NR block after its last KC block"};
  return impl;
}

}  // namespace

std::vector<StmtP> expand_packed_nest(const PackedIsa& isa, Program& P, const Stmt& s, const PackedSource& src) {
  return expand_packed(Isa{isa.name, isa.capability, isa.registers}, Form::Float, P, s, &src);
}

std::vector<Implementation> packed_contract_implementations() {
  return {packed({"avx512", "avx512f", 32}, Form::Float),     packed({"avx2", "avx2", 16}, Form::Float),
          packed({"portable", "", 0}, Form::Float),             packed({"avx512", "avx512_vnni", 32}, Form::Int8),
          packed({"portable", "", 0}, Form::Int8),              packed({"avx512", "avx512f", 32}, Form::Bf16),
          packed({"portable", "", 0}, Form::Bf16)};
}

}  // namespace kir::cpu
