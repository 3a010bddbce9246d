# CUDA language for the test, example and benchmark kernels (the library itself is plain C++
# against the CUDA runtime API). Default architecture: sm_90 (H100/H200) with PTX, so newer GPUs
# JIT-compile; set CMAKE_CUDA_ARCHITECTURES for others.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
if(NOT CMAKE_CUDA_COMPILER AND EXISTS "${CUDAToolkit_NVCC_EXECUTABLE}")
  set(CMAKE_CUDA_COMPILER "${CUDAToolkit_NVCC_EXECUTABLE}")
endif()
enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
