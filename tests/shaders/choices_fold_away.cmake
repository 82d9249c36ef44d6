# The kernels' per-mesh choices fold away once a pipeline fixes them: SPV (a skinning kernel) with
# its specialization constants frozen at each of SETTINGS ('|'-separated, each a ','-separated
# list of id:value for spirv-opt's --set-spec-const-default-value; the others keep their defaults) and optimized with
# spirv-opt -O keeps no specialization-constant expression but the one on kInfluences (the dense
# K, 0 meaning "read it from the record"). A choice taken as an expression on a uint constant stays
# an expression here, and every format's code stays in every variant: the build that did so ran
# about 4x slower on an NVIDIA H200 (BENCHMARKS.md, "Compact vertex formats").
#
# cmake -DSPV=... -DOPT=spirv-opt -DDIS=spirv-dis -DOUT=<scratch prefix> "-DSETTINGS=..." -P this
string(REPLACE "|" ";" SETTINGS "${SETTINGS}")
foreach(setting IN LISTS SETTINGS)
  string(REPLACE "," " " values "${setting}")
  set(args --freeze-spec-const -O -o ${OUT}.spv ${SPV})
  if(values)
    set(args --set-spec-const-default-value "${values}" ${args})
  endif()
  execute_process(COMMAND ${OPT} ${args} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "spirv-opt failed on ${SPV} (${values}): ${err}")
  endif()
  execute_process(COMMAND ${DIS} ${OUT}.spv OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "spirv-dis failed on ${OUT}.spv")
  endif()
  string(REGEX MATCHALL "[^\n]*OpSpecConstantOp[^\n]*" ops "${text}")
  foreach(op IN LISTS ops)
    if(NOT op MATCHES "OpSpecConstantOp %bool INotEqual %kInfluences %uint_0$")
      message(FATAL_ERROR "${SPV} with '${values}' keeps a specialization-constant expression "
                          "after freezing and optimizing: ${op}")
    endif()
  endforeach()
  list(LENGTH ops count)
  message(STATUS "${SPV} '${values}': ${count} expression(s) left, on kInfluences")
endforeach()
