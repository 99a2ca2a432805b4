#!/usr/bin/env bash
# Installs the Debian 12 packages Emporium needs to build, run and test. Safe to run again:
# it only calls apt-get when something is missing. Uses sudo when not root.
#   scripts/setup.sh           build and run
#   scripts/setup.sh --test    also what the tests need
set -euo pipefail

packages=(g++ cmake ninja-build pkg-config libboost-dev libboost-system-dev nlohmann-json3-dev zlib1g-dev
          libspdlog-dev libsqlite3-dev libpq-dev libssl-dev libjemalloc-dev
          libunistring-dev libsodium-dev libcurl4-openssl-dev)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(libgtest-dev libgmock-dev libbenchmark-dev)
  # The store suite and the cluster test start their own PostgreSQL server (initdb, pg_ctl) and HAProxy.
  packages+=(postgresql haproxy)
  # The mail tests' SMTP server (tests/tools/smtp_sink.py), for Debian's /usr/bin/python3.
  packages+=(python3-aiosmtpd)
  # The push tests' push service (tests/tools/push_receiver.py): its own decryption and VAPID check.
  packages+=(python3-cryptography)
  # deploy/backup.sh's SQLite backups, tried by the backup test (pg_dump comes with postgresql).
  packages+=(sqlite3)
  # The fuzzers (scripts/fuzz.sh): clang with libFuzzer's runtime.
  packages+=(clang libclang-rt-14-dev)
  # The web client's tests: node and npm (unit tests, playwright-core), Chromium (browser tests).
  command -v node >/dev/null 2>&1 || packages+=(nodejs npm)
  [[ -x /usr/bin/chromium ]] || packages+=(chromium)
  # Chinese and Japanese glyphs for the browser tests' screenshots (the client names Noto CJK among its fonts).
  packages+=(fonts-noto-cjk)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
