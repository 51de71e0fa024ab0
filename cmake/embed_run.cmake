# Script mode: writes OUT, a C++ table {relative path, contents} of FILES, returned by function NAME.
set(body "// Generated from presets/ by cmake/embed_run.cmake. Do not edit.\n#include \"io/embedded.hpp\"\nnamespace tc::io {\nconst std::vector<EmbeddedFile>& ${NAME}() {\n  static const std::vector<EmbeddedFile> files = {\n")
string(REPLACE "|" ";" FILES "${FILES}")
foreach(f ${FILES})
  file(READ ${f} content)
  # Indentation is layout only: a JSON string holds no raw newline, so every newline and the spaces
  # after it sit between tokens. Dropping the spaces keeps line numbers for messages and shrinks the
  # page.
  string(REGEX REPLACE "\n[ ]+" "\n" content "${content}")
  # A file's "about" text says what its fields mean to a reader of the file; no program shows it,
  # and it would be some 2 KB of the page gzipped. Its line is emptied (one line: a JSON string
  # holds no raw newline) where a comma follows it, as after every key but an object's last; the
  # line itself stays, so that messages keep their line numbers.
  string(REGEX REPLACE "\n\"about\": \"[^\n]*\",\n" "\n\n" content "${content}")
  file(RELATIVE_PATH rel ${ROOT} ${f})
  string(FIND "${content}" ")tcjson\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${rel} contains the raw-string delimiter )tcjson\"")
  endif()
  string(APPEND body "    {\"${rel}\", R\"tcjson(${content})tcjson\"},\n")
endforeach()
string(APPEND body "  };\n  return files;\n}\n}  // namespace tc::io\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
