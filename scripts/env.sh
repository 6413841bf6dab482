# Sourced by the setup and test scripts: the environment every tool here needs, and pnpm itself.
export REDOCLY_TELEMETRY=off
export TURBO_TELEMETRY_DISABLED=1
export DO_NOT_TRACK=1

# The pnpm version that the root package.json's packageManager pins (the one place it is written; this
# file's own path finds it, and node is all there is before pnpm).
pinned_pnpm_version() {
  node -p 'const path = require("node:path");
    const manifest = path.join(path.dirname(path.resolve(process.argv[1])), "..", "package.json");
    require(manifest).packageManager.replace(/^pnpm@/, "").split("+")[0]' "${BASH_SOURCE[0]}"
}

# pnpm 10 or later (pnpm-workspace.yaml speaks to 10 and to 11+); the pinned one when there is none.
ensure_pnpm() {
  local major version
  # `|| true`: with no pnpm yet the pipeline fails, and the scripts' `set -eo pipefail` would end silently.
  major=$(pnpm --version 2>/dev/null | cut -d. -f1) || true
  if [ -z "$major" ] || [ "$major" -lt 10 ]; then
    version=$(pinned_pnpm_version) || {
      echo "cannot read the pnpm version from packageManager in package.json" >&2
      return 1
    }
    echo "==> installing pnpm $version"
    npm i -g "pnpm@$version" >/dev/null
  fi
}

# Debian's Chromium, for the browser tests of the rendered docs (never a downloaded browser).
ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then return 0; fi
  echo "==> installing Debian's chromium"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}
