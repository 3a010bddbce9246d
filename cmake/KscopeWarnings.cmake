# Warnings on for every kscope target; -Werror with KSCOPE_WERROR (CI preset); sanitizers with
# KSCOPE_SANITIZE (asan preset).
add_library(kscope_warnings INTERFACE)
target_compile_options(kscope_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${KSCOPE_WERROR}>>:-Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

# float-cast-overflow is not part of "undefined" (GCC, Clang): a double cast to an integer it does
# not fit (a number from a file: 1e300 as an ID) is undefined behaviour that must stop the test.
if(KSCOPE_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined,float-cast-overflow>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined,float-cast-overflow>)
  add_link_options(-fsanitize=address,undefined,float-cast-overflow)
endif()
