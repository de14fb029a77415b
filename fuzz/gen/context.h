// The state of one case under construction: the kernel's parameters (views with their input
// layout, runtime scalars, outputs), the extent symbols and their values, the helper functions
// emitted so far, and the families used.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fuzz/gen/fn_builder.h"
#include "fuzz/gen/gen.h"
#include "fuzz/gen/inputs.h"
#include "kir/type.h"

namespace kir::fuzz {

struct ViewParam {
  std::string name;  // with '%'
  Access access = Access::In;
  VType type;        // the tensor type
};

struct Ctx {
  explicit Ctx(const GenOptions& o);

  const GenOptions& opt;
  std::vector<DType> dtypes;              // dtypes values may take (options, or all)
  std::map<std::string, int> weights;     // family weights after the options' overrides
  std::vector<std::string> symbols;       // the kernel's extent symbols
  std::vector<std::string> params;        // kernel parameter declarations, in order
  std::vector<ViewParam> views;           // view parameters (In, Out, InOut)
  std::vector<GeneratedCase::Input> inputs;  // In/InOut views and runtime scalars (bits filled last)
  std::vector<std::string> helpers;       // module-level `fn` text, in definition order
  std::vector<std::string> families;      // families used, each once
  std::map<std::string, std::string> helper_cache;  // reusable helpers by signature
  std::vector<Recipe> recipes;            // data some inputs must hold (inputs.h), applied last
  FnBuilder kernel{true};
  uint64_t data_seed = 0;

  void family(const std::string& f);
  std::string helper_name(const std::string& base);  // "@base3"
  std::string param_name(const char* base);           // "%in4"
  int64_t numel(const FnBuilder& fb, const Shape& s) const;
  bool fits(const FnBuilder& fb, const Shape& s) const;  // within max_elements
  int64_t value_of(const FnBuilder& fb, const Ext& e) const { return e.eval(fb.atoms); }
  bool allowed(DType d) const;

 private:
  int counter_ = 0;
};

}  // namespace kir::fuzz
