// Implementations of the format-carrying structured ops (checklist C6, C7): quantize (q8_K),
// quantized_dot (q4_K x q8_K), scaled_contract (MX), sparse_contract (2:4, 1:2) and histogram.
// Every format is decoded in plain CPU IR (bit masks, shifts, bitcasts, casts), so the
// expansions are ordinary loops, scalars and stores. Numeric contracts:
//  * quantize / quantized_dot: numerics/kquant.cpp's reference (ggml) algorithms, every f32
//    operation in the same order, so the results are those bits;
//  * scaled_contract / sparse_contract: the backend's sequential order (as the interpreter's
//    AccumulationOrder::Sequential): acc = +0, reduction points row-major over the reduce pairs
//    (scaled: group, then element; sparse: only the kept dense positions, increasing), each
//    exact term rounded once into the accumulator, then acc = round(acc + term);
//  * histogram: counts wrap in the count dtype; an active value outside [0, bins) faults.
#include <bit>
#include <optional>

#include "backends/cpu/impl/contract_packed.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

// ---------------------------------------------------------------- small IR toolkit
ExprP ci(DType d, int64_t v) {
  uint64_t mask = info(d).bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << info(d).bits) - 1;
  return make_const(d, static_cast<uint64_t>(v) & mask);
}
ExprP cf32(float v) { return make_const(DType::F32, std::bit_cast<uint32_t>(v)); }
ExprP cf64(double v) { return make_const(DType::F64, std::bit_cast<uint64_t>(v)); }
ExprP vref(const Program& P, VarId v) { return make_var(v, P.var(v).dtype); }
std::optional<bool> const_bool(const ExprP& e) {
  if (!e || e->kind != ExprKind::Const || e->dtype != DType::Bool) return std::nullopt;
  return e->bits != 0;
}
// a && b with constant folding.
ExprP conj(ExprP a, ExprP b) {
  if (auto c = const_bool(a)) return *c ? b : a;
  if (auto c = const_bool(b)) return *c ? a : b;
  return make_binary("and", std::move(a), std::move(b));
}
// A bounds-checked load: an index outside the buffer is a located fault, not a stray read.
ExprP checked_load(BufId b, DType d, std::vector<ExprP> idx, int32_t op) {
  auto e = std::make_shared<Expr>(*make_load(b, d, std::move(idx)));
  e->op_id = op;
  return e;
}

// Appends statements to the current list; loops and ifs nest through callbacks.
struct Emitter {
  Program& P;
  int32_t op;
  std::vector<StmtP>* cur;

  ExprP let(const std::string& name, ExprP v) {
    if (v->kind == ExprKind::Const || v->kind == ExprKind::Var) return v;
    return vref(P, let_var(P, *cur, name, std::move(v)));
  }
  VarId carry(const std::string& name, ExprP init) {
    VarId v = P.add_var(name, init->dtype, VarRole::Carry);
    assign(v, std::move(init));
    return v;
  }
  void assign(VarId v, ExprP value) {
    auto s = make_stmt(StmtKind::Assign, op);
    s->var = v;
    s->value = std::move(value);
    cur->push_back(std::move(s));
  }
  void store(BufId b, std::vector<ExprP> idx, ExprP value, bool checked = false) {
    auto s = make_stmt(StmtKind::Store, checked ? op : kNone);
    s->buf = b;
    s->index = std::move(idx);
    s->value = std::move(value);
    cur->push_back(std::move(s));
  }
  void check(ExprP cond, int32_t fault, std::vector<ExprP> detail = {}) {
    if (auto c = const_bool(cond); c && *c) return;
    auto s = make_stmt(StmtKind::Check, op);
    s->value = std::move(cond);
    s->fault = fault;
    s->detail = std::move(detail);
    cur->push_back(std::move(s));
  }
  // for i in [0, n): body(i). `unique`: each iteration writes its own result elements.
  void loop(ExprP n, const std::string& name, const std::function<void(ExprP)>& body, bool unique = false) {
    auto l = make_loop(P.add_var(name, DType::Index, VarRole::Loop), make_index(0), std::move(n), make_index(1), op);
    l->unique_writes = unique;
    ExprP i = make_var(l->var, DType::Index);
    Stmt* raw = l.get();
    cur->push_back(std::move(l));
    nest(raw->body, [&] { body(i); });
  }
  // A nest over `extents` (row-major, first outermost).
  void loops(const std::vector<ExprP>& extents, const std::string& name,
             const std::function<void(const std::vector<ExprP>&)>& body, bool unique = false) {
    std::vector<ExprP> idx;
    std::function<void(size_t)> rec = [&](size_t k) {
      if (k == extents.size()) return body(idx);
      loop(extents[k], name + std::to_string(k), [&](ExprP i) {
        idx.push_back(i);
        rec(k + 1);
        idx.pop_back();
      }, unique && k == 0);
    };
    rec(0);
  }
  void when(ExprP cond, const std::function<void()>& then, const std::function<void()>& orelse = nullptr) {
    auto s = make_stmt(StmtKind::If, op);
    s->value = std::move(cond);
    Stmt* raw = s.get();
    cur->push_back(std::move(s));
    nest(raw->body, then);
    if (orelse) nest(raw->orelse, orelse);
  }
  void nest(std::vector<StmtP>& into, const std::function<void()>& f) {
    auto* saved = cur;
    cur = &into;
    f();
    cur = saved;
  }
  ExprP bin(const std::string& o, ExprP a, ExprP b) { return make_binary(o, std::move(a), std::move(b), op); }
  ExprP cast(ExprP a, DType to) { return make_cast(std::move(a), to, op); }
};

std::string keyword(const StructuredOp& st, const char* key) {
  auto it = st.attrs.find(key);
  return it == st.attrs.end() ? "" : it->second.s;
}
int64_t int_attr(const StructuredOp& st, const char* key, int64_t dflt) {
  auto it = st.attrs.find(key);
  return it == st.attrs.end() || !it->second.is_int() ? dflt : static_cast<int64_t>(it->second.i);
}
std::vector<std::pair<int64_t, int64_t>> pairs(const StructuredOp& st, const char* key) {
  auto it = st.attrs.find(key);
  return it == st.attrs.end() ? std::vector<std::pair<int64_t, int64_t>>{} : it->second.int_pairs();
}

// A run-time fault unless a == b (a constant verdict when both are constants).
ExprP equal_extents(const ExprP& a, const ExprP& b) {
  auto ca = const_index(a), cb = const_index(b);
  if (ca && cb) return make_const(DType::Bool, *ca == *cb ? 1 : 0);
  return make_compare("eq", a, b);
}

constexpr int32_t kFaultInvalidValue = 6, kFaultShapeMismatch = 7, kFaultHistogramRange = 12;  // kir_abi.h

// Expansion prologue shared by all: an emitter over a fresh Block.
struct Expansion {
  std::vector<StmtP> out;
  Emitter E;
  Expansion(Program& P, const Stmt& s) : E{P, s.op_id, nullptr} {
    out.push_back(make_stmt(StmtKind::Block));
    E.cur = &out.back()->body;
  }
};

// The element ids of a block-structured field: `lead` + [b, k] for a [..., NB, per] buffer, or
// `lead` + [b * per + k] for a flat [..., NB * per] one.
std::vector<ExprP> block_index(const Buffer& buf, const std::vector<ExprP>& lead, ExprP b, int64_t k, int64_t per) {
  std::vector<ExprP> idx = lead;
  if (buf.shape.size() == lead.size() + 2) {
    idx.push_back(std::move(b));
    idx.push_back(make_index(k));
  } else {
    idx.push_back(index_add(index_mul(std::move(b), make_index(per)), make_index(k)));
  }
  return idx;
}

// ---------------------------------------------------------------- quantize (q8_K)
std::string quantize_applicable(const Program& P, const StructuredOp& st) {
  if (keyword(st, "format") != "q8_k") return "format " + keyword(st, "format") + " is not q8_k";
  if (st.operands.size() != 1 || st.results.size() != 3) return "expects one source and the results d, qs, bsums";
  const Buffer& v = P.buf(st.operands[0]);
  if (v.dtype != DType::F32 || v.shape.empty()) return "source must be f32[..., K]";
  const DType want[3] = {DType::F32, DType::I8, DType::I16};
  for (size_t i = 0; i < 3; ++i) {
    const Buffer& r = P.buf(st.results[i]);
    if (r.dtype != want[i] || r.shape.size() != v.shape.size()) return "result `" + r.name + "` has an unexpected type";
  }
  return "";
}

// nearest_int(f) of numerics/kquant.cpp: (bits(f + 1.5 * 2^23) & 0x7FFFFF) - 0x400000.
ExprP nearest_int(Emitter& E, ExprP f) {
  if (mutant_active(MutantId::QuantizeTruncates))  // NaN and huge values give 0 (never selected)
    return E.cast(make_select(make_compare("lt", make_unary("abs", f), cf32(1e9f)), f, cf32(0.f)), DType::I32);
  ExprP biased = make_bitcast(E.bin("add", std::move(f), cf32(12582912.f)), DType::I32);
  return E.bin("sub", E.bin("and", biased, ci(DType::I32, 0x007FFFFF)), ci(DType::I32, 0x00400000));
}

std::vector<StmtP> expand_quantize(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  Expansion X(P, s);
  Emitter& E = X.E;
  const Buffer& v = P.buf(st.operands[0]);
  const BufId V = v.id, D = st.results[0], QS = st.results[1], BS = st.results[2];
  std::vector<ExprP> lead(v.shape.begin(), v.shape.end() - 1);
  ExprP K = v.shape.back();
  ExprP nb = make_binary("floordiv", K, make_index(256));
  E.check(equal_extents(index_mul(nb, make_index(256)), K), kFaultShapeMismatch, {K});
  std::vector<ExprP> ext = lead;
  ext.push_back(nb);
  E.loops(ext, "q", [&](const std::vector<ExprP>& c) {
    std::vector<ExprP> row(c.begin(), c.end() - 1);
    ExprP b = c.back(), base = index_mul(b, make_index(256));
    auto at = [&](ExprP j) {
      auto idx = row;
      idx.push_back(index_add(base, std::move(j)));
      return idx;
    };
    // The value of largest magnitude (first one on ties; NaN never wins).
    VarId amax = E.carry("amax", cf32(0.f)), mx = E.carry("mx", cf32(0.f));
    E.loop(make_index(256), "j", [&](ExprP j) {
      ExprP x = E.let("x", make_load(V, DType::F32, at(j)));
      ExprP ax = E.let("ax", make_unary("abs", x));
      ExprP gt = E.let("gt", make_compare("gt", ax, vref(P, amax)));
      E.assign(mx, make_select(gt, x, vref(P, mx)));
      E.assign(amax, make_select(gt, ax, vref(P, amax)));
    });
    ExprP zero = E.let("zero", make_compare("eq", vref(P, amax), cf32(0.f)));
    ExprP iscale = E.let("iscale", E.bin("div", cf32(-127.f), vref(P, mx)));
    E.loop(make_index(256), "j", [&](ExprP j) {
      ExprP x = E.let("x", make_load(V, DType::F32, at(j)));
      ExprP n = nearest_int(E, E.bin("mul", iscale, x));
      // A NaN element: the hardware product is x quieted, so nearest_int keeps its low payload.
      ExprP nan_n = E.bin("and", make_bitcast(x, DType::I32), ci(DType::I32, 0x003FFFFF));
      ExprP q = E.bin("min", make_select(make_compare("ne", x, x), nan_n, n), ci(DType::I32, 127));
      E.store(QS, at(j), make_select(zero, ci(DType::I8, 0), E.cast(q, DType::I8)));
    });
    E.loop(make_index(16), "g", [&](ExprP g) {
      VarId sum = E.carry("bsum", ci(DType::I32, 0));
      E.loop(make_index(16), "l", [&](ExprP l) {
        ExprP q = make_load(QS, DType::I8, at(index_add(index_mul(g, make_index(16)), l)));
        E.assign(sum, E.bin("add", vref(P, sum), E.cast(q, DType::I32)));
      });
      auto bidx = row;
      bidx.push_back(index_add(index_mul(b, make_index(16)), g));
      E.store(BS, bidx, E.cast(vref(P, sum), DType::I16));
    });
    auto didx = row;
    didx.push_back(b);
    E.store(D, didx, make_select(zero, cf32(0.f), E.bin("div", cf32(1.f), iscale)));
  }, true);
  return std::move(X.out);
}

// ---------------------------------------------------------------- quantized_dot (q4_K x q8_K)
// Operands: lhs d, dmin, scales, qs; rhs d, qs, bsums (construct/ops_formats.cpp's order).
std::string qdot_applicable(const Program& P, const StructuredOp& st) {
  if (keyword(st, "lhs_format") != "q4_k" || keyword(st, "rhs_format") != "q8_k") return "formats are not q4_k x q8_k";
  if (st.operands.size() != 7 || st.results.size() != 1) return "expects the q4_K and q8_K record fields";
  const DType want[7] = {DType::F16, DType::F16, DType::U8, DType::U8, DType::F32, DType::I8, DType::I16};
  for (size_t i = 0; i < 7; ++i)
    if (P.buf(st.operands[i]).dtype != want[i]) return "field `" + P.buf(st.operands[i]).name + "` has an unexpected dtype";
  const size_t ll = P.buf(st.operands[0]).shape.size(), rl = P.buf(st.operands[4]).shape.size();
  if (ll == 0 || rl == 0) return "operands need a block axis";
  auto blocky = [&](size_t i, size_t lead) {
    size_t r = P.buf(st.operands[i]).shape.size();
    return r == lead + 1 || r == lead + 2;
  };
  if (P.buf(st.operands[1]).shape.size() != ll || !blocky(2, ll - 1) || !blocky(3, ll - 1) || !blocky(5, rl - 1) ||
      !blocky(6, rl - 1))
    return "record fields have unexpected ranks";
  if (P.buf(st.results[0]).dtype != DType::F32 || P.buf(st.results[0]).shape.size() != ll + rl - 2)
    return "result must be f32 of the two operands' leading axes";
  return "";
}

std::vector<StmtP> expand_qdot(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  Expansion X(P, s);
  Emitter& E = X.E;
  const BufId LD = st.operands[0], LDM = st.operands[1], LSC = st.operands[2], LQS = st.operands[3];
  const BufId RD = st.operands[4], RQS = st.operands[5], RBS = st.operands[6], OUT = st.results[0];
  const auto& lds = P.buf(LD).shape;
  const auto& rds = P.buf(RD).shape;
  ExprP nb = lds.back();
  E.check(equal_extents(nb, rds.back()), kFaultShapeMismatch, {nb, rds.back()});
  const size_t ll = lds.size() - 1;
  E.loops(P.buf(OUT).shape, "o", [&](const std::vector<ExprP>& o) {
    std::vector<ExprP> li(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(ll)), ri(o.begin() + static_cast<std::ptrdiff_t>(ll), o.end());
    auto with = [](std::vector<ExprP> v, ExprP b) {
      v.push_back(std::move(b));
      return v;
    };
    VarId sums[8];
    for (int l = 0; l < 8; ++l) sums[l] = E.carry("sums" + std::to_string(l), cf32(0.f));
    VarId sumf = E.carry("sumf", cf32(0.f));
    E.loop(nb, "b", [&](ExprP b) {
      ExprP yd = E.let("yd", make_load(RD, DType::F32, with(ri, b)));
      ExprP d = E.let("d", E.bin("mul", E.cast(make_load(LD, DType::F16, with(li, b)), DType::F32), yd));
      ExprP dmin = E.let("dmin", E.bin("mul", E.cast(make_load(LDM, DType::F16, with(li, b)), DType::F32), yd));
      ExprP sb[12];
      for (int k = 0; k < 12; ++k)
        sb[k] = E.let("s" + std::to_string(k),
                      E.cast(make_load(LSC, DType::U8, block_index(P.buf(LSC), li, b, k, 12)), DType::I32));
      auto band = [&](ExprP a, int64_t m) { return E.bin("and", std::move(a), ci(DType::I32, m)); };
      auto shr = [&](ExprP a, int64_t n) { return E.bin("shr", std::move(a), ci(DType::I32, n)); };
      auto shl = [&](ExprP a, int64_t n) { return E.bin("shl", std::move(a), ci(DType::I32, n)); };
      // q4k_scale_min: 6-bit sub-block scales and mins.
      ExprP scale[8], mins[8];
      for (int j = 0; j < 8; ++j) {
        if (j < 4) {
          scale[j] = E.let("sc", band(sb[j], 63));
          mins[j] = E.let("mn", band(sb[j + 4], 63));
        } else {
          scale[j] = E.let("sc", E.bin("or", band(sb[j + 4], 0x0F), shl(shr(sb[j - 4], 6), 4)));
          mins[j] = E.let("mn", E.bin("or", shr(sb[j + 4], 4), shl(shr(sb[j], 6), 4)));
        }
      }
      ExprP sumi = ci(DType::I32, 0);
      for (int j = 0; j < 16; ++j) {
        ExprP bs = E.cast(make_load(RBS, DType::I16, block_index(P.buf(RBS), ri, b, j, 16)), DType::I32);
        sumi = E.bin("add", sumi, E.bin("mul", bs, mins[j / 2]));
      }
      sumi = E.let("sumi", sumi);
      // aux32[l] = sum over the 32 rows j of scale[j / 32] * q8[j + l] * q4[j + l] (exact in i32).
      ExprP qbyte[128];
      for (int k = 0; k < 128; ++k) qbyte[k] = nullptr;
      auto q4 = [&](int k) {  // element k of the block: low nibbles of 32 bytes, then the high ones
        const int c = k / 64, w = k % 64, byte = 32 * c + (w % 32);
        if (!qbyte[byte])
          qbyte[byte] = E.let("qb", E.cast(make_load(LQS, DType::U8, block_index(P.buf(LQS), li, b, byte, 128)), DType::I32));
        return w < 32 ? band(qbyte[byte], 0x0F) : shr(qbyte[byte], 4);
      };
      for (int l = 0; l < 8; ++l) {
        ExprP aux = ci(DType::I32, 0);
        for (int sbk = 0; sbk < 8; ++sbk) {
          ExprP inner = ci(DType::I32, 0);
          for (int t = 0; t < 4; ++t) {
            const int k = 32 * sbk + 8 * t + l;
            ExprP q8 = E.cast(make_load(RQS, DType::I8, block_index(P.buf(RQS), ri, b, k, 256)), DType::I32);
            inner = E.bin("add", inner, E.bin("mul", q8, q4(k)));
          }
          aux = E.bin("add", aux, E.bin("mul", scale[sbk], E.let("in", inner)));
        }
        ExprP p = E.let("p", E.bin("mul", d, E.cast(E.let("aux", aux), DType::F32)));
        E.assign(sums[l], E.bin("add", vref(P, sums[l]), p));
      }
      ExprP pm = E.let("pm", E.bin("mul", dmin, E.cast(sumi, DType::F32)));
      E.assign(sumf, E.bin(mutant_active(MutantId::QdotMinAdded) ? "add" : "sub", vref(P, sumf), pm));
    });
    for (int l = 0; l < 8; ++l) E.assign(sumf, E.bin("add", vref(P, sumf), vref(P, sums[l])));
    E.store(OUT, o, vref(P, sumf));
  }, true);
  return std::move(X.out);
}

// ---------------------------------------------------------------- products rounded once
std::string product_rule(DType a, DType b, DType acc) {
  if (is_integer(acc)) return is_integer(a) && is_integer(b) ? "" : "integer accumulator over non-integer operands";
  if (!is_float(acc)) return "accumulator " + std::string(name(acc)) + " is not a float or integer dtype";
  if (embeds(a, acc) && embeds(b, acc)) return "";
  if (embeds(a, DType::F64) && embeds(b, DType::F64) && precision(a) + precision(b) <= 53) return "";
  return "the product of " + std::string(name(a)) + " and " + std::string(name(b)) + " cannot be rounded once into " +
         std::string(name(acc));
}
// x * y rounded once into acc (integers: wrapping).
ExprP product(Emitter& E, ExprP x, ExprP y, DType acc) {
  if (is_integer(acc) || (embeds(x->dtype, acc) && embeds(y->dtype, acc)))
    return E.bin("mul", E.cast(std::move(x), acc), E.cast(std::move(y), acc));
  return make_cast(make_binary("mul", make_cast(std::move(x), DType::F64), make_cast(std::move(y), DType::F64)), acc);
}

// ---------------------------------------------------------------- scaled_contract (MX)
std::optional<DType> mx_format(const std::string& s) {
  if (s == "e2m1") return DType::E2M1;
  if (s == "e4m3") return DType::E4M3;
  if (s == "e5m2") return DType::E5M2;
  return std::nullopt;
}

std::string scaled_applicable(const Program& P, const StructuredOp& st) {
  if (!mx_format(keyword(st, "lhs_format")) || !mx_format(keyword(st, "rhs_format")))
    return "formats " + keyword(st, "lhs_format") + " x " + keyword(st, "rhs_format") + " are not e2m1/e4m3/e5m2";
  if (st.operands.size() != 4) return "expects lhs, lhs scales, rhs, rhs scales";
  const size_t ranks[4] = {3, 2, 3, 2};
  for (size_t i = 0; i < 4; ++i) {
    const Buffer& b = P.buf(st.operands[i]);
    if (b.shape.size() != ranks[i]) return "operands must be [M,G,C], [M,G], [G,C,N], [N,G]";
    if (info(b.dtype).bits != 8 || b.dtype == DType::Bool) return "carriers and scales must be 8-bit";
  }
  const int64_t group = int_attr(st, "lhs_group_size", 0);
  if (group <= 0) return "lhs_group_size must be positive";
  const bool packed = *mx_format(keyword(st, "lhs_format")) == DType::E2M1 || *mx_format(keyword(st, "rhs_format")) == DType::E2M1;
  if (packed && group % 2) return "an e2m1 operand needs an even group size";
  if (!is_float(st.acc)) return "accumulator must be a float dtype";
  if (P.buf(st.results[0]).shape.size() != 2) return "result must be [M, N]";
  if (mx_packed_form(P, st).empty()) return "an MX product into f32, the kind scaled_contract.packed.* realize";
  return "";
}

ExprP as_u8(ExprP b) { return b->dtype == DType::U8 ? b : make_bitcast(std::move(b), DType::U8); }

// The f64 value of element `hi` (0 low nibble, 1 high nibble) of carrier byte `byte` in `fmt`.
ExprP decode_mx(Emitter& E, ExprP byte, DType fmt, int hi) {
  if (fmt != DType::E2M1) return make_cast(make_bitcast(std::move(byte), fmt), DType::F64);
  // e2m1 S.EE.M -> the e4m3 code of the same value: magnitude 0 -> 0, 1 (0.5) -> 0x30, m >= 2 ->
  // 4m + 0x30 (exponent + 6, mantissa bit in place), the sign moved to bit 7.
  ExprP n = hi ? E.bin("shr", std::move(byte), ci(DType::U8, 4)) : E.bin("and", std::move(byte), ci(DType::U8, 0x0F));
  n = E.let("nib", n);
  ExprP mag = E.let("mag", E.bin("and", n, ci(DType::U8, 7)));
  ExprP sign = E.bin("mul", E.bin("and", n, ci(DType::U8, 8)), ci(DType::U8, 16));
  ExprP code = E.bin("or", sign,
                     make_select(make_compare("lt", mag, ci(DType::U8, 2)), E.bin("mul", mag, ci(DType::U8, 0x30)),
                                 E.bin("add", E.bin("mul", mag, ci(DType::U8, 4)), ci(DType::U8, 0x30))));
  return make_cast(make_bitcast(code, DType::E4M3), DType::F64);
}

std::vector<StmtP> expand_scaled(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  Expansion X(P, s);
  Emitter& E = X.E;
  const DType lf = *mx_format(keyword(st, "lhs_format")), rf = *mx_format(keyword(st, "rhs_format")), acc = st.acc;
  const int64_t group = int_attr(st, "lhs_group_size", 0);
  const Buffer &L = P.buf(st.operands[0]), &LS = P.buf(st.operands[1]), &R = P.buf(st.operands[2]), &RS = P.buf(st.operands[3]);
  const BufId OUT = st.results[0];
  ExprP M = L.shape[0], G = L.shape[1], N = R.shape[2];
  const int64_t cl = lf == DType::E2M1 ? group / 2 : group, cr = rf == DType::E2M1 ? group / 2 : group;
  ExprP ok = make_const(DType::Bool, 1);
  auto need = [&](ExprP a, ExprP b) { ok = conj(ok, equal_extents(a, b)); };
  need(R.shape[0], G);
  need(LS.shape[0], M);
  need(LS.shape[1], G);
  need(RS.shape[0], N);
  need(RS.shape[1], G);
  need(L.shape[2], make_index(cl));
  need(R.shape[1], make_index(cr));
  E.check(ok, kFaultShapeMismatch);
  const bool packed = lf == DType::E2M1 || rf == DType::E2M1;
  E.loops({M, N}, "o", [&](const std::vector<ExprP>& o) {
    ExprP m = o[0], n = o[1];
    VarId a = E.carry("acc", sum_start(acc));
    E.loop(G, "g", [&](ExprP g) {
      ExprP sl = E.let("sl", as_u8(make_load(LS.id, LS.dtype, {m, g})));
      ExprP sr = E.let("sr", as_u8(make_load(RS.id, RS.dtype, {n, g})));
      ExprP nan = make_binary("or", make_compare("eq", sl, ci(DType::U8, 0xFF)), make_compare("eq", sr, ci(DType::U8, 0xFF)));
      E.when(nan, [&] {  // a NaN scale: the whole block is one NaN term
        E.assign(a, E.bin("add", vref(P, a), make_cast(cf64(std::bit_cast<double>(0x7FF8000000000000ull)), acc)));
      }, [&] {
        ExprP scale = E.let("scale", E.bin("mul", make_cast(make_bitcast(sl, DType::E8M0), DType::F64),
                                           make_cast(make_bitcast(sr, DType::E8M0), DType::F64)));
        // Element k of the group: lhs byte (m, g, k or k/2), rhs byte (g, k or k/2, n).
        auto term = [&](ExprP k_full, ExprP k_half, int h) {
          ExprP lb = as_u8(make_load(L.id, L.dtype, {m, g, lf == DType::E2M1 ? k_half : k_full}));
          ExprP rb = as_u8(make_load(R.id, R.dtype, {g, rf == DType::E2M1 ? k_half : k_full, n}));
          ExprP x = E.let("x", decode_mx(E, E.let("lb", lb), lf, h));
          ExprP y = E.let("y", decode_mx(E, E.let("rb", rb), rf, h));
          ExprP t = E.let("term", make_cast(E.bin("mul", E.bin("mul", x, y), scale), acc));
          E.assign(a, E.bin("add", vref(P, a), t));
        };
        if (packed) {
          E.loop(make_index(group / 2), "p", [&](ExprP p) {
            for (int h = 0; h < 2; ++h) term(index_add(index_mul(p, make_index(2)), make_index(h)), p, h);
          });
        } else {
          E.loop(make_index(group), "k", [&](ExprP k) { term(k, k, 0); });
        }
      });
    });
    E.store(OUT, o, sum_result(vref(P, a), G));  // G groups, each adds terms
  }, true);
  return std::move(X.out);
}

// ---------------------------------------------------------------- sparse_contract (2:4, 1:2)
bool sparse_format(const std::string& f, int64_t& group, int64_t& keep) {
  if (f == "two_of_four") { group = 4; keep = 2; return true; }
  if (f == "one_of_two") { group = 2; keep = 1; return true; }
  return false;
}

std::string sparse_applicable(const Program& P, const StructuredOp& st) {
  int64_t group = 0, keep = 0;
  if (!sparse_format(keyword(st, "format"), group, keep)) return "sparse format " + keyword(st, "format") + " is not two_of_four/one_of_two";
  if (st.operands.size() != 3) return "expects values, metadata, rhs";
  const Buffer &C = P.buf(st.operands[0]), &Mt = P.buf(st.operands[1]);
  if (!is_integer(Mt.dtype)) return "metadata must be integer";
  if (Mt.shape.size() != C.shape.size()) return "metadata rank differs from the values'";
  auto red = pairs(st, "reduce");
  if (red.empty()) return "no reduce pairs";
  if (red[0].first < 0 || static_cast<size_t>(red[0].first) >= C.shape.size()) return "reduce pair out of range";
  if (sparse_packed_form(P, st).empty()) return "a sparse matrix product of the packed kind (sparse_contract.packed.*)";
  return product_rule(C.dtype, P.buf(st.operands[2]).dtype, st.acc);
}

// The shape check and the metadata validation every sparse_contract implementation runs first:
// the same faults (and messages) whichever implementation a row binds.
void sparse_validate(Program& P, const StructuredOp& st, Emitter& E) {
  int64_t group = 0, keep = 0;
  sparse_format(keyword(st, "format"), group, keep);
  const Buffer &C = P.buf(st.operands[0]), &Mt = P.buf(st.operands[1]), &R = P.buf(st.operands[2]);
  auto reduce = pairs(st, "reduce");
  const size_t axis = static_cast<size_t>(reduce[0].first), raxis = static_cast<size_t>(reduce[0].second);
  ExprP kc = C.shape[axis];
  ExprP ng = make_binary("floordiv", kc, make_index(keep));  // groups along the sparse axis
  ExprP ok = conj(equal_extents(index_mul(ng, make_index(keep)), kc),
                  equal_extents(R.shape[raxis], index_mul(ng, make_index(group))));
  for (size_t a = 0; a < C.shape.size(); ++a) ok = conj(ok, equal_extents(Mt.shape[a], C.shape[a]));
  E.check(ok, kFaultShapeMismatch, {kc});
  // Metadata: every position within [0, group), strictly increasing within its group.
  std::vector<ExprP> vext = C.shape;
  vext[axis] = ng;
  E.loops(vext, "v", [&](const std::vector<ExprP>& c) {
    ExprP prev;
    for (int64_t t = 0; t < keep; ++t) {
      std::vector<ExprP> idx = c;
      idx[axis] = index_add(index_mul(c[axis], make_index(keep)), make_index(t));
      ExprP pos = E.let("pos", make_cast(make_load(Mt.id, Mt.dtype, idx), DType::Index));
      ExprP good = conj(make_compare("ge", pos, make_index(0)), make_compare("lt", pos, make_index(group)));
      if (prev) good = conj(good, make_compare("gt", pos, prev));
      E.check(good, kFaultInvalidValue, {pos});
      prev = pos;
    }
  });
}

std::vector<StmtP> expand_sparse(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  Expansion X(P, s);
  Emitter& E = X.E;
  int64_t group = 0, keep = 0;
  sparse_format(keyword(st, "format"), group, keep);
  const Buffer &C = P.buf(st.operands[0]), &Mt = P.buf(st.operands[1]), &R = P.buf(st.operands[2]);
  const DType acc = st.acc;
  auto reduce = pairs(st, "reduce"), batch = pairs(st, "batch");
  const size_t axis = static_cast<size_t>(reduce[0].first), raxis = static_cast<size_t>(reduce[0].second);
  ExprP kc = C.shape[axis];
  ExprP ng = make_binary("floordiv", kc, make_index(keep));  // groups along the sparse axis
  sparse_validate(P, st, E);
  // Result axes: the lhs's kept axes, then the rhs's free axes (contract's layout).
  std::vector<int> lrole(C.shape.size(), -1), rrole(R.shape.size(), -1);
  for (auto [l, r] : reduce) {
    lrole[static_cast<size_t>(l)] = -2;
    rrole[static_cast<size_t>(r)] = -2;
  }
  for (auto [l, r] : batch) {
    lrole[static_cast<size_t>(l)] = static_cast<int>(r);
    rrole[static_cast<size_t>(r)] = -3;
  }
  std::vector<ExprP> inner_ext;
  for (size_t j = 1; j < reduce.size(); ++j) inner_ext.push_back(C.shape[static_cast<size_t>(reduce[j].first)]);
  E.loops(P.buf(st.results[0]).shape, "o", [&](const std::vector<ExprP>& o) {
    std::vector<ExprP> li(C.shape.size()), ri(R.shape.size());
    size_t k = 0;
    for (size_t a = 0; a < C.shape.size(); ++a) {
      if (lrole[a] == -2) continue;
      li[a] = o[k++];
      if (lrole[a] >= 0) ri[static_cast<size_t>(lrole[a])] = li[a];
    }
    for (size_t a = 0; a < R.shape.size(); ++a)
      if (rrole[a] == -1) ri[a] = o[k++];
    VarId a = E.carry("acc", sum_start(acc));
    // Dense positions of the sparse axis in increasing order (group g, position pos), then the
    // other reduce pairs row-major; a kept position is the slot t of its group naming it.
    E.loop(ng, "g", [&](ExprP g) {
      for (int64_t pos = 0; pos < group; ++pos) {
        E.loops(inner_ext, "r", [&](const std::vector<ExprP>& q) {
          for (size_t j = 1; j < reduce.size(); ++j) {
            li[static_cast<size_t>(reduce[j].first)] = q[j - 1];
            ri[static_cast<size_t>(reduce[j].second)] = q[j - 1];
          }
          ri[raxis] = index_add(index_mul(g, make_index(group)), make_index(pos));
          for (int64_t t = 0; t < keep; ++t) {
            std::vector<ExprP> ci_ = li;
            ci_[axis] = index_add(index_mul(g, make_index(keep)), make_index(t));
            ExprP hit = make_compare("eq", make_load(Mt.id, Mt.dtype, ci_), ci(Mt.dtype, pos));
            E.when(hit, [&] {
              ExprP term = E.let("term", product(E, make_load(C.id, C.dtype, ci_), make_load(R.id, R.dtype, ri), acc));
              E.assign(a, E.bin("add", vref(P, a), term));
            });
          }
        });
      }
    });
    ExprP kept = index_mul(ng, make_index(keep));
    for (const auto& e : inner_ext) kept = index_mul(kept, e);
    E.store(st.results[0], o, sum_result(vref(P, a), kept));
  }, true);
  return std::move(X.out);
}

// ---------------------------------------------------------------- histogram
std::string histogram_applicable(const Program& P, const StructuredOp& st) {
  if (st.operands.empty() || st.scalars.empty() || st.results.size() != 1) return "expects values, bins, validity";
  if (!is_integer(P.buf(st.operands[0]).dtype)) return "values must be integers";
  if (!is_integer(st.acc)) return "counts must be integers";
  if (P.buf(st.results[0]).shape.size() != 1) return "counts must be rank 1";
  if (st.operands.size() == 1 && st.scalars.size() < 2) return "missing validity";
  return "";
}

std::vector<StmtP> expand_histogram(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  Expansion X(P, s);
  Emitter& E = X.E;
  const Buffer& V = P.buf(st.operands[0]);
  const BufId OUT = st.results[0];
  const DType cd = st.acc;
  ExprP bins = E.let("bins", make_cast(st.scalars[0], DType::Index));
  E.check(make_compare("gt", bins, make_index(0)), kFaultInvalidValue, {bins});
  E.loop(P.buf(OUT).shape[0], "h", [&](ExprP h) { E.store(OUT, {h}, make_const(cd, 0)); }, true);
  E.loops(V.shape, "i", [&](const std::vector<ExprP>& i) {
    const bool per_elem = st.operands.size() > 1;
    ExprP active = per_elem ? make_load(st.operands[1], P.buf(st.operands[1]).dtype, i) : st.scalars[1];
    if (active->dtype != DType::Bool) active = make_compare("ne", active, make_const(active->dtype, 0));
    E.when(active, [&] {
      ExprP u = E.let("u", make_cast(make_load(V.id, V.dtype, i), DType::Index));
      // An unsigned value beyond the index range wraps negative and is rejected like the rest.
      const char* lower = mutant_active(MutantId::HistogramZeroBinRejected) ? "gt" : "ge";
      ExprP in_range = E.let("in_range", make_binary("and", make_compare(lower, u, make_index(0)), make_compare("lt", u, bins)));
      E.check(in_range, kFaultHistogramRange, {u, bins});
      E.when(in_range, [&] {
        E.store(OUT, {u}, E.bin("add", checked_load(OUT, cd, {u}, s.op_id), make_const(cd, 1)), true);
      });
    });
  });
  return std::move(X.out);
}

}  // namespace

std::string q4k_q8k_dot_form(const Program& P, const StructuredOp& st) { return qdot_applicable(P, st); }

std::vector<StmtP> sparse_validation(Program& P, const Stmt& s) {
  Expansion X(P, s);
  sparse_validate(P, *s.structured, X.E);
  return std::move(X.out);
}

std::vector<Implementation> format_implementations() {
  return {
      {"quantize.q8k", "quantize", "numerics/kquant.cpp's quantize_row_q8_K (ggml reference), bit for bit",
       quantize_applicable, expand_quantize, {}, "", "", {"none", "f32 rows of 256", "none", "q8_K blocks"}},
      {"quantized_dot.q4k_q8k", "quantized_dot",
       "numerics/kquant.cpp's vec_dot_q4_K_q8_K (ggml reference order, f32), bit for bit", qdot_applicable, expand_qdot,
       {}, "", "", {"none", "q4_K and q8_K blocks as stored", "none", "one f32 per row"}},
      {"scaled_contract.sequential", "scaled_contract",
       "per element: groups then elements in order, each decoded product times the exact power-of-two scale "
       "rounded once into the accumulator, then added (a NaN scale adds one NaN per group)",
       scaled_applicable, expand_scaled, {}, "", "sequential",
       {"none", "elements and e8m0 scales as stored", "none", "the result buffer, element by element"}},
      {"sparse_contract.sequential", "sparse_contract",
       "kept dense positions increasing, other reduce pairs row-major, each product rounded once into the "
       "accumulator, then added (integer accumulators wrap); metadata validated first",
       sparse_applicable, expand_sparse, {}, "", "sequential",
       {"none", "2:4 values and metadata as stored", "none", "the result buffer, element by element"}},
      {"histogram.serial", "histogram", "serial counting in the count dtype (wrapping); out-of-range active values fault",
       histogram_applicable, expand_histogram, {}, "", "",
       {"none", "the values as they are", "none", "the counts buffer (zeroed first)"}},
  };
}

}  // namespace kir::cpu
