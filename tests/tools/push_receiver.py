#!/usr/bin/python3
"""A push service for the tests, playing a browser too (Debian's python3-cryptography): on start it makes a
subscription's keys (a P-256 key pair and a 16-byte auth secret) and writes their public half to
FOLDER/subscription.txt ({"p256dh", "auth"}, base64url). Every POST it takes becomes a JSON file (000001.json, ...):
{"path", "headers", "jwt": {"header", "claims"}, "jwt_verified", "k", "message"}, the message decrypted here
(RFC 8291, aes128gcm) with the private key, independently of the server's code, and the VAPID JWT's ES256 signature
checked with the key in `k` (RFC 8292). It answers 201, or 410 Gone to a path with "gone" in it.

Usage: push_receiver.py PORT FOLDER  (127.0.0.1; runs until killed)
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hkdf(salt, ikm, info, length):
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()[:length]


KEY = ec.generate_private_key(ec.SECP256R1())
UA_PUBLIC = KEY.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
AUTH = os.urandom(16)
WRITING = threading.Lock()  # one push file at a time: each is numbered by those before it


def decrypt(body):
    salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    as_public, record = body[21:21 + idlen], body[21 + idlen:]
    if len(record) > rs:
        return None
    peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public)
    secret = KEY.exchange(ec.ECDH(), peer)
    ikm = hkdf(AUTH, secret, b"WebPush: info\x00" + UA_PUBLIC + as_public, 32)
    cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    try:
        plain = AESGCM(cek).decrypt(nonce, record, None).rstrip(b"\x00")
    except InvalidTag:
        return None
    return plain[:-1].decode() if plain.endswith(b"\x02") else None


def vapid(authorization):
    """The JWT's parts and whether its signature verifies with `k`."""
    fields = dict(part.strip().split("=", 1) for part in authorization[len("vapid "):].split(","))
    head, claims, signature = fields["t"].split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(fields["k"]))
    raw = b64d(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
        verified = len(raw) == 64
    except InvalidSignature:
        verified = False
    return {"header": json.loads(b64d(head)), "claims": json.loads(b64d(claims))}, verified, fields["k"]


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        push = {"path": self.path, "headers": dict(self.headers.items())}
        try:
            push["jwt"], push["jwt_verified"], push["k"] = vapid(self.headers.get("Authorization", ""))
        except (KeyError, ValueError):
            push["jwt"], push["jwt_verified"], push["k"] = None, False, None
        try:
            push["message"] = decrypt(body)
        except ValueError:
            push["message"] = None
        folder = self.server.folder
        with WRITING:
            count = len([n for n in os.listdir(folder) if n.endswith(".json")]) + 1
            path = os.path.join(folder, "%06d.json" % count)
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                json.dump(push, f, ensure_ascii=False)
            os.rename(path + ".tmp", path)
        self.send_response(410 if "gone" in self.path else 201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    with open(os.path.join(folder, "subscription.txt"), "w", encoding="utf-8") as f:
        json.dump({"p256dh": b64e(UA_PUBLIC), "auth": b64e(AUTH)}, f)
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.folder = folder
    server.serve_forever()


if __name__ == "__main__":
    main()
