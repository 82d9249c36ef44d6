# Installs the build tree into a scratch prefix, then configures, builds and runs one consumer
# (CONSUMER_SOURCE_DIR) against it, as an engine would use the installed package. No C++ standard
# is passed: the exported targets declare theirs. The consumer's exit code is the test's (77:
# skipped, no Vulkan device outside CI). With SINEW_SOURCE_DIR set instead, nothing is installed:
# the consumer builds sinew's source tree itself (add_subdirectory).
file(REMOVE_RECURSE ${SCRATCH_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
if(SINEW_SOURCE_DIR)
  run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${SCRATCH_DIR}/build -G ${GENERATOR}
      -DCMAKE_BUILD_TYPE=Debug -DSINEW_SOURCE_DIR=${SINEW_SOURCE_DIR})
else()
  run(${CMAKE_COMMAND} --install ${SINEW_BINARY_DIR} --prefix ${SCRATCH_DIR}/prefix)
  run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${SCRATCH_DIR}/build -G ${GENERATOR}
      -DCMAKE_PREFIX_PATH=${SCRATCH_DIR}/prefix -DCMAKE_BUILD_TYPE=Release -DREADME=${README}
      -DEMBEDDING_DOC=${EMBEDDING_DOC} -DASSETS=${ASSETS}
      -DVOLK=${VOLK})
endif()
run(${CMAKE_COMMAND} --build ${SCRATCH_DIR}/build)
file(GLOB program LIST_DIRECTORIES false ${SCRATCH_DIR}/build/*_host)
execute_process(COMMAND ${program} RESULT_VARIABLE rc)
if(rc EQUAL 77)
  message("SINEW_CONSUMER_SKIPPED: no Vulkan device")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "${program} failed (${rc})")
endif()
