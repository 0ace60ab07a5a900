# Helpers shared by every target of the project.

# Warnings are errors on our own targets only (never on Debian's headers).
function(ckpt_set_warnings target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
        -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Werror)
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
    set_tests_properties(${name} PROPERTIES
        TIMEOUT ${T_TIMEOUT}
        LABELS "${T_LABELS}"
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;CKPT_TEST_BINARY_DIR=${CMAKE_BINARY_DIR}")
endfunction()
