#!/usr/bin/env bash
# A self-signed certificate for trying the compose stack on one machine: deploy/certs/emporium.pem (certificate
# and key in one file, as HAProxy takes them), for the names given (default: localhost). Browsers warn about it;
# for a real site use Let's Encrypt (deploy/README.md).
#   deploy/make-cert.sh [name...]
set -euo pipefail
cd "$(dirname "$0")"
names=("${@:-localhost}")
san=""
for n in "${names[@]}"; do san+="${san:+,}DNS:$n"; done
mkdir -p certs
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=${names[0]}" -addext "subjectAltName=$san" \
  -keyout certs/emporium.key -out certs/emporium.crt 2>/dev/null
cat certs/emporium.crt certs/emporium.key > certs/emporium.pem
chmod 600 certs/emporium.key certs/emporium.pem
echo "deploy/certs/emporium.pem for ${names[*]}"
