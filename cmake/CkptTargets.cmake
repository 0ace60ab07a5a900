# Helpers shared by every target of the project.

# Our targets build warning-free on GCC and clang; CKPT_WERROR (on in scripts/ and CI, off for
# a plain configure) turns warnings into errors there, never on Debian's headers. A user's
# build must not fail because a newer compiler learned a new warning.
option(CKPT_WERROR "Treat warnings in our own targets as errors" OFF)

# CKPT_SANITIZE=address,undefined or thread (scripts/test.sh --asan / --tsan):
# every target of the build, tests included, is instrumented; UBSan findings abort.
set(CKPT_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined | thread")
if(CKPT_SANITIZE)
    add_compile_options(-fsanitize=${CKPT_SANITIZE} -fno-omit-frame-pointer)
    add_link_options(-fsanitize=${CKPT_SANITIZE})
    if(CKPT_SANITIZE MATCHES "undefined")
        add_compile_options(-fno-sanitize-recover=undefined)
    endif()
endif()
# Debug information in .dwo files beside the objects (GCC and clang, Debug and
# RelWithDebInfo): an executable no longer carries its own copy of core's debug
# information. Without it the 149 programs of a RelWithDebInfo build with its
# tests were up to 200 MB each (libckpt_core.a 508 MB) and filled a CI machine's
# disk while linking; with it the whole build is 8.4 GB (ckpt-studio 131 MB,
# most of that the .debug_gnu_pubnames index GCC always adds to split DWARF;
# libckpt_core.a 189 MB). Off for sanitizer builds (not every symboliser follows
# .dwo files) and for a static library installed to be debugged after its build
# folder is gone.
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT CKPT_SANITIZE)
    set(_ckpt_split_dwarf_default ON)
else()
    set(_ckpt_split_dwarf_default OFF)
endif()
option(CKPT_SPLIT_DWARF "Debug information in .dwo files beside the objects"
       ${_ckpt_split_dwarf_default})
if(CKPT_SPLIT_DWARF)
    add_compile_options($<$<CONFIG:Debug,RelWithDebInfo>:-gsplit-dwarf>)
endif()

function(ckpt_set_warnings target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
        -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
    if(CKPT_WERROR)
        # (GCC 12 at -O3 misjudges "literal" + a temporary std::string as an
        # overlapping copy, -Wrestrict, GCC bugs 105329/105651: append instead.
        # CI's Release build keeps that an error, so it cannot come back.)
        target_compile_options(${target} PRIVATE -Werror)
        # With -fsanitize=thread GCC's flow analysis sees null paths the
        # instrumentation adds (in nlohmann::json's inlined getters): warned,
        # not fatal, in sanitizer builds only.
        if(CKPT_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
            target_compile_options(${target} PRIVATE -Wno-error=null-dereference)
        endif()
    endif()
endfunction()

# ckpt_add_test(<name> SOURCES <files...> [LIBS <targets...>] [LABELS <labels...>])
# One Qt Test executable registered with CTest, run on the offscreen platform with
# QStandardPaths test mode left to the test itself.
function(ckpt_add_test name)
    cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    qt_add_executable(${name} ${T_SOURCES})
    target_link_libraries(${name} PRIVATE ckpt::core ckpt_test_support Qt6::Test ${T_LIBS})
    ckpt_set_warnings(${name})
    add_test(NAME ${name} COMMAND ${name})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 120)
    endif()
    set(env "QT_QPA_PLATFORM=offscreen;CKPT_TEST_BINARY_DIR=${CMAKE_BINARY_DIR}")
    if(CKPT_SANITIZE)
        # Instrumented Debug code runs several times slower: more time, never a skip
        # (Qt Test's own per-function limit, 5 minutes by default, included).
        math(EXPR T_TIMEOUT "${T_TIMEOUT} * 4")
        list(APPEND env "QTEST_FUNCTION_TIMEOUT=1800000")
    endif()
    set_tests_properties(${name} PROPERTIES
        TIMEOUT ${T_TIMEOUT}
        LABELS "${T_LABELS}"
        ENVIRONMENT "${env}")
endfunction()
