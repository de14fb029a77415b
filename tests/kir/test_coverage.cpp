// Keeps the round-trip suite complete: every canonical op of the registry, every type kind and
// every dtype appears in some tests/kir/valid file, and every surface shorthand in some
// tests/kir/normalize file (issue 2: "every op and type has at least one round-trip test file").
#include <catch2/catch.hpp>

#include <set>

#include "kir/op_registry.h"
#include "kir/text/parser.h"
#include "tests/kir/file_suite.h"

using namespace kir;

namespace {
struct Seen {
  std::set<std::string> ops;
  std::set<TypeKind> kinds;
  std::set<DType> dtypes;
  void type(const Type& t) {
    if (!t) return;
    kinds.insert(t.kind());
    switch (t.kind()) {
      case TypeKind::Scalar: case TypeKind::Tensor: dtypes.insert(t.dtype()); break;
      case TypeKind::Tuple: for (const auto& e : t.elements()) type(e); break;
      case TypeKind::Record: for (const auto& f : t.fields()) type(f.second); break;
      case TypeKind::View: case TypeKind::Buffer: type(t.tensor_type()); break;
      default: break;
    }
  }
  void region(const Region& r) {
    for (const auto& a : r.args) type(a->type);
    for (const auto& op : r.ops) {
      ops.insert(op->name);
      for (const auto& res : op->results) type(res->type);
      for (const auto& sub : op->regions) region(*sub);
    }
  }
  void dir(const std::string& sub) {
    for (const auto& path : test::kir_files(sub)) {
      std::string src = test::read_text(path);
      Diagnostics d;
      auto m = parse_module(src, path.string(), d);
      if (!m) continue;
      for (const auto& f : m->functions) region(f->body);
    }
  }
};
}  // namespace

TEST_CASE("every canonical op and every type has a round-trip file", "[kir][text][L19.1]") {
  Seen seen;
  seen.dir("valid");
  for (const auto& op : all_ops()) {
    if (op.status != OpStatus::Canonical) continue;
    INFO("canonical op without a tests/kir/valid file: " << op.name);
    CHECK(seen.ops.count(std::string(op.name)) == 1);
  }
  for (TypeKind k : {TypeKind::Scalar, TypeKind::Tensor, TypeKind::Tuple, TypeKind::Record, TypeKind::Enum,
                     TypeKind::Domain, TypeKind::Subregion, TypeKind::Relation, TypeKind::View, TypeKind::Buffer}) {
    INFO("type kind without a valid file: " << static_cast<int>(k));
    CHECK(seen.kinds.count(k) == 1);
  }
  for (int d = 0; d < kNumDTypes; ++d) {
    INFO("dtype without a valid file: " << name(static_cast<DType>(d)));
    CHECK(seen.dtypes.count(static_cast<DType>(d)) == 1);
  }
}

TEST_CASE("every surface shorthand has a normalization test", "[kir][normalize][L19.1]") {
  Seen seen;
  seen.dir("normalize");
  for (const auto& op : all_ops()) {
    if (op.status != OpStatus::Surface) continue;
    INFO("surface op without a tests/kir/normalize file: " << op.name);
    CHECK(seen.ops.count(std::string(op.name)) == 1);
  }
}
