#!/usr/bin/env bash
# Renders the docs site and the change reports from the bundles in dist/ (called by build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off
node scripts/build-docs.mjs "$@"
