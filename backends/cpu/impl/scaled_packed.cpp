// The packed MX scaled_contract (checklist C6, C7, C11): scaled_contract.packed.<isa> for
// avx512, avx2 and portable. The kind (mx_packed_form): e2m1 / e4m3 / e5m2 elements with e8m0
// scales, operands [M,G,C], [M,G], [G,C,N], [N,G], an f32 accumulator and an f32 [M, N] result;
// scaled_contract.sequential takes every other scaled_contract.
//
// The order is "sequential-fused": per element acc = -0, then for k = (group, element) ascending
// acc = round(acc + exact(a_k * b_k * 2^(sa_g + sb_g))), one rounding per term; a NaN scale on
// either side makes its group add a NaN; no terms give +0.
//
// Fast path: the packed contract's BLIS nest (contract_packed.h) with its f32 micro-kernel over
// panels packed as A'(m, k) = a * 2^sa and B'(k, n) = b * 2^sb (decoded and scaled here, in CPU
// IR loops). The micro-kernel computes acc = fma(A', B', acc) = round(A' * B' + acc), which is the
// term above exactly when A' and B' are exactly a * 2^sa and b * 2^sb in f32:
//  * low end: a nonzero element has at most 4 significant bits (e2m1 2, e5m2 3, e4m3 4) and its
//    lowest bit is at least 2^-16 (e5m2's smallest subnormal; e4m3 2^-9, e2m1 2^-1); with
//    sa >= -127 the lowest bit of a * 2^sa is at least 2^-143 >= 2^-149, f32's smallest subnormal,
//    so the f32 product a * 2^sa (2^-127 itself is an f32 subnormal) is exact — nothing underflows;
//  * high end: |a| < 2^(E + 1) with E the format's largest exponent (e2m1 2: 6; e4m3 8: 448;
//    e5m2 15: 57344), so a * 2^sa is finite (and then exact, at most 4 bits) when E + sa <= 127;
//    it may overflow to Inf only when sa >= 128 - E, i.e. the scale byte >= 255 - E (e2m1 253,
//    e4m3 247, e5m2 240; 0xFF is the NaN scale);
//  * specials: Inf / NaN elements (e5m2 Inf and NaN, e4m3 NaN) stay Inf / NaN after scaling, and
//    the fma then gives the term's Inf, NaN (Inf x 0) or the sum's NaN exactly as the definition;
//    a NaN scale makes every A' (or B') of its group NaN, so the group's first term makes acc NaN
//    and it stays NaN, as adding the group's NaN does (NaN payloads are unspecified);
//  * zeros: the signs of +-0 elements survive the scaling, and fma's signed-zero rule is the
//    definition's (acc starts at -0: -0 + t = t).
// The guard: before the nest, the expansion scans both scale arrays; if any scale byte could
// overflow its side's largest element (the bound above; scales that do not are never touched),
// the whole op takes the exact scalar path instead:
//
// Exact scalar path: x = a * 2^sa and y = b * 2^sb in f64 (exact: at most 4 bits, exponents in
// [-143, 143]), p = x * y in f64 (exact: at most 8 bits, exponents in [-286, 286]), then
// round_f32(acc + p) computed exactly: s = acc + p in f64 and its error err by TwoSum (exact, no
// overflow or underflow in that range: both are multiples of 2^-286); if err != 0, s is made
// round-to-odd (the neighbour toward the exact sum when s's last bit is even), and an f64 rounded
// to odd rounds to f32 as the exact sum does (53 >= 24 + 2 bits, also at f32's subnormals and its
// overflow threshold); Inf / NaN sums are taken as they are.
#include <bit>
#include <cmath>
#include <optional>

#include "backends/cpu/impl/contract_packed.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

constexpr int32_t kFaultShapeMismatch = 7;

std::optional<DType> mx_format(const StructuredOp& st, const char* key) {
  auto it = st.attrs.find(key);
  if (it == st.attrs.end()) return std::nullopt;
  const std::string& s = it->second.s;
  if (s == "e2m1") return DType::E2M1;
  if (s == "e4m3") return DType::E4M3;
  if (s == "e5m2") return DType::E5M2;
  return std::nullopt;
}
int64_t group_size(const StructuredOp& st) {
  auto it = st.attrs.find("lhs_group_size");
  return it == st.attrs.end() || !it->second.is_int() ? 0 : static_cast<int64_t>(it->second.i);
}
// The format's largest exponent (its largest finite magnitude is below 2^(E + 1)).
int max_exponent(DType fmt) { return fmt == DType::E2M1 ? 2 : fmt == DType::E4M3 ? 8 : 15; }

ExprP idx(int64_t v) { return make_index(v); }
ExprP cu8(int64_t v) { return make_const(DType::U8, static_cast<uint64_t>(v) & 0xFF); }
ExprP as_u8(ExprP b) { return b->dtype == DType::U8 ? b : make_bitcast(std::move(b), DType::U8); }
ExprP bin(const char* o, ExprP a, ExprP b) { return make_binary(o, std::move(a), std::move(b)); }
ExprP cmp(const char* o, ExprP a, ExprP b) { return make_compare(o, std::move(a), std::move(b)); }

// The decoded value (in `to`, f32 or f64: exact) of element `e` (index within its group) whose
// carrier byte is `byte`: e2m1 holds element e in the low (e even) or high nibble, mapped to the
// e4m3 code of the same value (as scaled_contract.sequential decodes it); e4m3 / e5m2 are cast.
ExprP decode(ExprP byte, DType fmt, const ExprP& e, DType to) {
  if (fmt != DType::E2M1) return make_cast(make_bitcast(std::move(byte), fmt), to);
  ExprP odd = cmp("eq", bin("rem", e, idx(2)), idx(1));
  ExprP n = make_select(odd, bin("shr", byte, cu8(4)), bin("and", byte, cu8(0x0F)));
  ExprP mag = bin("and", n, cu8(7));
  ExprP sign = bin("mul", bin("and", n, cu8(8)), cu8(16));
  ExprP code = bin("or", sign,
                   make_select(cmp("lt", mag, cu8(2)), bin("mul", mag, cu8(0x30)), bin("add", bin("mul", mag, cu8(4)), cu8(0x30))));
  return make_cast(make_bitcast(code, DType::E4M3), to);
}
// 2^(s - 127) in `to` (exact in f32 too: 2^-127 is a subnormal), NaN for 0xFF.
ExprP scale_value(ExprP s, DType to) { return make_cast(make_bitcast(std::move(s), DType::E8M0), to); }

struct Mx {
  Program& P;
  const Stmt& s;
  BufId L, LS, R, RS;
  DType lf, rf;
  int64_t group;

  VarId loop_var(const std::string& n) const { return P.add_var(n, DType::Index, VarRole::Loop); }
  ExprP var(VarId v) const { return make_var(v, P.var(v).dtype); }
  StmtP loop(VarId v, ExprP lo, ExprP hi) const { return make_loop(v, std::move(lo), std::move(hi), idx(1), s.op_id); }
  ExprP let(std::vector<StmtP>& into, const std::string& n, ExprP value) const {
    if (value->kind == ExprKind::Const || value->kind == ExprKind::Var) return value;
    return var(let_var(P, into, n, std::move(value)));
  }
  StmtP assign(VarId v, ExprP value) const {
    auto a = make_stmt(StmtKind::Assign, s.op_id);
    a->var = v;
    a->value = std::move(value);
    return a;
  }
  StmtP store(BufId b, std::vector<ExprP> at, ExprP value) const {
    auto st = make_stmt(StmtKind::Store, kNone);
    st->buf = b;
    st->index = std::move(at);
    st->value = std::move(value);
    return st;
  }
  // The carrier byte of element k (flattened: group k / G, element k % G) of row m (side 0) or
  // column n (side 1), and its group's scale byte.
  ExprP byte(int side, ExprP f, ExprP g, ExprP e) const {
    const DType fmt = side ? rf : lf;
    ExprP c = fmt == DType::E2M1 ? bin("floordiv", std::move(e), idx(2)) : std::move(e);
    const Buffer& B = P.buf(side ? R : L);
    return as_u8(make_load(B.id, B.dtype, side ? std::vector<ExprP>{g, c, f} : std::vector<ExprP>{f, g, c}));
  }
  ExprP scale_byte(int side, ExprP f, ExprP g) const {
    const Buffer& B = P.buf(side ? RS : LS);
    return as_u8(make_load(B.id, B.dtype, {std::move(f), std::move(g)}));
  }

  // pack (contract_packed.h): panel[(p * kc + kk) * W + w] = decode(element) * 2^scale in f32.
  StmtP pack(BufId panel, int side, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W) const {
    VarId p = loop_var(side ? "jp" : "ip"), kk = loop_var("kk"), w = loop_var(side ? "jj" : "ii");
    VarId z = loop_var("pad"), kz = loop_var("kz");
    auto lp = loop(p, idx(0), bin("floordiv", index_add(n, idx(W - 1)), idx(W)));
    ExprP width = let(lp->body, "width", index_min(idx(W), index_sub(n, index_mul(var(p), idx(W)))));
    auto at = [&](VarId k, ExprP col) { return index_add(index_mul(index_add(index_mul(var(p), kc), var(k)), idx(W)), col); };
    auto lk = loop(kk, idx(0), kc);
    auto lw = loop(w, idx(0), width);
    // A reads along k (its last axis), B along its columns: the inner loop is the contiguous one.
    ExprP k = index_add(pc, var(kk));
    ExprP g = let(lk->body, "g", bin("floordiv", k, idx(group)));
    ExprP e = let(lk->body, "e", bin("rem", k, idx(group)));
    ExprP f = let(lw->body, "f", index_add(base, index_add(index_mul(var(p), idx(W)), var(w))));
    ExprP x = decode(byte(side, f, g, e), side ? rf : lf, e, DType::F32);
    (side ? lw : lk)->body.push_back(store(panel, {at(kk, var(w))}, bin("mul", x, scale_value(scale_byte(side, f, g), DType::F32))));
    auto lkz = loop(kz, idx(0), kc);
    auto lz = loop(z, width, idx(W));
    lz->body.push_back(store(panel, {at(kz, var(z))}, make_const(DType::F32, 0)));
    lkz->body.push_back(std::move(lz));
    if (side) {
      lk->body.push_back(std::move(lw));
      lp->body.push_back(std::move(lk));
    } else {
      lw->body.push_back(std::move(lk));
      lp->body.push_back(std::move(lw));
    }
    lp->body.push_back(std::move(lkz));
    return lp;
  }

  // risky |= some scale byte of side's [F, G] scales could overflow its largest element.
  StmtP scan(int side, VarId risky, ExprP F, ExprP G) const {
    VarId f = loop_var(side ? "sn" : "sm"), g = loop_var("sg");
    auto lf_ = loop(f, idx(0), std::move(F));
    auto lg = loop(g, idx(0), std::move(G));
    ExprP sb = let(lg->body, "sb", scale_byte(side, var(f), var(g)));
    const int64_t first = 255 - max_exponent(side ? rf : lf);
    ExprP big = bin("and", cmp("ne", sb, cu8(255)), cmp(mutant_active(MutantId::ScaledGuardBoundOffByOne) ? "gt" : "ge", sb, cu8(first)));
    lg->body.push_back(assign(risky, bin("or", var(risky), big)));
    lf_->body.push_back(std::move(lg));
    return lf_;
  }

  // The exact scalar path (the header): every element, groups then elements, one exact
  // fused step per term.
  StmtP scalar(BufId out, ExprP M, ExprP N, ExprP G) const {
    VarId m = loop_var("m"), n = loop_var("n"), g = loop_var("g"), e = loop_var("e");
    auto lm = loop(m, idx(0), std::move(M));
    lm->unique_writes = true;
    auto ln = loop(n, idx(0), std::move(N));
    VarId acc = P.add_var("acc", DType::F32, VarRole::Carry);
    ln->body.push_back(assign(acc, sum_start(DType::F32)));
    auto lg = loop(g, idx(0), G);
    ExprP sl = let(lg->body, "sl", scale_byte(0, var(m), var(g)));
    ExprP sr = let(lg->body, "sr", scale_byte(1, var(n), var(g)));
    auto nan = make_stmt(StmtKind::If, s.op_id);
    nan->value = bin("or", cmp("eq", sl, cu8(255)), cmp("eq", sr, cu8(255)));
    nan->body.push_back(assign(acc, bin("add", var(acc), make_const(DType::F32, 0x7FC00000u))));
    auto le = loop(e, idx(0), idx(group));
    auto& b = le->body;
    ExprP x = let(b, "x", bin("mul", decode(byte(0, var(m), var(g), var(e)), lf, var(e), DType::F64), scale_value(sl, DType::F64)));
    ExprP y = let(b, "y", bin("mul", decode(byte(1, var(n), var(g), var(e)), rf, var(e), DType::F64), scale_value(sr, DType::F64)));
    ExprP p = let(b, "p", bin("mul", x, y));
    ExprP d = let(b, "d", make_cast(var(acc), DType::F64));
    ExprP sum = let(b, "s", bin("add", d, p));
    ExprP bb = let(b, "bb", bin("sub", sum, d));
    ExprP err = let(b, "err", bin("add", bin("sub", d, bin("sub", sum, bb)), bin("sub", p, bb)));
    ExprP bits = let(b, "sbits", make_bitcast(sum, DType::I64));
    ExprP finite = cmp("lt", make_unary("abs", sum), make_const(DType::F64, std::bit_cast<uint64_t>(HUGE_VAL)));
    ExprP even = cmp("eq", bin("and", bits, make_const(DType::I64, 1)), make_const(DType::I64, 0));
    ExprP fix = let(b, "odd", bin("and", bin("and", finite, cmp("ne", err, make_const(DType::F64, 0))), even));
    // Toward the exact sum: away from zero when err has s's sign, else toward it.
    ExprP away = make_select(cmp("gt", sum, make_const(DType::F64, 0)), cmp("gt", err, make_const(DType::F64, 0)),
                             cmp("lt", err, make_const(DType::F64, 0)));
    ExprP step = make_select(away, make_const(DType::I64, 1), make_const(DType::I64, ~uint64_t{0}));
    ExprP odd_sum = make_bitcast(bin("add", bits, step), DType::F64);
    b.push_back(assign(acc, make_cast(make_select(fix, odd_sum, sum), DType::F32)));
    nan->orelse.push_back(std::move(le));
    lg->body.push_back(std::move(nan));
    ln->body.push_back(std::move(lg));
    ln->body.push_back(store(out, {var(m), var(n)}, sum_result(var(acc), std::move(G))));
    lm->body.push_back(std::move(ln));
    return lm;
  }
};

ExprP equal_extents(const ExprP& a, const ExprP& b) {
  auto ca = const_index(a), cb = const_index(b);
  if (ca && cb) return make_const(DType::Bool, *ca == *cb ? 1 : 0);
  return make_compare("eq", a, b);
}

std::vector<StmtP> expand_scaled_packed(const PackedIsa& isa, Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  Mx mx{P, s, st.operands[0], st.operands[1], st.operands[2], st.operands[3], *mx_format(st, "lhs_format"),
        *mx_format(st, "rhs_format"), group_size(st)};
  const Buffer &L = P.buf(mx.L), &LS = P.buf(mx.LS), &R = P.buf(mx.R), &RS = P.buf(mx.RS);
  ExprP M = L.shape[0], G = L.shape[1], N = R.shape[2];
  const int64_t cl = mx.lf == DType::E2M1 ? mx.group / 2 : mx.group, cr = mx.rf == DType::E2M1 ? mx.group / 2 : mx.group;
  std::vector<StmtP> out;
  // The operands' shapes agree (as scaled_contract.sequential checks them).
  ExprP ok = make_const(DType::Bool, 1);
  auto need = [&](ExprP a, ExprP b) {
    ExprP eq = equal_extents(a, b);
    if (eq->kind == ExprKind::Const && eq->bits) return;
    ok = ok->kind == ExprKind::Const && ok->bits ? eq : make_binary("and", ok, eq);
  };
  need(R.shape[0], G);
  need(LS.shape[0], M);
  need(LS.shape[1], G);
  need(RS.shape[0], N);
  need(RS.shape[1], G);
  need(L.shape[2], idx(cl));
  need(R.shape[1], idx(cr));
  if (!(ok->kind == ExprKind::Const && ok->bits)) {
    auto c = make_stmt(StmtKind::Check, s.op_id);
    c->value = ok;
    c->fault = kFaultShapeMismatch;
    out.push_back(std::move(c));
  }
  // The guard (the header): any scale that could overflow its side's elements takes the exact path.
  VarId risky = P.add_var("scale_risk", DType::Bool, VarRole::Carry);
  out.push_back(mx.assign(risky, make_const(DType::Bool, 0)));
  out.push_back(mx.scan(0, risky, M, G));
  out.push_back(mx.scan(1, risky, N, G));
  auto choose = make_stmt(StmtKind::If, s.op_id);
  choose->value = mx.var(risky);
  choose->body.push_back(mx.scalar(st.results[0], M, N, G));
  PackedSource src;
  src.M = M;
  src.N = N;
  src.K = index_mul(G, idx(mx.group));
  src.pack = [&mx](BufId panel, int side, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W) {
    return mx.pack(panel, side, std::move(base), std::move(n), std::move(pc), std::move(kc), W);
  };
  choose->orelse = expand_packed_nest(isa, P, s, src);
  out.push_back(std::move(choose));
  return out;
}

std::string tile_fits(const PackedIsa& isa, const StructuredOp& st) {
  const int64_t mr = param(st, "mr"), nv = param(st, "nv");
  if (isa.name != "portable" && mr * nv + nv + 1 > isa.registers)
    return "a " + std::to_string(mr) + "x" + std::to_string(nv) + " micro-tile needs " + std::to_string(mr * nv + nv + 1) +
           " vector registers; " + isa.name + " has " + std::to_string(isa.registers);
  return "";
}

Implementation scaled_packed(const PackedIsa& isa) {
  Implementation impl;
  impl.name = "scaled_contract.packed." + isa.name;
  impl.computation = "scaled_contract";
  impl.contract =
      "per element one f32 accumulator from -0 through the terms, groups then elements ascending, each exact "
      "decoded product times the power-of-two scales added with one rounding (an fma of the prescaled factors, or "
      "an exact scalar step when a scale could overflow them); a NaN scale adds a NaN per group; no terms give +0";
  impl.applicable = [isa](const Program& P, const StructuredOp& st) {
    if (std::string why = mx_packed_form(P, st); !why.empty()) return why;
    return tile_fits(isa, st);
  };
  impl.expand = [isa](Program& P, const Stmt& s) { return expand_scaled_packed(isa, P, s); };
  impl.params = {{"mr", 1, 16, 1, false},         {"nv", 1, isa.name == "portable" ? 16 : 8, 1, false},
                 {"task_m", 0, 1 << 30, 1, true}, {"task_n", 0, 1 << 30, 1, true},
                 {"mc", 1, 1 << 20, 1, true},     {"nc", 1, 1 << 24, 1, true},
                 {"kc", 1, 1 << 16, 1, true}};
  impl.capability = isa.capability;
  impl.order = "sequential-fused";
  impl.needs = {"task tiles task_m x task_n, blocks NC x KC x MC (BLIS order jc, pc, ic), as contract.packed",
                "A and B decoded and multiplied by their own scales into f32 micro-panels (MR rows / NR columns, "
                "k-major, zero-padded); the scale arrays scanned once for the overflow guard",
                "two f32 panels per task, owned by the task",
                "the result buffer, MR x NR blocks written by the f32 micro-kernel (or element by element on the "
                "exact scalar path)"};
  return impl;
}

}  // namespace

std::string mx_packed_form(const Program& P, const StructuredOp& st) {
  if (st.kind != "scaled_contract") return "not a scaled_contract";
  const auto lf = mx_format(st, "lhs_format"), rf = mx_format(st, "rhs_format");
  if (!lf || !rf) return "the formats are not e2m1/e4m3/e5m2";
  if (st.operands.size() != 4 || st.results.size() != 1) return "expects lhs, lhs scales, rhs, rhs scales";
  const size_t ranks[4] = {3, 2, 3, 2};
  for (size_t i = 0; i < 4; ++i) {
    const Buffer& b = P.buf(st.operands[i]);
    if (b.shape.size() != ranks[i]) return "operands are not [M,G,C], [M,G], [G,C,N], [N,G]";
    if (info(b.dtype).bits != 8 || b.dtype == DType::Bool) return "carriers and scales are not 8-bit";
  }
  const int64_t group = group_size(st);
  if (group <= 0) return "lhs_group_size is not positive";
  if ((*lf == DType::E2M1 || *rf == DType::E2M1) && group % 2) return "an e2m1 operand with an odd group size";
  if (st.acc != DType::F32) return "the accumulator is " + std::string(name(st.acc)) + ", not f32";
  const Buffer& out = P.buf(st.results[0]);
  if (out.dtype != DType::F32 || out.shape.size() != 2) return "the result is not f32 [M, N]";
  return "";
}

std::vector<Implementation> scaled_packed_implementations() {
  return {scaled_packed({"avx512", "avx512f", 32}), scaled_packed({"avx2", "avx2", 16}), scaled_packed({"portable", "", 0})};
}

}  // namespace kir::cpu
