# Precompiled headers. nlohmann_json (about 25,000 lines) reaches almost every file above the core
# through the io headers, and GoogleTest every test file: parsed once per target instead of once
# per file, they take 15-25% off a clean build (measured: sanitizer build 271 s -> 230 s, page
# 73 s -> 54 s, the same wasm byte for byte in size), for the test command's time budget
# (issue 11). Clang also keeps the header's template instantiations in the precompiled header.
# The core is left out: it includes no JSON, and a forced include would hide it if it started to.
function(traincalc_precompile target)
  if(TRAINCALC_PCH)
    target_precompile_headers(${target} PRIVATE <string> <vector> <nlohmann/json.hpp> ${ARGN})
  endif()
endfunction()
