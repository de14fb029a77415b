# Third-party packages, all from Debian 12 (scripts/install-deps.sh installs them).
# docs/dependencies.md says why each one is here.
find_package(PkgConfig REQUIRED)
pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET mpfr)
pkg_check_modules(GMP REQUIRED IMPORTED_TARGET gmp)
find_package(Boost 1.74 REQUIRED)
find_package(fmt REQUIRED)
if(NOT KIR_FUZZ_ONLY)  # the command line and the tests only
  find_package(CLI11 REQUIRED)
  find_package(Catch2 2 REQUIRED)
  # Mustache templates (header-only) for kir report's Markdown and HTML.
  find_path(KAINJOW_MUSTACHE_INCLUDE kainjow/mustache.hpp REQUIRED)
endif()
find_package(nlohmann_json REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(rapidcheck REQUIRED)
