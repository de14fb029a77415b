// Construction of the format-carrying structured ops (seed 000 §10-§13): scaled_contract (MX),
// sparse_contract (2:4 / 1:2), quantize (q8_K), quantized_dot (q4_K x q8_K) and histogram.
// Each becomes a Structured statement keeping its operands (record operands flattened in a fixed
// field order), its attributes and accumulator dtype; the format decoding and the declared
// accumulation order are the business of the implementations (impl/format_impls.cpp).
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
namespace {

// The buffer of a tensor operand (a located error for anything else).
BufId tensor_buf(Builder& B, const Operation& op, const CValue& v, const std::string& what) {
  if (!v.is_tensor()) B.not_implemented(op, op.name + " with a non-tensor " + what);
  return v.buf;
}

// The field `name` of a record operand, as a buffer.
BufId field_buf(Builder& B, const Operation& op, const CValue& rec, const std::string& name) {
  if (rec.kind != CValue::Kind::Record) B.not_implemented(op, op.name + " of a non-record operand");
  for (size_t i = 0; i < rec.names.size() && i < rec.elems.size(); ++i)
    if (rec.names[i] == name) return tensor_buf(B, op, rec.elems[i], "field `" + name + "`");
  B.fail(op, "record operand has no field `" + name + "`");
  return kNone;
}

std::string keyword(const Operation& op, const char* key) {
  const Attribute* a = op.attr(key);
  return a ? a->s : "";
}

// Emits `st` with one result buffer of the op's (tensor or scalar) result type and binds it.
void emit_single_result(Builder& B, const Operation& op, std::shared_ptr<StructuredOp> st) {
  const Type& rt = op.result()->type;
  std::vector<ExprP> shape = rt.is_tensor() ? B.shape_of(op, rt) : std::vector<ExprP>{};
  BufId r = B.new_local(op.result()->name, value_dtype(rt), shape);
  st->results.push_back(r);
  st->acc = value_dtype(rt);
  st->attrs = op.attrs;
  auto s = make_stmt(StmtKind::Structured, B.origin(op));
  s->structured = st;
  B.emit(std::move(s));
  if (rt.is_tensor()) B.set(op.result(), CValue::of_tensor(r));
  else B.set(op.result(), B.let(op.result()->name, make_load(r, st->acc, {})));
}

void op_scaled_contract(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "scaled_contract inside a combine helper");
  auto st = std::make_shared<StructuredOp>();
  st->kind = "scaled_contract";
  for (size_t i = 0; i < 4; ++i) st->operands.push_back(tensor_buf(B, op, B.get(op.operands[i]), "operand"));
  emit_single_result(B, op, st);
}

void op_sparse_contract(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "sparse_contract inside a combine helper");
  auto st = std::make_shared<StructuredOp>();
  st->kind = "sparse_contract";
  for (size_t i = 0; i < 3; ++i) st->operands.push_back(tensor_buf(B, op, B.get(op.operands[i]), "operand"));
  emit_single_result(B, op, st);
}

void op_quantize(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "quantize inside a combine helper");
  if (keyword(op, "format") != "q8_k") B.not_implemented(op, "quantize to format `" + keyword(op, "format") + "`");
  auto st = std::make_shared<StructuredOp>();
  st->kind = "quantize";
  st->attrs = op.attrs;
  st->operands.push_back(tensor_buf(B, op, B.get(op.operands[0]), "operand"));
  const Type& rt = op.result()->type;
  if (!rt.is(TypeKind::Record)) B.fail(op, "quantize result is not a record");
  // Results in the order d, qs, bsums; the record value keeps the type's field order.
  const char* order[3] = {"d", "qs", "bsums"};
  std::vector<BufId> by_field;
  for (const auto& [n, t] : rt.fields()) {
    if (!t.is_tensor()) B.fail(op, "quantize field `" + n + "` is not a tensor");
    by_field.push_back(B.new_local(op.result()->name + "_" + n, value_dtype(t), B.shape_of(op, t)));
  }
  for (const char* want : order) {
    BufId found = kNone;
    for (size_t i = 0; i < rt.fields().size(); ++i)
      if (rt.fields()[i].first == want) found = by_field[i];
    if (found == kNone) B.fail(op, std::string("quantize result has no field `") + want + "`");
    st->results.push_back(found);
  }
  st->acc = DType::F32;
  auto s = make_stmt(StmtKind::Structured, B.origin(op));
  s->structured = st;
  B.emit(std::move(s));
  CValue rec;
  rec.kind = CValue::Kind::Record;
  for (size_t i = 0; i < rt.fields().size(); ++i) {
    rec.names.push_back(rt.fields()[i].first);
    rec.elems.push_back(CValue::of_tensor(by_field[i]));
  }
  B.set(op.result(), rec);
}

void op_quantized_dot(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "quantized_dot inside a combine helper");
  if (keyword(op, "lhs_format") != "q4_k" || keyword(op, "rhs_format") != "q8_k")
    B.not_implemented(op, "quantized_dot of " + keyword(op, "lhs_format") + " x " + keyword(op, "rhs_format"));
  auto st = std::make_shared<StructuredOp>();
  st->kind = "quantized_dot";
  const CValue &l = B.get(op.operands[0]), &r = B.get(op.operands[1]);
  for (const char* f : {"d", "dmin", "scales", "qs"}) st->operands.push_back(field_buf(B, op, l, f));
  for (const char* f : {"d", "qs", "bsums"}) st->operands.push_back(field_buf(B, op, r, f));
  emit_single_result(B, op, st);
}

void op_histogram(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "histogram inside a combine helper");
  auto st = std::make_shared<StructuredOp>();
  st->kind = "histogram";
  st->operands.push_back(tensor_buf(B, op, B.get(op.operands[0]), "values operand"));
  const CValue& bins = B.get(op.operands[1]);
  if (!bins.is_scalar()) B.not_implemented(op, "histogram with a tensor bin count");
  st->scalars.push_back(bins.scalar);
  const CValue& valid = B.get(op.operands[2]);
  if (valid.is_tensor()) st->operands.push_back(valid.buf);  // per-element validity
  else if (valid.is_scalar()) st->scalars.push_back(valid.scalar);
  else B.not_implemented(op, "histogram with this validity operand");
  emit_single_result(B, op, st);
}

}  // namespace

void register_format_ops(std::map<std::string, OpHandler>& t) {
  t["scaled_contract"] = op_scaled_contract;
  t["sparse_contract"] = op_sparse_contract;
  t["quantize"] = op_quantize;
  t["quantized_dot"] = op_quantized_dot;
  t["histogram"] = op_histogram;
}

}  // namespace kir::cpu
