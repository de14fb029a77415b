// The check → checklist table (see checklist.h).
#include "specs/src/checklist.h"

#include <map>

namespace kir::specs {

std::string checklist_id(const std::string& check) {
  static const std::map<std::string, std::string> table = {
      // M1 optional inputs, nullable outputs, presence over discriminants
      {"C36", "M1"},
      // M2 optional inputs come after required ones
      {"M2", "M2"},
      // M3 Maybe parameters: present(v) and v.value
      {"C18", "M3"}, {"C38", "M3"}, {"C9", "M3"},
      // M4 an index is needed only on branches that use it
      {"C41", "M4"}, {"W14", "M4"},
      // M5 workload rows
      {"W8", "M5"}, {"W9", "M5"}, {"W10", "M5"}, {"W11", "M5"}, {"W12", "M5"}, {"W22", "M5"},
      // M6 every optional tensor passed and omitted
      {"W23", "M6"},
      // M7 type families
      {"C19", "M7"}, {"C20", "M7"}, {"C21", "M7"}, {"C22", "M7"}, {"C30", "M7"}, {"C34", "M7"},
      {"C35", "M7"}, {"C37", "M7"},
      // M8 domain restrictions and refinements
      {"W13", "M8"}, {"C29", "M8"},
      // M9 ADTs
      {"S15", "M9"}, {"L7", "M9"}, {"C23", "M9"}, {"C31", "M9"},
      // M10 lets
      {"C24", "M10"}, {"C33", "M10"},
      // M11 primitives and the expression language
      {"C12", "M11"}, {"C13", "M11"}, {"C14", "M11"}, {"C15", "M11"}, {"C25", "M11"}, {"C27", "M11"},
      {"C32", "M11"}, {"C39", "M11"}, {"C40", "M11"}, {"C8", "M11"},
      // M12 construction-time tensors, device
      {"C5", "M12"}, {"C6", "M12"}, {"M12", "M12"},
      // M13 effects
      {"E1", "M13"}, {"E2", "M13"}, {"E3", "M13"}, {"E4", "M13"}, {"C11", "M13"},
      // M14 generators
      {"C28", "M14"}, {"W3", "M14"}, {"W4", "M14"}, {"W5", "M14"}, {"W16", "M14"}, {"W17", "M14"},
      {"W18", "M14"}, {"W20", "M14"}, {"C4", "M14"},
      // M15 requires predicates
      {"W2", "M15"}, {"W6", "M15"}, {"W7", "M15"}, {"W19", "M15"},
      // M16 dtype_combos and dtypes
      {"C7", "M16"}, {"C16", "M16"}, {"C17", "M16"}, {"C42", "M16"}, {"W15", "M16"},
      // M17 roofline (carrier bytes)
      {"S14", "M17"},
      // M18 Value-kind scalars only in refinements
      {"C26", "M18"},
      // M19 composition
      {"S8", "M19"},
      // parity with the paired Intent kernel (parity.h): pairing and parameter order follow
      // the declaration order (M2), access the effects (M13), dtypes M16, shapes M7, params and
      // fixed params M12
      {"P1", "M2"}, {"P2", "M2"}, {"P3", "M13"}, {"P4", "M16"}, {"P5", "M7"}, {"P6", "M7"}, {"P7", "M12"}, {"P8", "M12"},
  };
  auto it = table.find(check);
  return it == table.end() ? std::string() : it->second;
}

}  // namespace kir::specs
