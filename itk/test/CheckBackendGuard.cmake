# CheckBackendGuard.cmake — a file that includes the module's headers with another
# VKFFT_BACKEND than libvkfftgo's must not compile, with a message naming both (the
# guard vkfftgo_config.h carries, which the module's headers include).
#   cmake -DCXX=... -DINCLUDES="a;b" -DOTHER=1 -DSOURCE=... -P CheckBackendGuard.cmake
set(_args)
foreach(d ${INCLUDES})
  list(APPEND _args -I${d})
endforeach()
execute_process(COMMAND ${CXX} -std=c++14 -fsyntax-only -DVKFFT_BACKEND=${OTHER} ${_args} ${SOURCE}
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc EQUAL 0)
  message(FATAL_ERROR "a file compiled with VKFFT_BACKEND=${OTHER} built against the module")
endif()
if(NOT err MATCHES "VKFFT_BACKEND is ${OTHER} .* but the installed libvkfftgo was built for")
  message(FATAL_ERROR "the compile failed without the backend guard's message:\n${err}")
endif()
string(REGEX MATCH "vkfftgo: VKFFT_BACKEND is [^.]*" _msg "${err}")
message(STATUS "refused as it should be: ${_msg}")
