# The Debian package: `cpack -G DEB` in the build folder (after a build) writes
# graphplace_<version>_<arch>.deb, which installs what `cmake --install` does under /usr. Its
# library dependencies come from dpkg-shlibdeps (Debian package dpkg-dev) run on the programs and
# plugins; libraries outside Debian's packages (a CUDA toolkit under /usr/local) add none.
# The package's Maintainer field, and the signer of its changelog: whoever answers for the
# package; the default is the graphplace team (the address its commits are made under).
set(GP_DEB_MAINTAINER "graphplace maintainers <maintainers@users.noreply.a-seed-5ac1ea67.example>"
    CACHE STRING "The .deb's Maintainer field: Name <address>")

# What Debian policy asks of every package in share/doc/graphplace: the copyright file
# (machine-readable format) and, for a native package, changelog.gz (Debian's changelog format,
# gzip -9n: the same bytes on every build).
set(GP_DEB_DOC ${CMAKE_BINARY_DIR}/deb)
configure_file(${PROJECT_SOURCE_DIR}/resources/deb/copyright ${GP_DEB_DOC}/copyright @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/resources/deb/changelog.in ${GP_DEB_DOC}/changelog @ONLY)
add_custom_command(OUTPUT ${GP_DEB_DOC}/changelog.gz
  COMMAND gzip -9nkf ${GP_DEB_DOC}/changelog
  DEPENDS ${GP_DEB_DOC}/changelog
  COMMENT "Debian changelog changelog.gz"
  VERBATIM)
add_custom_target(graphplace_deb_changelog ALL DEPENDS ${GP_DEB_DOC}/changelog.gz)
install(FILES ${GP_DEB_DOC}/copyright ${GP_DEB_DOC}/changelog.gz DESTINATION share/doc/graphplace)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME graphplace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${GP_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "place ML computation graphs on GPU clusters and simulate them")
# The extended description, one line per source line (Debian policy: lines under 80 columns).
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "graphplace imports a model (ONNX, TorchScript, Graphviz or its own JSON) or"
  "takes one from its zoo, places its operations on the GPUs of a cluster, and"
  "simulates a training or inference step. It compares baseline placements,"
  "improves one with a learned policy, plans data, tensor and pipeline"
  "parallel training, and profiles local GPUs."
  ""
  "The package holds the desktop app graphplace and the command line"
  "graphplace-cli.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Not linked: the CJK fonts and Qt's own translations the Chinese and Korean UI uses, and OpenBLAS
# (LibTorch's policy passes run ~4x faster on it than on the reference BLAS).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-translations-l10n, libopenblas0-pthread")
include(CPack)
