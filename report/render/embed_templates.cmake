# Build step of kir_report (run with cmake -P): turns the Mustache templates and their CSS/JS
# partials under report/render/templates/ into one generated header of raw string literals, so the
# renderer carries its templates inside the binary and `kir report` needs no data files at run time.
# Inputs: -DOUT=<header> -DFILES=<file|file|...>. Each FILE becomes `kTemplate_<name>` where <name>
# is the file name with every non-alphanumeric character replaced by '_'.
set(delim "KIRTPL")
string(REPLACE "|" ";" FILES "${FILES}")
set(text "// Generated from report/render/templates/ by report/render/embed_templates.cmake: do not edit.\n#pragma once\n#include <string_view>\nnamespace kir::report::templates {\n")
foreach(file IN LISTS FILES)
  get_filename_component(base "${file}" NAME)
  string(MAKE_C_IDENTIFIER "${base}" ident)
  file(READ "${file}" body)
  string(FIND "${body}" ")${delim}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter )${delim}\"")
  endif()
  string(APPEND text "inline constexpr std::string_view kTemplate_${ident} = R\"${delim}(${body})${delim}\";\n")
endforeach()
string(APPEND text "}  // namespace kir::report::templates\n")
# Rewrite only on change so that an unchanged template does not rebuild the renderer.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${text}")
