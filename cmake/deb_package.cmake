# The Debian package: `cpack -G DEB` in the build folder (after a build) writes
# graphplace_<version>_<arch>.deb, which installs what `cmake --install` does under /usr. Its
# library dependencies come from dpkg-shlibdeps (Debian package dpkg-dev) run on the programs and
# plugins; libraries outside Debian's packages (a CUDA toolkit under /usr/local) add none.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME graphplace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "graphplace maintainers <maintainers@users.noreply.a-seed-5ac1ea67.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "place ML computation graphs on GPU clusters and simulate them")
set(CPACK_PACKAGE_DESCRIPTION
    "graphplace imports a model (ONNX, TorchScript, Graphviz or its own JSON) or takes one from its \
zoo, places its operations on the GPUs of a cluster, and simulates a training or inference step. It \
compares baseline placements, improves one with a learned policy, and profiles local GPUs. The \
package holds the desktop app graphplace and the command line graphplace-cli.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Not linked: the CJK fonts and Qt's own translations the Chinese and Korean UI uses, and OpenBLAS
# (LibTorch's policy passes run ~4x faster on it than on the reference BLAS).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-translations-l10n, libopenblas0-pthread")
include(CPack)
