# Smoke tests of the WebAssembly command line. Under Emscripten, ctest runs each test through the
# crossing emulator, which the web preset sets to `node;--no-experimental-fetch` (Debian's
# Emscripten.cmake would otherwise pick node with a flag that Node 20 rejects). They check that the
# em++ build starts, reads files (NODERAWFS), prints results and reports bad input through C++
# exceptions. Numerical agreement with the native build is tests/native_vs_web.sh's job.
if(EMSCRIPTEN)
  enable_testing()
  add_test(NAME web.version COMMAND traincalc --version)
  set_tests_properties(web.version PROPERTIES PASS_REGULAR_EXPRESSION "^traincalc [0-9]")
  foreach(kind accelerators instances models frameworks)
    add_test(NAME web.list.${kind} COMMAND traincalc list ${kind} --format json)
  endforeach()
  set(_tc_bad ${CMAKE_BINARY_DIR}/webtests/malformed.json)
  file(WRITE ${_tc_bad} "{ \"model\": ")
  add_test(NAME web.malformed_input COMMAND traincalc estimate ${_tc_bad})
  set_tests_properties(web.malformed_input PROPERTIES PASS_REGULAR_EXPRESSION "^error: ")
  file(GLOB _tc_web_scenarios CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/presets/scenarios/*.json)
  foreach(f ${_tc_web_scenarios})
    get_filename_component(n ${f} NAME_WE)
    add_test(NAME web.estimate.${n} COMMAND traincalc estimate ${f})
  endforeach()
endif()
