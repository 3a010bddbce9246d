# Third-party dependencies: the CUDA toolkit (runtime linked statically, CUPTI, NVTX headers),
# nlohmann-json (private, header-only), expat (private, the sanitizer's XML reports) and, for
# tests, GoogleTest. Debian/Ubuntu packages: nvidia CUDA toolkit, nlohmann-json3-dev,
# libexpat1-dev, libgtest-dev, libcli11-dev.
find_package(CUDAToolkit 12.8 REQUIRED)
if(NOT TARGET CUDA::cupti)
  message(FATAL_ERROR "kscope needs CUPTI (libcupti) from the CUDA toolkit at ${CUDAToolkit_ROOT}; "
                      "set CUDAToolkit_ROOT to a toolkit that has it.")
endif()

find_package(nlohmann_json 3.9 CONFIG QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(KSCOPE_NLOHMANN_INCLUDE nlohmann/json.hpp)
  if(NOT KSCOPE_NLOHMANN_INCLUDE)
    message(FATAL_ERROR "nlohmann/json.hpp not found: install nlohmann-json3-dev "
                        "(apt-get install nlohmann-json3-dev) or set CMAKE_PREFIX_PATH.")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${KSCOPE_NLOHMANN_INCLUDE})
endif()

# expat's runtime (libexpat.so.1) is part of every Debian and Ubuntu system; its header and the
# link name come with libexpat1-dev.
find_package(EXPAT 2.4 QUIET)
if(NOT TARGET EXPAT::EXPAT)
  message(FATAL_ERROR "expat.h or libexpat (>= 2.4) not found: install libexpat1-dev "
                      "(apt-get install libexpat1-dev) or set CMAKE_PREFIX_PATH.")
endif()

if(KSCOPE_BUILD_CLI)
  find_package(CLI11 CONFIG QUIET)
  if(NOT TARGET CLI11::CLI11)
    find_path(KSCOPE_CLI11_INCLUDE CLI/CLI.hpp)
    if(NOT KSCOPE_CLI11_INCLUDE)
      message(FATAL_ERROR "CLI/CLI.hpp not found: install libcli11-dev or pass -DKSCOPE_BUILD_CLI=OFF.")
    endif()
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    target_include_directories(CLI11::CLI11 INTERFACE ${KSCOPE_CLI11_INCLUDE})
  endif()
endif()
