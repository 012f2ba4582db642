#!/usr/bin/env bash
# Refreshes translations/*.ts from the tr() strings in app/ and widgets/ and the launch formats'
# descriptions in core/launch/launch_formats.cpp (lupdate keeps the
# existing translations; new strings arrive "unfinished" for a translator to fill in).
# The build compiles the .ts files with lrelease into the executable (app/CMakeLists.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
LUPDATE=$(command -v lupdate6 || echo /usr/lib/qt6/bin/lupdate)
for lang in zh_CN ko_KR; do
  "$LUPDATE" -locations relative -no-obsolete -target-language "$lang" app/desktop widgets core/launch/launch_formats.cpp \
    -ts "translations/graphplace_$lang.ts"
done
# English needs only its plural forms ("1 op" / "2 ops") for the %n strings.
"$LUPDATE" -locations relative -no-obsolete -pluralonly -target-language en app/desktop widgets \
  -ts translations/graphplace_en.ts
