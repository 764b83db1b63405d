#!/usr/bin/env bash
# The system programs `make test` drives, installed from Debian's packages when missing:
# chromium (the browser tests of /play and /docs), redis-server 7 (the TLS Redis test, the Redis
# Cluster of tests/cluster/, and the embedded default's preferred server) and redis-tools'
# redis-cli (which creates that cluster). As root, or with a password-less sudo, they are installed;
# otherwise one line says what to install, and `make test` stops there.
set -euo pipefail

needed=()
command -v chromium >/dev/null 2>&1 || needed+=(chromium)
command -v redis-server >/dev/null 2>&1 || needed+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || needed+=(redis-tools)
if [ ${#needed[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" = 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "make test needs Debian packages it cannot install without root: sudo apt-get install -y ${needed[*]}" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "make test needs ${needed[*]} on PATH (no apt-get here to install them)" >&2
    exit 1
fi
echo "Installing ${needed[*]} (Debian packages the tests drive)"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${needed[@]}"
