// Lookups on the manifest model.
#include "specs/src/model.h"

namespace kir::specs {

const TensorDecl* OpSpec::tensor(const std::string& n) const {
  for (const auto* v : {&ctor_tensors, &inputs, &outputs})
    for (const auto& t : *v)
      if (t.name == n) return &t;
  return nullptr;
}

const ParamDecl* OpSpec::param(const std::string& n) const {
  for (const auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const IndexDecl* OpSpec::index(const std::string& n) const {
  for (const auto& i : forall)
    if (i.name == n) return &i;
  return nullptr;
}

const LetDecl* OpSpec::let(const std::string& n) const {
  for (const auto& l : lets)
    if (l.name == n) return &l;
  return nullptr;
}

const FamilyDecl* OpSpec::family_decl(const std::string& n) const {
  for (const auto& f : families)
    if (f.name == n) return &f;
  return nullptr;
}

std::vector<const TensorDecl*> OpSpec::all_tensors() const {
  std::vector<const TensorDecl*> out;
  for (const auto* v : {&ctor_tensors, &inputs, &outputs})
    for (const auto& t : *v) out.push_back(&t);
  return out;
}

const AdtCtor* AdtDecl::ctor(const std::string& n) const {
  for (const auto& c : ctors)
    if (c.name == n) return &c;
  return nullptr;
}

const OpSpec* Manifest::op(const std::string& name) const {
  for (const auto& o : ops)
    if (o.name == name) return &o;
  return nullptr;
}

}  // namespace kir::specs
