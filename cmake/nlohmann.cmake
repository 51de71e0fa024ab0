# nlohmann_json behind one INTERFACE target. Under Emscripten, find_package fails and adding
# /usr/include breaks the sysroot's libc, so the build tree gets a folder holding only a link to
# the headers.
add_library(traincalc_json INTERFACE)
if(EMSCRIPTEN)
  set(_tc_json_dir ${CMAKE_BINARY_DIR}/json_include)
  file(MAKE_DIRECTORY ${_tc_json_dir})
  if(NOT EXISTS ${_tc_json_dir}/nlohmann)
    file(CREATE_LINK /usr/include/nlohmann ${_tc_json_dir}/nlohmann SYMBOLIC)
  endif()
  target_include_directories(traincalc_json SYSTEM INTERFACE ${_tc_json_dir})
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  target_link_libraries(traincalc_json INTERFACE nlohmann_json::nlohmann_json)
endif()
