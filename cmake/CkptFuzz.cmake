# CKPT_FUZZ: instrument everything for libFuzzer + ASan + UBSan (clang only) so
# the targets in tests/fuzz/ see coverage of ckpt::core. scripts/fuzz.sh
# configures its own build directory with it; normal builds never turn it on.
option(CKPT_FUZZ "Build the libFuzzer targets in tests/fuzz (clang, ASan, UBSan)" OFF)
if(CKPT_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "CKPT_FUZZ needs clang (configure with -DCMAKE_CXX_COMPILER=clang++)")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                        -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
endif()
