# Installs the build tree into a scratch prefix, then configures, builds and runs a separate
# project that uses find_package(kscope) and links kscope::kscope.
set(prefix ${BINARY_DIR}/test-output/install)
set(consumer ${BINARY_DIR}/test-output/consumer)
file(REMOVE_RECURSE ${prefix} ${consumer})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix} RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/cmake/consumer -B ${consumer} -G Ninja
                        -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer with find_package(kscope) failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${consumer} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${consumer}/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "${out}")
if(rc OR NOT out MATCHES "kscope [0-9]")
  message(FATAL_ERROR "the consumer failed: ${rc} ${out}")
endif()
