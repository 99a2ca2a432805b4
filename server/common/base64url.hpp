#pragma once
// base64url (RFC 4648 §5) without padding: seat tokens and session ids are written in it, and WebAuthn writes every
// byte string so. Decoding refuses padding, other characters and spare bits that are not zero, so that every byte
// string has one spelling.
#include <optional>
#include <string>
#include <string_view>

namespace emporium::server {

std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace emporium::server
