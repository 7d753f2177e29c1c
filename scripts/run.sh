#!/usr/bin/env bash
# Builds Coffer and starts it. Arguments go to the `coffer` launcher (no arguments on a desktop: the GUI).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -q -DskipTests package
exec app/target/coffer "$@"
