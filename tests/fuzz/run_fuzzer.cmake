# Builds the fuzz targets with clang in SCRATCH_DIR and runs FUZZER for SECONDS seconds on the seed
# corpus (tests/fuzz/corpus/<format>) plus SEED_DIRS, with the libFuzzer dictionary DICT when given.
# Fails on any crash, leak or sanitizer report.
# With CONVERT (the sinew tool) and CONVERT_INPUTS, each input is first converted to .g4tf, .g4b and
# Zstd .g4b seeds (G4MF seeds made from the shared glTF assets, never stored in the repo).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
find_program(CLANGXX clang++)
find_program(CLANG clang)
if(NOT CLANGXX OR NOT CLANG)
  message(FATAL_ERROR "clang is needed for the fuzz targets: apt-get install clang libclang-rt-14-dev")
endif()
run(${CMAKE_COMMAND} -S ${FUZZ_SOURCE_DIR} -B ${SCRATCH_DIR} -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_CXX_COMPILER=${CLANGXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo)
run(${CMAKE_COMMAND} --build ${SCRATCH_DIR} --target ${FUZZER})
# A scratch copy of the corpus: libFuzzer writes new inputs into the first corpus folder.
file(REMOVE_RECURSE ${SCRATCH_DIR}/corpus)
file(COPY ${FUZZ_SOURCE_DIR}/corpus/${FORMAT}/ DESTINATION ${SCRATCH_DIR}/corpus)
set(seeds)
if(CONVERT)
  file(REMOVE_RECURSE ${SCRATCH_DIR}/converted)
  file(MAKE_DIRECTORY ${SCRATCH_DIR}/converted)
  foreach(input ${CONVERT_INPUTS})
    get_filename_component(name ${input} NAME_WE)
    set(out ${SCRATCH_DIR}/converted/${name})
    run(${CONVERT} convert ${input} ${out}.g4tf)
    run(${CONVERT} convert ${input} ${out}.g4b)
    run(${CONVERT} convert ${input} ${out}_zstd.g4b --zstd)
  endforeach()
  list(APPEND seeds ${SCRATCH_DIR}/converted)
endif()
foreach(dir ${SEED_DIRS})
  if(IS_DIRECTORY ${dir})
    list(APPEND seeds ${dir})
  endif()
endforeach()
set(options)
if(DICT)
  list(APPEND options -dict=${DICT})
endif()
run(${SCRATCH_DIR}/${FUZZER} -max_total_time=${SECONDS} -max_len=1048576 -timeout=10
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${SCRATCH_DIR}/ ${options}
    ${SCRATCH_DIR}/corpus ${seeds})
