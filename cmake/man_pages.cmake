# Man pages share/man/man1/<program>.1.gz, made at build time by help2man (Debian package
# help2man) from each program's --help and --version, plus resources/desktop/man_sections.h2m
# (files, environment), and compressed as Debian policy asks (gzip -9n: no name or time stamp,
# so the page is the same byte for byte on every build). Without help2man the pages are not made.
find_program(HELP2MAN_PROGRAM help2man)
if(NOT HELP2MAN_PROGRAM)
  message(STATUS "help2man not found: no man pages")
  return()
endif()

# gp_man_page(TARGET "one-line description"): <build>/man/TARGET.1.gz, built with `all`, installed.
function(gp_man_page target description)
  set(page ${CMAKE_BINARY_DIR}/man/${target}.1)
  set(packed ${page}.gz)
  set(sections ${PROJECT_SOURCE_DIR}/resources/desktop/man_sections.h2m)
  add_custom_command(OUTPUT ${packed}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    # The app's --help needs no display.
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
            ${HELP2MAN_PROGRAM} --no-info --section 1 --name ${description} --include ${sections}
            --output ${page} $<TARGET_FILE:${target}>
    COMMAND gzip -9nf ${page}
    DEPENDS ${target} ${sections}
    COMMENT "Man page ${target}.1.gz"
    VERBATIM)
  add_custom_target(${target}_man ALL DEPENDS ${packed})
  install(FILES ${packed} DESTINATION share/man/man1)
endfunction()

gp_man_page(graphplace-cli "place ML computation graphs on GPU clusters and simulate them (command line)")
if(TARGET graphplace)
  gp_man_page(graphplace "place ML computation graphs on GPU clusters and simulate them (desktop app)")
endif()
