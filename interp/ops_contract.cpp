// Multiply-add structured ops (seed 000 §10-§12, §11.1): contract, sparse_contract,
// scaled_contract, quantize, quantized_dot. Canonical evaluation of every float result element:
// the exact products summed exactly and rounded ONCE into the accumulator dtype (the
// `exact_rounded` centre of numerics/envelope.h; any legal reassociation lies in the envelope).
// f32 accumulators over f32/f16/bf16 take a double-double fast path that decides the same
// rounding with a rigorous error bound (contract_f32_fast). Integer accumulators wrap modulo 2^width, which is order-independent. Empty reductions give +0.
// Options::accumulation = Sequential evaluates the float elements in one declared order instead
// (SequentialSum, exact_sum.h), for bit-exact comparison with a backend that uses it.
// quantized_dot is bitwise-defined by numerics/kquant.h (ggml's reference order).
#include <cstring>
#include <optional>

#include "interp/engine.h"
#include "interp/envelope_log.h"
#include "interp/exact_sum.h"
#include "interp/fast_paths.h"
#include "numerics/cast.h"
#include "numerics/format.h"
#include "numerics/kquant.h"
#include "numerics/mx.h"

namespace kir::interp {
namespace {

// The result layout of contract(lhs, rhs) {reduce, batch}: per result axis the lhs/rhs strides,
// per reduce pair the lhs/rhs strides and extent.
struct ContractPlan {
  Shape out_shape, out_ls, out_rs;
  Shape red_shape, red_ls, red_rs;
};

ContractPlan plan_contract(const Operation& op, const Shape& ls, const Shape& rs) {
  auto reduce = attr_pairs(op, "reduce"), batch = attr_pairs(op, "batch");
  Shape lst = row_major_strides(ls), rst = row_major_strides(rs);
  std::vector<int> lrole(ls.size(), -1), rrole(rs.size(), -1);  // -2 reduced, >=0 batch partner
  ContractPlan p;
  auto check = [&](int64_t l, int64_t r, const char* what) {
    if (l < 0 || r < 0 || static_cast<size_t>(l) >= ls.size() || static_cast<size_t>(r) >= rs.size())
      fail(op, ErrorKind::InvalidValue, std::string(what) + " pair out of range");
    if (ls[static_cast<size_t>(l)] != rs[static_cast<size_t>(r)])
      fail(op, ErrorKind::ShapeMismatch,
           std::string(what) + " pair (" + std::to_string(l) + ", " + std::to_string(r) + ") has extents " +
               std::to_string(ls[static_cast<size_t>(l)]) + " and " + std::to_string(rs[static_cast<size_t>(r)]));
  };
  for (auto [l, r] : reduce) {
    check(l, r, "reduce");
    lrole[static_cast<size_t>(l)] = -2;
    rrole[static_cast<size_t>(r)] = -2;
    p.red_shape.push_back(ls[static_cast<size_t>(l)]);
    p.red_ls.push_back(lst[static_cast<size_t>(l)]);
    p.red_rs.push_back(rst[static_cast<size_t>(r)]);
  }
  for (auto [l, r] : batch) {
    check(l, r, "batch");
    lrole[static_cast<size_t>(l)] = static_cast<int>(r);
    rrole[static_cast<size_t>(r)] = -3;
  }
  for (size_t a = 0; a < ls.size(); ++a) {
    if (lrole[a] == -2) continue;
    p.out_shape.push_back(ls[a]);
    p.out_ls.push_back(lst[a]);
    p.out_rs.push_back(lrole[a] >= 0 ? rst[static_cast<size_t>(lrole[a])] : 0);
  }
  for (size_t a = 0; a < rs.size(); ++a) {
    if (rrole[a] != -1) continue;
    p.out_shape.push_back(rs[a]);
    p.out_ls.push_back(0);
    p.out_rs.push_back(rst[a]);
  }
  checked_numel(p.out_shape);
  checked_numel(p.red_shape);
  return p;
}

// Visits every result element with its lhs/rhs base offsets, then every reduce point with the
// offsets added.
template <class Elem, class Red>
void run_plan(const ContractPlan& p, Elem&& on_elem, Red&& on_red) {
  const int64_t nout = checked_numel(p.out_shape), nred = checked_numel(p.red_shape);
  Shape c(p.out_shape.size(), 0), rc(p.red_shape.size(), 0);
  int64_t lb = 0, rb = 0;
  for (int64_t o = 0; o < nout; ++o) {
    on_elem(o, true);
    int64_t lo = lb, ro = rb;
    std::fill(rc.begin(), rc.end(), 0);
    for (int64_t k = 0; k < nred; ++k) {
      on_red(lo, ro);
      for (size_t a = rc.size(); a-- > 0;) {
        if (++rc[a] < p.red_shape[a]) { lo += p.red_ls[a]; ro += p.red_rs[a]; break; }
        lo -= p.red_ls[a] * (p.red_shape[a] - 1);
        ro -= p.red_rs[a] * (p.red_shape[a] - 1);
        rc[a] = 0;
      }
    }
    on_elem(o, false);
    for (size_t a = c.size(); a-- > 0;) {
      if (++c[a] < p.out_shape[a]) { lb += p.out_ls[a]; rb += p.out_rs[a]; break; }
      lb -= p.out_ls[a] * (p.out_shape[a] - 1);
      rb -= p.out_rs[a] * (p.out_shape[a] - 1);
      c[a] = 0;
    }
  }
}

// Offsets of the reduce points relative to an element's base, row-major over the reduce pairs
// (the order does not matter for an exact sum).
void reduce_offsets(const ContractPlan& p, std::vector<int64_t>& lo, std::vector<int64_t>& ro) {
  const int64_t nred = checked_numel(p.red_shape);
  lo.assign(static_cast<size_t>(nred), 0);
  ro.assign(static_cast<size_t>(nred), 0);
  for (int64_t k = 0; k < nred; ++k) {
    int64_t rem = k;
    for (size_t a = p.red_shape.size(); a-- > 0;) {
      const int64_t c = rem % p.red_shape[a];
      rem /= p.red_shape[a];
      lo[static_cast<size_t>(k)] += c * p.red_ls[a];
      ro[static_cast<size_t>(k)] += c * p.red_rs[a];
    }
  }
}

// The f32-accumulator contract over f32/f16/bf16 operands: every element through
// fast::dot_f32 (double-double with a rigorous bound, see fast_paths.cpp), the few it cannot
// decide through ExactSum. Same bits as the ExactSum path for every element.
bool contract_f32_fast(const ContractPlan& p, const Tensor& l, const Tensor& r, Tensor& out) {
  auto widenable = [](DType d) { return d == DType::F32 || d == DType::F16 || d == DType::BF16; };
  if (!widenable(l.dtype) || !widenable(r.dtype)) return false;
  if (l.bits.empty() || r.bits.empty()) return false;  // empty K or result: the general path
  auto widen = [](const Tensor& t) {
    std::vector<double> w(t.bits.size());
    for (size_t i = 0; i < w.size(); ++i) w[i] = num::to_double(t.bits[i], t.dtype);  // exact
    return w;
  };
  const std::vector<double> lw = widen(l), rw = widen(r);
  std::vector<int64_t> lo, ro;
  reduce_offsets(p, lo, ro);
  const auto nred = static_cast<int64_t>(lo.size());
  ExactSum s;
  const int64_t nout = checked_numel(p.out_shape);
  Shape c(p.out_shape.size(), 0);
  int64_t lb = 0, rb = 0;
  for (int64_t o = 0; o < nout; ++o) {
    uint32_t res = 0;
    if (fast::dot_f32(lw.data() + lb, lo.data(), rw.data() + rb, ro.data(), nred, res)) {
      out.bits[static_cast<size_t>(o)] = res;
    } else {
      s.clear();
      for (int64_t k = 0; k < nred; ++k)
        s.add_product(num::exact_value(l.at(lb + lo[static_cast<size_t>(k)])), num::exact_value(r.at(rb + ro[static_cast<size_t>(k)])));
      out.bits[static_cast<size_t>(o)] = s.round(DType::F32);
    }
    for (size_t a = c.size(); a-- > 0;) {
      if (++c[a] < p.out_shape[a]) { lb += p.out_ls[a]; rb += p.out_rs[a]; break; }
      lb -= p.out_ls[a] * (p.out_shape[a] - 1);
      rb -= p.out_rs[a] * (p.out_shape[a] - 1);
      c[a] = 0;
    }
  }
  return true;
}

// The accumulator of one float result element under Options::accumulation. Terms are added in
// the order the handlers visit them: row-major over the reduce pairs as listed (scaled: group,
// then element within the group).
AccumulationOrder order_for(const Options& o, const Operation& op) {
  if (!o.accumulation_at.empty())
    if (auto it = o.accumulation_at.find(op.loc.str()); it != o.accumulation_at.end()) return it->second;
  return o.accumulation;
}

class ElementSum {
 public:
  ElementSum(AccumulationOrder order, DType acc) : acc_(acc), pairs_(order == AccumulationOrder::SequentialFusedPairs) {
    if (order != AccumulationOrder::Canonical) seq_.emplace(acc, order != AccumulationOrder::Sequential);
  }
  void clear() {
    held_.reset();
    seq_ ? seq_->clear() : exact_.clear();
  }
  void add_product(const num::ExactValue& a, const num::ExactValue& b, int extra_exp = 0) {
    if (!seq_) return exact_.add_product(a, b, extra_exp);
    if (!pairs_) return seq_->add_product(a, b, extra_exp);
    // Pairs, the second first: hold the first point of a pair until its partner comes.
    if (!held_) {
      held_ = Held{a, b, extra_exp};
      return;
    }
    seq_->add_product(a, b, extra_exp);
    seq_->add_product(held_->a, held_->b, held_->extra_exp);
    held_.reset();
  }
  void add_nan() { seq_ ? seq_->add_nan() : exact_.add_nan(); }
  uint64_t result() {
    if (held_) {
      seq_->add_product(held_->a, held_->b, held_->extra_exp);
      held_.reset();
    }
    return seq_ ? seq_->value() : exact_.round(acc_);
  }

 private:
  struct Held {
    num::ExactValue a, b;
    int extra_exp;
  };
  DType acc_;
  bool pairs_;
  ExactSum exact_;
  std::optional<SequentialSum> seq_;
  std::optional<Held> held_;
};

// Shared core of contract and sparse_contract; `lmask` (optional) marks lhs positions that take
// part (sparse: the kept ones).
Tensor contract_core(const Operation& op, const Tensor& l, const Tensor& r, DType acc, const std::vector<uint8_t>* lmask,
                     AccumulationOrder order) {
  ContractPlan p = plan_contract(op, l.shape, r.shape);
  Tensor out = make_tensor(acc, p.out_shape);
  if (is_integer(acc)) {
    if (!is_integer(l.dtype) && l.dtype != DType::Bool)
      fail(op, ErrorKind::NotImplemented, "not implemented: float operands with an integer accumulator");
    uint64_t sum = 0;
    auto val = [](const Tensor& t, int64_t i) {
      Scalar s = t.at(i);
      return is_signed_integer(s.dtype) ? static_cast<uint64_t>(num::as_signed(s)) : s.bits;
    };
    run_plan(p, [&](int64_t o, bool begin) {
      if (begin) sum = 0;
      else out.bits[static_cast<size_t>(o)] = num::make_int(acc, sum).bits;
    }, [&](int64_t lo, int64_t ro) {
      if (lmask && !(*lmask)[static_cast<size_t>(lo)]) return;
      sum += val(l, lo) * val(r, ro);  // wraps modulo 2^64, hence modulo 2^width
    });
    return out;
  }
  if (order == AccumulationOrder::Canonical && acc == DType::F32 && !lmask && contract_f32_fast(p, l, r, out)) return out;
  std::vector<num::ExactValue> le(l.bits.size()), re(r.bits.size());
  for (size_t i = 0; i < le.size(); ++i) le[i] = num::exact_value(l.at(static_cast<int64_t>(i)));
  for (size_t i = 0; i < re.size(); ++i) re[i] = num::exact_value(r.at(static_cast<int64_t>(i)));
  ElementSum s(order, acc);
  run_plan(p, [&](int64_t o, bool begin) {
    if (begin) s.clear();
    else out.bits[static_cast<size_t>(o)] = s.result();
  }, [&](int64_t lo, int64_t ro) {
    if (lmask && !(*lmask)[static_cast<size_t>(lo)]) return;
    s.add_product(le[static_cast<size_t>(lo)], re[static_cast<size_t>(ro)]);
  });
  return out;
}

// Charges the step budget one step per multiply-add (result elements * reduce points) before
// the work starts, so a contract too big for the budget fails without running.
void charge_contract(Engine& E, const Operation& op, const Shape& ls, const Shape& rs) {
  const ContractPlan p = plan_contract(op, ls, rs);
  E.charge(op, work_product(static_cast<uint64_t>(checked_numel(p.out_shape)), static_cast<uint64_t>(checked_numel(p.red_shape))));
}

Flow op_contract(Engine& E, Frame& f, const Operation& op) {
  const Tensor &l = E.operand(f, op, 0).tensor(), &r = E.operand(f, op, 1).tensor();
  charge_contract(E, op, l.shape, r.shape);
  E.set(f, op, 0, contract_core(op, l, r, op.result()->type.dtype(), nullptr, order_for(E.opts, op)));
  if (E.opts.envelopes) log_envelopes(E, f, op);
  return {};
}

Flow op_sparse_contract(Engine& E, Frame& f, const Operation& op) {
  const Tensor &c = E.operand(f, op, 0).tensor(), &meta = E.operand(f, op, 1).tensor(), &r = E.operand(f, op, 2).tensor();
  const std::string fmt = attr_keyword(op, "format");
  int group = 0, keep = 0;
  if (fmt == "two_of_four") { group = 4; keep = 2; }
  else if (fmt == "one_of_two") { group = 2; keep = 1; }
  else fail(op, ErrorKind::NotImplemented, "not implemented: sparse format '" + fmt + "'");
  auto reduce = attr_pairs(op, "reduce");
  if (reduce.empty()) fail(op, ErrorKind::InvalidValue, "sparse_contract without reduce pairs");
  const auto axis = static_cast<size_t>(reduce[0].first);
  if (axis >= c.shape.size() || meta.shape != c.shape) fail(op, ErrorKind::ShapeMismatch, "metadata shape differs from the compressed operand");
  const int64_t kc = c.shape[axis];
  if (kc % keep) fail(op, ErrorKind::ShapeMismatch, "compressed extent " + std::to_string(kc) + " is not a multiple of " + std::to_string(keep));
  Shape dense_shape = c.shape;
  dense_shape[axis] = kc / keep * group;
  Tensor dense = make_tensor(c.dtype, dense_shape);
  std::vector<uint8_t> mask(dense.bits.size(), 0);
  int64_t outer = 1, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= c.shape[a];
  for (size_t a = axis + 1; a < c.shape.size(); ++a) inner *= c.shape[a];
  const int64_t kd = dense_shape[axis];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t prev = -1;
      for (int64_t k = 0; k < kc; ++k) {
        const int64_t ci = (o * kc + k) * inner + i;
        Scalar m = meta.at(ci);
        int64_t pos = is_signed_integer(m.dtype) ? num::as_signed(m) : static_cast<int64_t>(m.bits);
        if (k % keep == 0) prev = -1;
        if (pos < 0 || pos >= group || pos <= prev)
          fail(op, ErrorKind::InvalidValue,
               "metadata " + std::to_string(pos) + " is not a legal " + fmt + " position (within [0, " + std::to_string(group) +
                   "), increasing in its group)",
               coord_str(unravel(ci, c.shape)));
        prev = pos;
        const int64_t di = (o * kd + (k / keep) * group + pos) * inner + i;
        dense.bits[static_cast<size_t>(di)] = c.bits[static_cast<size_t>(ci)];
        mask[static_cast<size_t>(di)] = 1;
      }
    }
  charge_contract(E, op, dense.shape, r.shape);
  E.set(f, op, 0, contract_core(op, dense, r, op.result()->type.dtype(), &mask, order_for(E.opts, op)));
  if (E.opts.envelopes) log_sparse_envelopes(E, f, op, dense, r, mask);
  return {};
}

// Logical element k (0 <= k < group) of carrier row `base` in format `fmt`.
num::ExactValue scaled_elem(const Tensor& carrier, int64_t base_byte, int64_t stride, int64_t k, DType fmt) {
  uint64_t byte = carrier.bits[static_cast<size_t>(base_byte + (fmt == DType::E2M1 ? k / 2 : k) * stride)] & 0xff;
  uint64_t bits = fmt == DType::E2M1 ? ((k % 2) ? byte >> 4 : byte & 0xf) : byte;
  return num::exact_value(Scalar{fmt, bits});
}

Flow op_scaled_contract(Engine& E, Frame& f, const Operation& op) {
  const Tensor &l = E.operand(f, op, 0).tensor(), &ls = E.operand(f, op, 1).tensor();
  const Tensor &r = E.operand(f, op, 2).tensor(), &rs = E.operand(f, op, 3).tensor();
  auto fmt_of = [&](const char* key) {
    const std::string s = attr_keyword(op, key);
    if (s == "e2m1") return DType::E2M1;
    if (s == "e4m3") return DType::E4M3;
    if (s == "e5m2") return DType::E5M2;
    fail(op, ErrorKind::NotImplemented, "not implemented: scaled format '" + s + "'");
  };
  const DType lf = fmt_of("lhs_format"), rf = fmt_of("rhs_format");
  const int64_t group = attr_int(op, "lhs_group_size");
  if (l.shape.size() != 3 || r.shape.size() != 3 || ls.shape.size() != 2 || rs.shape.size() != 2)
    fail(op, ErrorKind::ShapeMismatch, "scaled_contract operands must be [M,G,C], [M,G], [G,C,N], [N,G]");
  const int64_t M = l.shape[0], G = l.shape[1], N = r.shape[2];
  if (r.shape[0] != G || ls.shape != Shape{M, G} || rs.shape != Shape{N, G})
    fail(op, ErrorKind::ShapeMismatch, "scaled_contract operand shapes disagree on M, G or N");
  const int64_t cl = lf == DType::E2M1 ? group / 2 : group, cr = rf == DType::E2M1 ? group / 2 : group;
  if (l.shape[2] != cl || r.shape[1] != cr) fail(op, ErrorKind::ShapeMismatch, "carrier extent does not match the group size");
  const DType acc = op.result()->type.dtype();
  E.charge(op, work_product(work_product(static_cast<uint64_t>(M), static_cast<uint64_t>(N)),
                            work_product(static_cast<uint64_t>(G), static_cast<uint64_t>(group))));
  Tensor out = make_tensor(acc, {M, N});
  ElementSum s(order_for(E.opts, op), acc);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      s.clear();
      for (int64_t g = 0; g < G; ++g) {
        const uint64_t sl = ls.bits[static_cast<size_t>(m * G + g)] & 0xff, sr = rs.bits[static_cast<size_t>(n * G + g)] & 0xff;
        if (sl == 0xff || sr == 0xff) { s.add_nan(); continue; }  // NaN scale: the block is NaN
        const int sexp = static_cast<int>(sl) + static_cast<int>(sr) - 254;
        for (int64_t k = 0; k < group; ++k) {
          auto a = scaled_elem(l, (m * G + g) * cl, 1, k, lf);
          auto b = scaled_elem(r, (g * cr) * N + n, N, k, rf);
          s.add_product(a, b, sexp);
        }
      }
      out.bits[static_cast<size_t>(m * N + n)] = s.result();
    }
  E.set(f, op, 0, std::move(out));
  if (E.opts.envelopes) log_envelopes(E, f, op);
  return {};
}

float f32_of(uint64_t bits) {
  uint32_t u = static_cast<uint32_t>(bits);
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
uint64_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

const Value& field(const Operation& op, const RecordV& r, const std::string& name) {
  for (size_t i = 0; i < r.names.size(); ++i)
    if (r.names[i] == name) return r.elems[i];
  fail(op, ErrorKind::InvalidValue, "record has no field '" + name + "'");
}

Flow op_quantize(Engine& E, Frame& f, const Operation& op) {
  const Tensor& v = E.operand(f, op, 0).tensor();
  if (attr_keyword(op, "format") != "q8_k") fail(op, ErrorKind::NotImplemented, "not implemented: quantize format " + attr_keyword(op, "format"));
  if (v.shape.empty()) fail(op, ErrorKind::ShapeMismatch, "quantize needs a tensor [..., K]");
  const int64_t K = v.shape.back();
  if (K % num::kQK_K) fail(op, ErrorKind::ShapeMismatch, "K = " + std::to_string(K) + " is not a multiple of 256");
  const int64_t rows = K ? v.size() / K : 0, nb = K / num::kQK_K;
  Shape lead(v.shape.begin(), v.shape.end() - 1);
  auto with = [&](int64_t last) { Shape s = lead; s.push_back(last); return s; };
  Tensor d = make_tensor(DType::F32, with(nb)), qs = make_tensor(DType::I8, with(K)), bs = make_tensor(DType::I16, with(K / 16));
  std::vector<float> row(static_cast<size_t>(K));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < K; ++k) row[static_cast<size_t>(k)] = f32_of(v.bits[static_cast<size_t>(r * K + k)]);
    auto blocks = num::quantize_row_q8_K(row);
    if (!blocks) numeric_fail(op, static_cast<int>(blocks.status()), blocks.error().message, "row " + std::to_string(r));
    for (int64_t b = 0; b < nb; ++b) {
      const auto& blk = (*blocks)[static_cast<size_t>(b)];
      d.bits[static_cast<size_t>(r * nb + b)] = bits_of(blk.d);
      for (int k = 0; k < 256; ++k) qs.bits[static_cast<size_t>(r * K + b * 256 + k)] = num::make_int(DType::I8, static_cast<uint64_t>(static_cast<int64_t>(blk.qs[static_cast<size_t>(k)]))).bits;
      for (int j = 0; j < 16; ++j) bs.bits[static_cast<size_t>(r * (K / 16) + b * 16 + j)] = num::make_int(DType::I16, static_cast<uint64_t>(static_cast<int64_t>(blk.bsums[static_cast<size_t>(j)]))).bits;
    }
  }
  RecordV rec;
  rec.names = {"d", "qs", "bsums"};
  rec.elems = {Value(std::move(d)), Value(std::move(qs)), Value(std::move(bs))};
  E.set(f, op, 0, std::move(rec));
  return {};
}

Flow op_quantized_dot(Engine& E, Frame& f, const Operation& op) {
  const RecordV &L = E.operand(f, op, 0).record(), &R = E.operand(f, op, 1).record();
  const Tensor &ld = field(op, L, "d").tensor(), &ldm = field(op, L, "dmin").tensor();
  const Tensor &lsc = field(op, L, "scales").tensor(), &lqs = field(op, L, "qs").tensor();
  const Tensor &rd = field(op, R, "d").tensor(), &rqs = field(op, R, "qs").tensor(), &rbs = field(op, R, "bsums").tensor();
  if (ld.shape.empty() || rd.shape.empty()) fail(op, ErrorKind::ShapeMismatch, "quantized_dot operands need a block axis");
  const int64_t nb = ld.shape.back();
  if (rd.shape.back() != nb) fail(op, ErrorKind::ShapeMismatch, "lhs has " + std::to_string(nb) + " blocks, rhs " + std::to_string(rd.shape.back()));
  const int64_t nl = nb ? ld.size() / nb : 0, nr = nb ? rd.size() / nb : 0;
  Shape os(ld.shape.begin(), ld.shape.end() - 1);
  os.insert(os.end(), rd.shape.begin(), rd.shape.end() - 1);
  Tensor out = make_tensor(DType::F32, os);
  E.charge(op, work_product(work_product(static_cast<uint64_t>(nl), static_cast<uint64_t>(nr)),
                            work_product(static_cast<uint64_t>(nb), static_cast<uint64_t>(num::kQK_K))));
  std::vector<num::BlockQ4K> lb(static_cast<size_t>(nb));
  std::vector<num::BlockQ8K> rb(static_cast<size_t>(nb));
  for (int64_t i = 0; i < nl; ++i) {
    for (int64_t b = 0; b < nb; ++b) {
      auto& q = lb[static_cast<size_t>(b)];
      const int64_t blk = i * nb + b;
      q.d = static_cast<uint16_t>(ld.bits[static_cast<size_t>(blk)]);
      q.dmin = static_cast<uint16_t>(ldm.bits[static_cast<size_t>(blk)]);
      for (int k = 0; k < 12; ++k) q.scales[static_cast<size_t>(k)] = static_cast<uint8_t>(lsc.bits[static_cast<size_t>(blk * 12 + k)]);
      for (int k = 0; k < 128; ++k) q.qs[static_cast<size_t>(k)] = static_cast<uint8_t>(lqs.bits[static_cast<size_t>(blk * 128 + k)]);
    }
    for (int64_t j = 0; j < nr; ++j) {
      for (int64_t b = 0; b < nb; ++b) {
        auto& q = rb[static_cast<size_t>(b)];
        const int64_t blk = j * nb + b;
        q.d = f32_of(rd.bits[static_cast<size_t>(blk)]);
        for (int k = 0; k < 256; ++k) q.qs[static_cast<size_t>(k)] = static_cast<int8_t>(static_cast<uint8_t>(rqs.bits[static_cast<size_t>(blk * 256 + k)]));
        for (int k = 0; k < 16; ++k) q.bsums[static_cast<size_t>(k)] = static_cast<int16_t>(static_cast<uint16_t>(rbs.bits[static_cast<size_t>(blk * 16 + k)]));
      }
      auto r = num::vec_dot_q4_K_q8_K(lb, rb);
      if (!r) numeric_fail(op, static_cast<int>(r.status()), r.error().message, "");
      out.bits[static_cast<size_t>(i * nr + j)] = bits_of(*r);
    }
  }
  E.set(f, op, 0, std::move(out));
  if (E.opts.envelopes) log_envelopes(E, f, op);
  return {};
}

}  // namespace

void register_contract_ops(HandlerTable& t) {
  t["contract"] = op_contract;
  t["sparse_contract"] = op_sparse_contract;
  t["scaled_contract"] = op_scaled_contract;
  t["quantize"] = op_quantize;
  t["quantized_dot"] = op_quantized_dot;
}

}  // namespace kir::interp
