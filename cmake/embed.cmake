# Built-in presets are compiled into the program so that the CLI, the desktop app and the web page
# start with them and need no file at run time. Each file becomes one string in a generated table,
# returned by the function `name` (io/embedded.hpp).
function(traincalc_embed out name)
  set(files ${ARGN})
  # A list argument would be split at its semicolons on the command line: pass it with '|'.
  string(REPLACE ";" "|" joined "${files}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNAME=${name} -DROOT=${CMAKE_SOURCE_DIR} "-DFILES=${joined}"
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    COMMENT "Embedding presets: ${name}"
    VERBATIM)
endfunction()
