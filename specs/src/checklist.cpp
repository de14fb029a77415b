// The check → manifest rule mapping, read from the rule table (kir/rules/): each validator check's
// entry names the manifest rule it enforces, so the mapping, `kir explain` and docs/rules.md
// cannot disagree.
#include "specs/src/checklist.h"

#include "kir/rules/rule.h"

namespace kir::specs {

std::string checklist_id(const std::string& check) {
  const rules::Rule* r = rules::find(check);
  if (!r) return "";
  if (r->family == rules::Family::ManifestCheck) return std::string(r->parent);
  if (r->family == rules::Family::Manifest) return check;  // a check printed as its own rule (M2, M12)
  return "";
}

}  // namespace kir::specs
