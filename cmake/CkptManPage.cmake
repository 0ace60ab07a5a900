# cmake -DCKPT=path/to/ckpt -DHELP2MAN=help2man -DOUTPUT=ckpt.1.gz -P CkptManPage.cmake
# Writes ckpt(1) with help2man from `ckpt --help` and `ckpt --version`, plus a
# COMMANDS section holding each command's own --help (commands are read from
# the top-level help, so a new command appears in the page by itself).
if(NOT DEFINED ENV{ASAN_OPTIONS})
    set(ENV{ASAN_OPTIONS} "detect_leaks=0") # a sanitizer build must still document itself
endif()
execute_process(COMMAND "${CKPT}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CKPT} --help failed (${rc})")
endif()
string(REGEX MATCHALL "\n  [a-z][a-z-]*  " lines "${help}")
set(include "[COMMANDS]\n")
foreach(line ${lines})
    string(STRIP "${line}" command)
    execute_process(COMMAND "${CKPT}" ${command} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${CKPT} ${command} --help failed (${rc})")
    endif()
    # roff: backslashes escaped, no line may start with a control character.
    string(REPLACE "\\" "\\e" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    string(APPEND include ".SS \"ckpt ${command}\"\n.nf\n${text}.fi\n")
endforeach()
get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(WRITE "${dir}/ckpt.h2m" "${include}")
execute_process(
    COMMAND "${HELP2MAN}" --no-info --no-discard-stderr --section 1
            --name "inspect, verify and steer training checkpoints"
            --include "${dir}/ckpt.h2m" --output "${dir}/ckpt.1" "${CKPT}"
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "help2man failed on ${CKPT} (${rc})")
endif()
execute_process(COMMAND gzip -9n -c "${dir}/ckpt.1" OUTPUT_FILE "${OUTPUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${dir}/ckpt.1 failed (${rc})")
endif()
