#!/usr/bin/env bash
# Quick start, command 1: installs everything, then runs the main job:
# lint, bundle, docs and change reports, client generation and builds, then the sandbox demo.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
ensure_pnpm
pnpm install --frozen-lockfile
pnpm lint
pnpm build
pnpm demo
