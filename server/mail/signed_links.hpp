#pragma once
// The tokens in a mail's links (docs/mail.md "Links"): what the link does, signed with the server's key
// (HMAC-SHA256), so that a confirmation or an unsubscribe works without signing in and nobody can make one.
// A token is base64url(payload) "." base64url(mac); the payload says what it is for and, if it expires, when.
#include <optional>
#include <string>
#include <string_view>

namespace emporium::server {

std::string sign_link(std::string_view key, std::string_view payload);
// The payload, if `token` was signed with `key`; none for anything else (the comparison takes the same time
// wherever two MACs differ).
std::optional<std::string> verified_link(std::string_view key, std::string_view token);

}  // namespace emporium::server
