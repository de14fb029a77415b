// The coverage map of a campaign, as printed (`kir fuzz --coverage`) and in summary.json: the
// backend's cells (driver/coverage.h) counted over the cases of the run, grouped by subject —
// one line per implementation in a config row, per dtype pair, and per blocked loop, path,
// epilogue or task split with its classes side by side. Cells a compiled program had but no
// call reached count 0; so do the implementation x row cells of the active config rows that no
// program was built from.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "backends/cpu/driver/coverage.h"

namespace kir::fuzz {

// Adds "impl:<implementation>@<row>" (count 0) for every implementation of every active row.
void add_row_cells(cpu::CoverageMap& m);
// The printed map; `only_unreached` lists just the cells with count 0.
std::string coverage_table(const cpu::CoverageMap& m, bool only_unreached = false);
// {"reached": n, "cells": m, "map": {cell: count}}.
nlohmann::json coverage_json(const cpu::CoverageMap& m);
// The cells whose name contains `target` (the directed mode's test of a program's cells).
bool names_cell(const std::vector<std::string>& cells, const std::string& target);

}  // namespace kir::fuzz
