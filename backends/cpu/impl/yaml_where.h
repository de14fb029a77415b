// "file:line:col" of a yaml-cpp mark (1-based), or the file alone when the mark is unknown: the
// place the backend's data files (config rows, vmath breakpoints) name in their errors.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

namespace kir::cpu {

inline std::string yaml_where(const std::string& file, const YAML::Mark& m) {
  return m.is_null() ? file : file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

}  // namespace kir::cpu
