# What `cmake --install` and `cpack -G DEB` ship. Everything is picked up by
# folder or glob, so new core folders and commands are installed without edits.
#
#   Runtime component (package ckpt-studio): ckpt and ckpt-studio in bin/, the
#   .desktop file, the icon (hicolor), ckpt(1) generated from `ckpt --help`,
#   bash completion.
#   Development component (package libckpt-dev): libckpt_core.a, every core
#   header under include/ckpt/<area>/ and the CMake package: another project
#   does find_package(ckpt REQUIRED) and links ckpt::core.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CKPT_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/ckpt")

# The library and its headers, with the folder structure the core has.
set_target_properties(ckpt_core PROPERTIES EXPORT_NAME core OUTPUT_NAME ckpt_core)
install(TARGETS ckpt_core EXPORT ckptTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT Development)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/core/"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/ckpt" COMPONENT Development
        FILES_MATCHING PATTERN "*.h")
install(EXPORT ckptTargets NAMESPACE ckpt:: DESTINATION "${CKPT_CMAKE_DIR}"
        COMPONENT Development)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/ckptConfig.cmake.in"
    "${PROJECT_BINARY_DIR}/ckptConfig.cmake" INSTALL_DESTINATION "${CKPT_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ckptConfigVersion.cmake"
    VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/ckptConfig.cmake"
              "${PROJECT_BINARY_DIR}/ckptConfigVersion.cmake"
        DESTINATION "${CKPT_CMAKE_DIR}" COMPONENT Development)

# ckpt(1) from the program's own --help, so it never drifts from the code.
find_program(CKPT_HELP2MAN help2man)
if(CKPT_HELP2MAN AND TARGET ckpt)
    set(CKPT_MAN_PAGE "${PROJECT_BINARY_DIR}/man/ckpt.1.gz")
    add_custom_command(OUTPUT "${CKPT_MAN_PAGE}"
        COMMAND "${CMAKE_COMMAND}" -DCKPT=$<TARGET_FILE:ckpt> -DHELP2MAN=${CKPT_HELP2MAN}
                -DOUTPUT=${CKPT_MAN_PAGE} -P "${PROJECT_SOURCE_DIR}/cmake/CkptManPage.cmake"
        DEPENDS ckpt "${PROJECT_SOURCE_DIR}/cmake/CkptManPage.cmake"
        COMMENT "Generating ckpt(1) from ckpt --help" VERBATIM)
    add_custom_target(ckpt_man ALL DEPENDS "${CKPT_MAN_PAGE}")
    install(FILES "${CKPT_MAN_PAGE}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1"
            COMPONENT Runtime)
else()
    message(STATUS "help2man not found: no ckpt(1) man page (apt-get install help2man)")
endif()
# The user guide (and the screenshots it shows), which Help ▸ User Guide opens
# from share/doc/ckpt-studio next to bin/.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/ckpt-studio" COMPONENT Runtime
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png")
install(FILES "${PROJECT_SOURCE_DIR}/resources/completion/ckpt.bash"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME ckpt
        COMPONENT Runtime)

# The Debian packages. Shared-library dependencies come from dpkg-shlibdeps on
# the installed binaries; the -dev package names the Debian -dev packages its
# CMake package finds.
set(CPACK_PACKAGE_NAME "ckpt-studio")
set(CPACK_PACKAGE_VENDOR "Ckpt Studio")
set(CPACK_PACKAGE_CONTACT "Ckpt Studio engineers <eng@ckpt.studio>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "ckpt-studio")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Runtime Development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "ckpt-studio")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION science)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "See, trust and steer training checkpoints\n\
 A desktop app (ckpt-studio) and a command-line tool (ckpt) for ML training\n\
 checkpoints of CANDLE, PyTorch Lightning, Keras, MindSpore, Orbax and Caffe2\n\
 runs: epochs, metric histories, checksum verification, relinking last/best,\n\
 pruning, weight diffs, restarts and forks. User guide in\n\
 /usr/share/doc/ckpt-studio.")
# The window loads its SVG icon through Qt's SVG image plugin.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libqt6svg6")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME "libckpt-dev")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
    "ckpt::core, the headless checkpoint library of Ckpt Studio\n\
 Static library, headers and CMake package: find_package(ckpt REQUIRED) and\n\
 link ckpt::core to scan, verify and write CANDLE checkpoints from C++.")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "qt6-base-dev, libhdf5-dev, nlohmann-json3-dev, zlib1g-dev, libisal-dev, libzip-dev, libprotobuf-dev, pkg-config")
include(CPack)
