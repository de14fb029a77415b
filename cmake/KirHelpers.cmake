# kir_library(NAME DIR [DEPS ...]): a static library made of every .cpp under DIR (recursively),
# with kir's warning policy. Folders add files without touching CMake.
set(KIR_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wimplicit-fallthrough)
if(KIR_WERROR)
  list(APPEND KIR_WARNINGS -Werror)
endif()
# GCC 12 at -O3 (Release) reports -Wrestrict overlaps inside libstdc++'s std::string
# concatenation that cannot happen (GCC bug 105329, fixed in later releases); a Release build would
# otherwise stop on them. Other build types (-O2) do not warn and keep the check.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND KIR_WARNINGS $<$<CONFIG:Release>:-Wno-restrict>)
endif()

if(KIR_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(KIR_TSAN)
  if(KIR_SANITIZE)
    message(FATAL_ERROR "KIR_TSAN and KIR_SANITIZE cannot be combined")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

function(kir_apply_policy target)
  target_compile_options(${target} PRIVATE ${KIR_WARNINGS})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()

function(kir_library name dir)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${dir}/*.cpp)
  add_library(${name} STATIC ${srcs})
  kir_apply_policy(${name})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()
