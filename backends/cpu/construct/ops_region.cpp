// Construction of region_fold and region_scan (seed 000 §9). The language allows any contiguous,
// ordered, covering segmentation; construction inlines the author's helpers with the same calls,
// in the same order, as the interpreter under the segmentation the backend declares
// (interp/ops_structured.cpp):
//  * region_fold, implementation region_fold.blocks with B = the config row's region_block
//    (Builder::region_block): segments of B elements from the start, the last one shorter —
//    acc = summarize(block 0), then acc = combine(acc, summarize(block j)) for each further
//    block and the tail, each block a copy of the sources' rows [jB, jB + B) (fusion turns the
//    copy into loads), so summarize's tensors are B rows long and its contracts work on blocks
//    that stay in cache (FlashAttention). n <= B, or B = 0, is the whole segmentation:
//    n == 0 ? identity : summarize(sources..., operands...) — combine is never called. The
//    binding (region_block, order "segments") is recorded for the oracle, which gives the
//    interpreter the same segments (Options::region_blocks_at);
//  * region_scan: outputs = emit(sources..., initial_state, operands...) (also when n == 0), final
//    = n == 0 ? initial_state : apply(summarize(sources..., operands...), initial_state); the
//    identity is never used.
// n is the extent of the source axis: a constant picks one side at construction, otherwise an If
// on n == 0 writes the result slots (summarize of an empty source need not equal the identity and
// may fault).
#include "backends/cpu/construct/builder.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {


// Operands split by the op's `segments` attribute (expected groups), as the interpreter does.
std::vector<std::vector<CValue>> segment_operands(Builder& B, const Operation& op, size_t expected) {
  const Attribute* a = op.attr("segments");
  if (!a || !a->is_int_list()) B.fail(op, "missing or malformed attribute `segments`");
  std::vector<int64_t> seg = a->ints();
  if (seg.size() != expected) B.fail(op, "segments attribute has the wrong length");
  std::vector<std::vector<CValue>> out;
  size_t i = 0;
  for (int64_t s : seg) {
    std::vector<CValue> part;
    for (int64_t k = 0; k < s; ++k) {
      if (i >= op.operands.size()) B.fail(op, "segments do not cover the operands");
      part.push_back(B.get(op.operands[i++]));
    }
    out.push_back(std::move(part));
  }
  if (i != op.operands.size()) B.fail(op, "segments do not cover the operands");
  return out;
}

// The extent of the source axis (source 0's first leaf; the verifier proved the leaves agree).
ExprP source_extent(Builder& B, const Operation& op, const std::vector<CValue>& sources, int64_t axis) {
  if (sources.empty()) B.fail(op, "region op without sources");
  auto ls = Builder::leaf_values(sources[0]);
  if (ls.empty() || !ls[0].is_tensor()) B.not_implemented(op, "`" + op.name + "` of a non-tensor source");
  const Buffer& b = B.program().buf(ls[0].buf);
  if (axis < 0 || static_cast<size_t>(axis) >= b.shape.size()) B.fail(op, "axis out of range of the source");
  return b.shape[static_cast<size_t>(axis)];
}

// Result slots for a value of type `t`, shaped at the op (outside the If, so that no extent
// refers to a variable of one branch): a Carry variable per scalar leaf, a Local per tensor leaf.
std::vector<CValue> make_slots(Builder& B, const Operation& op, const Type& t) {
  std::vector<Type> lt;
  Builder::type_leaves(t, lt);
  std::vector<CValue> slots;
  for (size_t i = 0; i < lt.size(); ++i) {
    const std::string name = op.name + "_r" + std::to_string(i);
    if (lt[i].is_scalar() || lt[i].is(TypeKind::Enum)) {
      DType d = value_dtype(lt[i]);
      CValue c = CValue::of_scalar(make_var(B.program().add_var(name, d, VarRole::Carry), d));
      if (lt[i].is(TypeKind::Enum)) c.kind = CValue::Kind::Enum;
      slots.push_back(c);
    } else if (lt[i].is_tensor()) {
      slots.push_back(CValue::of_tensor(B.new_local(name, lt[i].dtype(), B.shape_of(op, lt[i]))));
    } else {
      B.not_implemented(op, "a region result of type " + lt[i].str());
    }
  }
  return slots;
}

// slots := values (fresh values computed in the current branch, never other slots).
void assign(Builder& B, const Operation& op, const std::vector<CValue>& slots, const std::vector<CValue>& values) {
  if (slots.size() != values.size()) B.fail(op, "internal: result leaf count mismatch");
  for (size_t i = 0; i < slots.size(); ++i) {
    const CValue& s = slots[i];
    const CValue& v = values[i];
    if (s.is_tensor()) {
      if (!v.is_tensor()) B.fail(op, "internal: tensor result receives a non-tensor");
      auto c = make_stmt(StmtKind::Copy, B.origin(op));
      c->buf = s.buf;
      c->src = v.buf;
      B.emit(std::move(c));
    } else {
      if (!v.scalar) B.fail(op, "internal: scalar result receives a non-scalar");
      auto a = make_stmt(StmtKind::Assign, B.origin(op));
      a->var = s.scalar->var;
      a->value = v.scalar;
      B.emit(std::move(a));
    }
  }
}

// `n == 0 ? empty() : nonempty()` for a value of type `t`: decided at construction when n is a
// constant, else an If writing result slots.
CValue select_on_empty(Builder& B, const Operation& op, const ExprP& n, const Type& t,
                       const std::function<CValue()>& empty, const std::function<CValue()>& nonempty) {
  if (auto c = const_index(n)) return *c == 0 ? empty() : nonempty();
  auto s = make_stmt(StmtKind::If, B.origin(op));
  s->value = make_compare("eq", n, make_index(0));
  std::vector<CValue> slots = make_slots(B, op, t);
  B.with_block(s->orelse, [&] { assign(B, op, slots, Builder::leaf_values(nonempty())); });
  B.with_block(s->body, [&] { assign(B, op, slots, Builder::leaf_values(empty())); });
  B.emit(std::move(s));
  auto it = slots.cbegin();
  return Builder::from_leaves(t, it);
}

std::vector<CValue> concat(std::vector<CValue> a, const std::vector<CValue>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The sources restricted to rows [b, b + len) of `axis`: each tensor leaf copied by a Compute
// (its coordinate on `axis` offset by b), so that an `indices` component keeps its absolute
// coordinates (L9.4).
std::vector<CValue> slice_sources(Builder& B, const Operation& op, const std::vector<CValue>& sources, int64_t axis,
                                  const ExprP& b, const ExprP& len) {
  std::vector<CValue> out;
  for (size_t i = 0; i < sources.size(); ++i) {
    std::vector<CValue> leaves;
    for (const CValue& l : Builder::leaf_values(sources[i])) {
      if (!l.is_tensor()) B.not_implemented(op, "a region source component that is not a tensor");
      const Buffer& buf = B.program().buf(l.buf);
      std::vector<ExprP> shape = buf.shape;
      shape[static_cast<size_t>(axis)] = len;
      leaves.push_back(B.compute(op, buf.name + "_blk", buf.dtype, shape, [&](const std::vector<ExprP>& c) {
        std::vector<ExprP> at = c;
        at[static_cast<size_t>(axis)] = index_add(at[static_cast<size_t>(axis)], b);
        return B.element(l, at);
      }));
    }
    auto it = leaves.cbegin();
    out.push_back(Builder::from_leaves(op.operands[i]->type, it));
  }
  return out;
}

// summarize(sources..., operands...): the whole source as one segment.
CValue summarize_whole(Builder& B, const Operation& op, const std::vector<std::vector<CValue>>& parts) {
  return B.inline_call(op, B.helper(op, "summarize"), concat(parts[0], parts[2])).at(0);
}

// region_fold in blocks of `block` (> 0) rows of a source of n > 0 rows, n possibly symbolic:
// n < block is the whole source; otherwise summarize(block 0), then the further whole blocks
// (a loop) and the tail each combined into the accumulator slots. A constant n decides at
// construction which of these exist.
CValue fold_blocks(Builder& B, const Operation& op, const std::vector<std::vector<CValue>>& parts, int64_t axis,
                   const ExprP& n, int64_t block) {
  const Function& summarize = B.helper(op, "summarize");
  const Function& combine = B.helper(op, "combine");
  const Type& t = op.result()->type;
  const auto cn = const_index(n);
  const ExprP bk = make_index(block);
  auto summary = [&](const ExprP& b, const ExprP& len) {
    return B.inline_call(op, summarize, concat(slice_sources(B, op, parts[0], axis, b, len), parts[2])).at(0);
  };
  std::vector<CValue> slots = make_slots(B, op, t);
  auto acc = [&] {
    auto it = slots.cbegin();
    return Builder::from_leaves(t, it);
  };
  auto fold_in = [&](const ExprP& b, const ExprP& len) {
    CValue s = summary(b, len);
    assign_slots(B, op, slots, Builder::leaf_values(B.inline_call(op, combine, {acc(), s}).at(0)));
  };
  auto blocked = [&] {
    const ExprP nfull = cn ? make_index(*cn / block) : make_binary("floordiv", n, bk);
    assign_slots(B, op, slots, Builder::leaf_values(summary(make_index(0), bk)));
    if (!cn || (mutant_active(MutantId::RegionFoldTwoBlocksBound) ? *cn > 2 * block : *cn >= 2 * block)) {
      auto loop = make_loop(B.program().add_var("rblk", DType::Index, VarRole::Loop),
                            make_index(mutant_active(MutantId::RegionFoldBlockZeroTwice) ? 0 : 1), nfull,
                            make_index(1), B.origin(op));
      B.with_block(loop->body, [&] { fold_in(index_mul(make_var(loop->var, DType::Index), bk), bk); });
      B.emit(std::move(loop));
    }
    if (cn) {
      if (*cn % block != 0) fold_in(make_index(*cn / block * block), make_index(*cn % block));
      return;
    }
    const ExprP tail = index_sub(n, index_mul(nfull, bk));
    auto s = make_stmt(StmtKind::If, B.origin(op));
    s->value = make_compare("ne", tail, make_index(0));
    B.with_block(s->body, [&] { fold_in(index_mul(nfull, bk), tail); });
    B.emit(std::move(s));
  };
  if (cn) {
    blocked();
    return acc();
  }
  auto s = make_stmt(StmtKind::If, B.origin(op));
  s->value = make_compare("lt", n, bk);
  B.with_block(s->body, [&] { assign_slots(B, op, slots, Builder::leaf_values(summarize_whole(B, op, parts))); });
  B.with_block(s->orelse, blocked);
  B.emit(std::move(s));
  return acc();
}

void op_region_fold(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "region_fold inside a combine helper");
  auto parts = segment_operands(B, op, 3);
  const int64_t axis = op.attr("axis") ? static_cast<int64_t>(op.attr("axis")->i) : 0;
  ExprP n = source_extent(B, op, parts[0], axis);
  const CValue identity = parts[1].at(0);
  const int64_t block = B.region_block();
  B.program().bindings.push_back({B.origin(op), "region_fold.blocks", {{"region_block", block}}, block > 0 ? "segments" : ""});
  const auto cn = const_index(n);
  const bool whole = block <= 0 || (cn && *cn <= block);
  // Coverage (driver/coverage.h): the segments of the source.
  if (block > 0) B.emit(cover_tail(B.program(), "region_fold.blocks/region_block", n, block));
  else B.emit(make_cover(B.program(), {"region_fold.blocks/region_block:whole"}));
  CValue r = select_on_empty(B, op, n, op.result()->type, [&] { return identity; }, [&] {
    return whole ? summarize_whole(B, op, parts) : fold_blocks(B, op, parts, axis, n, block);
  });
  B.set(op.result(), r);
}

void op_region_scan(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "region_scan inside a combine helper");
  auto parts = segment_operands(B, op, 4);
  const int64_t axis = op.attr("axis") ? static_cast<int64_t>(op.attr("axis")->i) : 0;
  ExprP n = source_extent(B, op, parts[0], axis);
  const CValue init = parts[2].at(0);
  std::vector<CValue> emit_args = parts[0];
  emit_args.push_back(init);
  emit_args = concat(emit_args, parts[3]);
  std::vector<CValue> outs = B.inline_call(op, B.helper(op, "emit"), emit_args);
  if (outs.size() + 1 != op.results.size()) B.fail(op, "emit returned the wrong number of outputs");
  const Function& summarize = B.helper(op, "summarize");
  const Function& apply = B.helper(op, "apply");
  CValue final_state = select_on_empty(
      B, op, n, op.results.back()->type, [&] { return init; },
      [&] {
        CValue t = B.inline_call(op, summarize, concat(parts[0], parts[3])).at(0);
        return B.inline_call(op, apply, {t, init}).at(0);
      });
  for (size_t i = 0; i < outs.size(); ++i) B.set(op.results[i].get(), outs[i]);
  B.set(op.results.back().get(), final_state);
}

}  // namespace

void register_region_ops(std::map<std::string, OpHandler>& t) {
  t["region_fold"] = op_region_fold;
  t["region_scan"] = op_region_scan;
}

}  // namespace kir::cpu
