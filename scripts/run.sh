#!/usr/bin/env bash
# Builds Coffer and starts it. Arguments go to the `coffer` launcher (no arguments: usage for now).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -q -DskipTests package
exec app/target/coffer "$@"
