// Structured ops with author combines (seed 000 §7-§9, §13) in their canonical evaluation:
//  * reduce: a left fold in logical order: acc = identity; for every point r of the reduced axes
//    in row-major order, acc = combine(acc, source[r], captures...). Empty reduce -> identity.
//    A combine that is one pointwise op of its two parameters runs as a native fold (fast_reduce).
//    Options::reduce_lanes_at declares a lanes order instead (interpreter.h LanesOrder): blocks
//    and lanes along the last reduced axis, each lane a left fold from the identity, each block
//    the left fold of its lanes that received a point, the result the left fold of the blocks.
//  * scan: forward: acc = identity; for p = 0..n-1: acc = combine(acc, x_p) (inclusive stores
//    after, exclusive before). reverse: the same from the end with acc = combine(x_p, acc), so
//    the logical order of operands is kept (scan need not commute). Options::scan_blocks_at
//    declares a blocks order instead (interpreter.h): blocks of C points along the scan order,
//    each scanned from the identity, then combined with the fold of the earlier blocks' totals.
//  * region_fold / region_scan: canonically segmentation "whole" (one slice = the whole source):
//    region_fold = summarize(source, operands) (identity when empty); region_scan outputs =
//    emit(source, initial_state, operands), final = apply(summarize(source, operands), initial).
//    Options::segmentation may cut the source per element, at seeded random points or in blocks
//    of B elements instead (Options::region_blocks_at: per op, the blocks a backend declares):
//    fold = combine of the segment summaries left to right; scan = per segment emit from the
//    incoming state, then state = apply(summarize(segment), state), outputs concatenated.
//    Every source component is sliced alike, so an `indices(axis)` component keeps its absolute
//    coordinates in every segment (L9.4).
//  * histogram: counts in the count dtype (wrapping); an active value outside [0, bins) is an
//    error naming its coordinates.
#include <algorithm>
#include <optional>

#include "interp/engine.h"
#include "interp/envelope_log.h"
#include "interp/fast_paths.h"
#include "interp/laws.h"
#include "interp/tree.h"
#include "numerics/arith.h"

namespace kir::interp {
namespace {

// The binary op a combine helper consists of, when its body is exactly `%r = OP(%a, %b)` on its
// two parameters in order followed by `return(%r)`, with no attributes and OP covered by
// fast::binary_supported for `d`.
std::optional<num::BinaryOp> pointwise_combine(const Function& fn, DType d) {
  static const std::pair<const char*, num::BinaryOp> kOps[] = {
      {"add", num::BinaryOp::Add}, {"sub", num::BinaryOp::Sub}, {"mul", num::BinaryOp::Mul},
      {"div", num::BinaryOp::Div}, {"min", num::BinaryOp::Min}, {"max", num::BinaryOp::Max},
      {"and", num::BinaryOp::And}, {"or", num::BinaryOp::Or},   {"xor", num::BinaryOp::Xor}};
  const Region& b = fn.body;
  if (b.args.size() != 2 || b.ops.size() != 2 || fn.result_types.size() != 1) return std::nullopt;
  const Operation &o = *b.ops[0], &ret = *b.ops[1];
  if (o.operands.size() != 2 || o.operands[0] != b.args[0].get() || o.operands[1] != b.args[1].get() ||
      o.results.size() != 1 || !o.attrs.empty() || !o.regions.empty())
    return std::nullopt;
  if (ret.name != "return" || ret.operands.size() != 1 || ret.operands[0] != o.results[0].get()) return std::nullopt;
  for (const auto& [name, bop] : kOps)
    if (o.name == name) return fast::binary_supported(bop, d) ? std::optional(bop) : std::nullopt;
  return std::nullopt;
}

// The declared lanes order of this reduce (interpreter.h LanesOrder; {1, 0}: the canonical fold).
LanesOrder declared_order(const Engine& E, const Operation& op) {
  if (E.opts.reduce_lanes_at.empty()) return E.opts.reduce_lanes;
  auto it = E.opts.reduce_lanes_at.find(op.loc.str());
  return it == E.opts.reduce_lanes_at.end() ? E.opts.reduce_lanes : it->second;
}

// The groups of a lanes order over `total` reduced points in row-major order whose last reduced
// axis has extent `last`: group = block * lanes + lane of the point's last coordinate c.
struct LaneGroups {
  int64_t lanes = 1, block = 0, last = 1, total = 0;
  LaneGroups(LanesOrder o, int64_t last_extent, int64_t points)
      : lanes(std::max<int64_t>(1, o.lanes)), block(std::max<int64_t>(0, o.block)), last(std::max<int64_t>(1, last_extent)), total(points) {}
  bool canonical() const { return lanes == 1 && block == 0; }
  int64_t blocks() const { return total == 0 || block == 0 ? 1 : (last + block - 1) / block; }
  int64_t size() const { return blocks() * lanes; }
  int64_t group(int64_t k) const {
    const int64_t c = k % last;
    return (block > 0 ? c / block : 0) * lanes + c % lanes;
  }
  // The lanes of block b that receive a point (lane 0 alone when there are no points).
  int64_t used(int64_t b) const {
    if (total == 0) return 1;
    return std::min(lanes, block > 0 ? std::min(last, (b + 1) * block) - b * block : last);
  }
  // Combines after the points: lanes into partials, then partials into the result.
  int64_t final_combines() const {
    int64_t n = blocks() - 1;
    for (int64_t b = 0; b < blocks(); ++b) n += used(b) - 1;
    return n;
  }
};

// The result from the groups' values: per block its used lanes left to right, then the blocks'
// partials left to right.
template <class V, class F>
V fold_groups(const LaneGroups& g, std::vector<V>& vals, F&& combine) {
  V r{};
  for (int64_t b = 0; b < g.blocks(); ++b) {
    V part = std::move(vals[static_cast<size_t>(b * g.lanes)]);
    for (int64_t j = 1; j < g.used(b); ++j) part = combine(std::move(part), std::move(vals[static_cast<size_t>(b * g.lanes + j)]));
    r = b == 0 ? std::move(part) : combine(std::move(r), std::move(part));
  }
  return r;
}

// reduce with a pointwise combine (pointwise_combine above) on a tensor source: the same left
// fold per accumulator element as calling the helper once per point (elements of the
// accumulator are independent, so folding each one over all points in order gives the same
// bits), run by fast::fold. The first call's extent unification is done once (the accumulator's
// type never changes) and the step budget is charged as the calls would (region + op per call).
// Returns false when it does not apply (the general path then runs, and reports any error).
bool fast_reduce(Engine& E, const Operation& op, const Function& combine, const Value& src, Value& acc,
                 const std::vector<int64_t>& axes, int64_t total, LanesOrder order) {
  if (op.operands.size() != 2 || E.opts.trace || E.opts.break_on_nan || E.opts.break_on_inf) return false;
  if (!src.is_tensor() || !(acc.is_scalar() || acc.is_tensor())) return false;
  const Tensor& t = src.tensor();
  const DType d = t.dtype;
  auto bop = pointwise_combine(combine, d);
  if (!bop) return false;
  Shape kept, kept_strides;
  const Shape strides = row_major_strides(t.shape);
  for (size_t a = 0; a < t.shape.size(); ++a)
    if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(a))) {
      kept.push_back(t.shape[a]);
      kept_strides.push_back(strides[a]);
    }
  // Slices are scalars exactly when no axis is kept; a rank-0 tensor accumulator would mismatch.
  if (acc.is_scalar() ? (!kept.empty() || acc.scalar().dtype != d)
                      : (kept.empty() || acc.tensor().shape != kept || acc.tensor().dtype != d))
    return false;
  const LaneGroups groups(order, axes.empty() ? 1 : t.shape[static_cast<size_t>(axes.back())], total);
  const uint64_t calls = static_cast<uint64_t>(total + groups.final_combines()) * 2;
  if (E.steps + calls > E.opts.max_steps) return false;
  try {
    std::map<std::string, int64_t> syms;
    const auto& params = combine.body.args;
    E.unify(params[0]->type, acc, syms, "argument", op);
    E.unify(params[1]->type, acc, syms, "argument", op);
    E.unify(combine.result_types[0], acc, syms, "result", op);
  } catch (const RuntimeError&) {
    return false;
  }
  E.charge(op, calls);  // within the budget (checked above); may end the run at the time limit
  if (total == 0) return true;
  // Offsets of the reduced points (row-major over the sorted axes, as take_slice/unravel).
  std::vector<int64_t> offs;
  int64_t stride = 0;
  if (axes.size() == 1) {
    stride = strides[static_cast<size_t>(axes[0])];
  } else {
    offs.assign(static_cast<size_t>(total), 0);
    for (int64_t k = 0; k < total; ++k) {
      int64_t rem = k, o = 0;
      for (size_t i = axes.size(); i-- > 0;) {
        const auto a = static_cast<size_t>(axes[i]);
        o += (rem % t.shape[a]) * strides[a];
        rem /= t.shape[a];
      }
      offs[static_cast<size_t>(k)] = o;
    }
  }
  const int64_t* po = offs.empty() ? nullptr : offs.data();
  // Lanes order: the offsets of each group's points, in order.
  std::vector<std::vector<int64_t>> goffs(groups.canonical() ? 0 : static_cast<size_t>(groups.size()));
  if (!groups.canonical())
    for (int64_t k = 0; k < total; ++k) goffs[static_cast<size_t>(groups.group(k))].push_back(po ? po[k] : k * stride);
  std::vector<uint64_t> vals(goffs.size());  // the groups' values of one element, reused
  auto fold_element = [&](uint64_t init, const uint64_t* base) {
    if (groups.canonical()) return fast::fold(*bop, d, init, base, stride, po, total);
    for (size_t g = 0; g < goffs.size(); ++g)
      vals[g] = fast::fold(*bop, d, init, base, 0, goffs[g].data(), static_cast<int64_t>(goffs[g].size()));
    return fold_groups(groups, vals, [&](uint64_t a, uint64_t b) { return fast::fold(*bop, d, a, &b, 1, nullptr, 1); });
  };
  if (acc.is_scalar()) {
    acc = Scalar{d, fold_element(acc.scalar().bits, t.bits.data())};
    return true;
  }
  Tensor out = acc.tensor();
  Shape c(kept.size(), 0);
  int64_t base = 0;
  for (size_t j = 0; j < out.bits.size(); ++j) {
    out.bits[j] = fold_element(out.bits[j], t.bits.data() + base);
    for (size_t k = kept.size(); k-- > 0;) {
      if (++c[k] < kept[k]) { base += kept_strides[k]; break; }
      base -= kept_strides[k] * (kept[k] - 1);
      c[k] = 0;
    }
  }
  acc = Value(std::move(out));
  return true;
}

Flow op_reduce(Engine& E, Frame& f, const Operation& op) {
  const Value& src = E.operand(f, op, 0);
  Value acc = E.operand(f, op, 1);
  const Function& combine = E.helper(op, "combine");
  std::vector<int64_t> axes = attr_ints(op, "axes");
  std::sort(axes.begin(), axes.end());
  Shape red;
  for (int64_t a : axes) {
    int64_t n = leaf_extent(src, a);
    if (!leaves_agree(src, a, n)) fail(op, ErrorKind::ShapeMismatch, "source components disagree on the extent of axis " + std::to_string(a));
    red.push_back(n);
  }
  const int64_t total = checked_numel(red);
  const LanesOrder order = declared_order(E, op);
  if (fast_reduce(E, op, combine, src, acc, axes, total, order)) {
    E.set(f, op, 0, std::move(acc));
    if (E.opts.envelopes) log_envelopes(E, f, op);
    return {};
  }
  std::vector<Value> args(2);
  for (size_t i = 2; i < op.operands.size(); ++i) args.push_back(E.operand(f, op, i));
  const LaneGroups groups(order, red.empty() ? 1 : red.back(), total);
  std::vector<Value> vals(static_cast<size_t>(groups.size()), acc);
  for (int64_t k = 0; k < total; ++k) {
    Value& a = vals[static_cast<size_t>(groups.group(k))];
    args[0] = std::move(a);
    args[1] = take_slice(src, axes, unravel(k, red));
    a = std::move(E.call_function(combine, args, op).at(0));
  }
  acc = fold_groups(groups, vals, [&](Value a, Value b) {
    args[0] = std::move(a);
    args[1] = std::move(b);
    return std::move(E.call_function(combine, args, op).at(0));
  });
  E.set(f, op, 0, std::move(acc));
  if (E.opts.envelopes) log_envelopes(E, f, op);
  return {};
}

Flow op_scan(Engine& E, Frame& f, const Operation& op) {
  const Value& src = E.operand(f, op, 0);
  Value acc = E.operand(f, op, 1);
  const Function& combine = E.helper(op, "combine");
  const int64_t axis = attr_int(op, "axis");
  const bool inclusive = attr_bool(op, "inclusive", true), reverse = attr_bool(op, "reverse", false);
  const int64_t n = leaf_extent(src, axis);
  if (!leaves_agree(src, axis, n)) fail(op, ErrorKind::ShapeMismatch, "source components disagree on the scanned extent");
  Value out = zeros_like(src);
  std::vector<Value> args(2);
  for (size_t i = 2; i < op.operands.size(); ++i) args.push_back(E.operand(f, op, i));
  // before (.) after in the scan order: combine(before, after) forward, combine(after, before)
  // in reverse, so the logical order of the operands is kept.
  auto join = [&](Value before, Value after) {
    if (reverse) std::swap(before, after);
    args[0] = std::move(before);
    args[1] = std::move(after);
    return std::move(E.call_function(combine, args, op).at(0));
  };
  int64_t block = E.opts.scan_block;
  if (auto it = E.opts.scan_blocks_at.find(op.loc.str()); it != E.opts.scan_blocks_at.end()) block = it->second;
  if (block <= 0 || block >= n) block = n;  // one block: the canonical fold
  const Value identity = acc;
  Value prefix;  // P_b: the fold of the totals of the blocks before this one
  for (int64_t lo = 0; lo < n; lo += block) {
    const bool first_block = lo == 0;
    acc = identity;
    for (int64_t k = lo; k < std::min(n, lo + block); ++k) {
      const int64_t p = reverse ? n - 1 - k : k;
      if (!inclusive) put_slice(out, axis, p, first_block ? acc : k == lo ? prefix : join(prefix, acc));
      acc = join(std::move(acc), take_slice(src, {axis}, {p}));
      if (inclusive) put_slice(out, axis, p, first_block ? acc : join(prefix, acc));
    }
    prefix = first_block ? acc : join(std::move(prefix), acc);
  }
  E.set(f, op, 0, std::move(out));
  if (E.opts.envelopes) log_envelopes(E, f, op);
  return {};
}

// Splits the operands of a region op by its `segments` attribute.
std::vector<std::vector<Value>> segments_of(Engine& E, Frame& f, const Operation& op, size_t expected) {
  std::vector<int64_t> seg = attr_ints(op, "segments");
  if (seg.size() != expected) fail(op, ErrorKind::InvalidValue, "segments attribute has the wrong length");
  std::vector<std::vector<Value>> out;
  size_t i = 0;
  for (int64_t s : seg) {
    std::vector<Value> part;
    for (int64_t k = 0; k < s; ++k) part.push_back(E.operand(f, op, i++));
    out.push_back(std::move(part));
  }
  if (i != op.operands.size()) fail(op, ErrorKind::InvalidValue, "segments do not cover the operands");
  return out;
}

int64_t region_extent(const Operation& op, const std::vector<Value>& sources, int64_t axis) {
  if (sources.empty()) fail(op, ErrorKind::InvalidValue, "region op without sources");
  int64_t n = leaf_extent(sources[0], axis);
  for (size_t i = 0; i < sources.size(); ++i)
    if (!leaves_agree(sources[i], axis, n))
      fail(op, ErrorKind::ShapeMismatch, "source " + std::to_string(i) + " disagrees with source 0 on the extent of axis " + std::to_string(axis));
  return n;
}

// Blocks of `block` elements from the start of [0, n), the last one shorter.
laws::Segments block_segments(int64_t n, int64_t block) {
  laws::Segments segs;
  for (int64_t b = 0; b < n; b += std::min(block, n - b)) segs.push_back({b, std::min(b + block, n)});
  return segs;
}

// The segments of [0, n) for `op` (n > 0): the blocks its backend declared
// (Options::region_blocks_at), else Options::segmentation: whole, per element, seeded random
// (at least two segments when n > 1; each executed region op draws its own) or blocks.
laws::Segments eval_segments(Engine& E, const Operation& op, int64_t n) {
  const uint64_t salt = E.region_runs++;
  if (auto it = E.opts.region_blocks_at.find(op.loc.str()); it != E.opts.region_blocks_at.end())
    return block_segments(n, it->second);
  switch (E.opts.segmentation) {
    case Segmentation::Blocks: return block_segments(n, E.opts.region_block);
    case Segmentation::Whole: return {{0, n}};
    case Segmentation::PerElement: return laws::segmentations(n, 0, 0, 0).front().segs;
    case Segmentation::Random: return laws::segmentations(n, E.opts.segmentation_seed, salt, 1).back().segs;
  }
  return {{0, n}};
}

std::vector<Value> with_range(const std::vector<Value>& sources, int64_t axis, int64_t b, int64_t e, int64_t n,
                              const std::vector<Value>& extra) {
  std::vector<Value> args;
  for (const auto& s : sources) args.push_back(b == 0 && e == n ? s : slice_range(s, axis, b, e));
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

Flow op_region_fold(Engine& E, Frame& f, const Operation& op) {
  auto parts = segments_of(E, f, op, 3);
  const int64_t axis = attr_int(op, "axis");
  const int64_t n = region_extent(op, parts[0], axis);
  if (n == 0) {
    E.set(f, op, 0, parts[1].at(0));
    return {};
  }
  if (E.laws) E.check_fold_laws(op, parts[0], parts[1].at(0), parts[2], axis, n);
  // Segment summaries combined left to right (one segment: summarize alone).
  std::optional<Value> acc;
  for (const auto& [b, e] : eval_segments(E, op, n)) {
    Value s = E.call_function(E.helper(op, "summarize"), with_range(parts[0], axis, b, e, n, parts[2]), op).at(0);
    acc = acc ? E.call_function(E.helper(op, "combine"), {*acc, s}, op).at(0) : std::move(s);
  }
  E.set(f, op, 0, std::move(*acc));
  return {};
}

Flow op_region_scan(Engine& E, Frame& f, const Operation& op) {
  auto parts = segments_of(E, f, op, 4);
  const int64_t axis = attr_int(op, "axis");
  const int64_t n = region_extent(op, parts[0], axis);
  const Value& init = parts[2].at(0);
  if (E.laws && n > 0) E.check_scan_laws(op, parts[0], parts[1].at(0), init, parts[3], axis, n);
  // Per segment: its outputs from the incoming state, then the state moved past it.
  std::vector<std::vector<Value>> seg_outs;
  Value final_state = init;
  const laws::Segments segs = n > 0 ? eval_segments(E, op, n) : laws::Segments{{0, 0}};
  for (const auto& [b, e] : segs) {
    std::vector<Value> emit_args = with_range(parts[0], axis, b, e, n, {});
    emit_args.push_back(final_state);
    emit_args.insert(emit_args.end(), parts[3].begin(), parts[3].end());
    seg_outs.push_back(E.call_function(E.helper(op, "emit"), emit_args, op));
    if (n > 0) {
      Value t = E.call_function(E.helper(op, "summarize"), with_range(parts[0], axis, b, e, n, parts[3]), op).at(0);
      final_state = std::move(E.call_function(E.helper(op, "apply"), {t, final_state}, op).at(0));
    }
  }
  std::vector<Value> outs = seg_outs.front();
  if (seg_outs.size() > 1)
    for (size_t i = 0; i < outs.size(); ++i) {
      std::vector<Value> pieces;
      for (const auto& so : seg_outs) pieces.push_back(so.at(i));
      outs[i] = concat_range(pieces, axis);
    }
  if (outs.size() + 1 != op.results.size()) fail(op, ErrorKind::ShapeMismatch, "emit returned the wrong number of outputs");
  for (size_t i = 0; i < outs.size(); ++i) E.set(f, op, i, std::move(outs[i]));
  E.set(f, op, outs.size(), std::move(final_state));
  return {};
}

Flow op_histogram(Engine& E, Frame& f, const Operation& op) {
  const Tensor& vals = E.operand(f, op, 0).tensor();
  const int64_t bins = index_of(E.operand(f, op, 1));
  const Value& valid = E.operand(f, op, 2);
  if (bins <= 0) fail(op, ErrorKind::InvalidValue, "bins must be positive, got " + std::to_string(bins));
  const DType cd = op.result()->type.dtype();
  E.charge(op, static_cast<uint64_t>(vals.size()));  // element work: each value counted
  Tensor out = make_tensor(cd, {bins});
  if (!valid.is_scalar() && valid.tensor().shape != vals.shape)
    fail(op, ErrorKind::ShapeMismatch, "valid has shape " + shape_str(valid.tensor().shape) + ", values " + shape_str(vals.shape));
  const Scalar one = num::make_int(cd, 1);
  for (int64_t i = 0; i < vals.size(); ++i) {
    bool active = valid.is_scalar() ? valid.scalar().bits != 0 : valid.tensor().bits[static_cast<size_t>(i)] != 0;
    if (!active) continue;  // inactive lanes are not range-checked and do not count
    Scalar v = vals.at(i);
    bool neg = is_signed_integer(v.dtype) && num::as_signed(v) < 0;
    uint64_t u = is_signed_integer(v.dtype) ? static_cast<uint64_t>(num::as_signed(v)) : v.bits;
    if (neg || u >= static_cast<uint64_t>(bins))
      fail(op, ErrorKind::HistogramRange,
           "active value " + std::to_string(neg ? num::as_signed(v) : static_cast<int64_t>(u)) + " is outside [0, " +
               std::to_string(bins) + ")",
           coord_str(unravel(i, vals.shape)));
    auto& c = out.bits[static_cast<size_t>(u)];
    c = num::binary(num::BinaryOp::Add, Scalar{cd, c}, one)->bits;  // wraps in the count dtype
  }
  E.set(f, op, 0, std::move(out));
  return {};
}

}  // namespace

void register_structured_ops(HandlerTable& t) {
  t["reduce"] = op_reduce;
  t["scan"] = op_scan;
  t["region_fold"] = op_region_fold;
  t["region_scan"] = op_region_scan;
  t["histogram"] = op_histogram;
}

}  // namespace kir::interp
