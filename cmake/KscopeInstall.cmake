# Installs headers, libraries, the kscope CLI and a CMake package so that consumers can
# find_package(kscope) and link kscope::kscope.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kscope DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS kscope kscope_core kscope_annotate kscope_cuda kscope_report kscope_collect
                kscope_nvml kscope_thermal kscope_warnings
        EXPORT kscopeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The re-execution layer of the ncu/sanitizer tools (a static library kscope links).
install(TARGETS kscope_subprocess EXPORT kscopeTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET kscope_cli)
  install(TARGETS kscope_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(EXPORT kscopeTargets NAMESPACE kscope:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kscope)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kscopeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kscopeConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kscope)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kscopeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kscopeConfig.cmake ${PROJECT_BINARY_DIR}/kscopeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kscope)
