#!/usr/bin/env bash
# The mail queue's rate (docs/benchmarks.md "Mail"): an SMTP server of its own (tests/tools/smtp_sink.py, Debian's
# python3-aiosmtpd, writing each mail to a file) and bench/mail_throughput queueing N mails at once.
# Usage: bench/mail.sh [N]   (after cmake --build build --target mail_throughput)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-1000}"
folder=$(mktemp -d)
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 tests/tools/smtp_sink.py "$port" "$folder" >/dev/null &
sink=$!
trap 'kill $sink 2>/dev/null; rm -rf "$folder"' EXIT
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.05; done
build/bench/mail_throughput "smtp://127.0.0.1:$port" "$n"
echo "the SMTP server took $(ls "$folder" | wc -l) mails"
